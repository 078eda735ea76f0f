package http

import (
	"net/http"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// handleLogin is POST /login with {"alias","userName","password"}. Where
// the body carries no credentials, a Basic Authorization header may.
func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) error {
	body, err := readBody(r)
	if err != nil {
		return err
	}
	in, err := wire.DecodeLogin(s.codec, body)
	if err != nil {
		return err
	}
	if in.UserName == "" && in.Password == "" {
		if u, p, ok := r.BasicAuth(); ok {
			in.UserName, in.Password = u, p
		}
	}
	return s.login(w, r, in)
}

// handleLoginNoAlias is GET /login (and /login/): no alias at all is not a
// login but an unknown method, 404 with an empty body, as the reference
// answers (its Java client's test expects it). GET /login/{alias} with an
// alias no agency has is 401/105.
func (s *Server) handleLoginNoAlias(w http.ResponseWriter, r *http.Request) error {
	notFound(w)
	return nil
}

// handleLoginBasic is GET /login/{alias} with Basic credentials; an alias
// ending in a colon is a host operator's (GET /login/: for the admin
// domain, /login/{alias}: for an agency: docs/operators.md).
//
// Without Basic credentials the answer is the one it always was (401 with
// 105 for an unknown alias, 101 otherwise) plus a WWW-Authenticate
// challenge: HTTP clients that send credentials only when challenged (the
// reference's Java client uses Apache HttpClient's credentials provider)
// then send them. A request with no Authorization header at all tries no
// password, so it costs no check and no failure of its address.
func (s *Server) handleLoginBasic(w http.ResponseWriter, r *http.Request) error {
	in := contract.LoginRequest{Alias: r.PathValue("alias")}
	var ok bool
	in.UserName, in.Password, ok = r.BasicAuth()
	err := s.loginWith(w, r, in, r.Header.Get("Authorization") == "")
	if e := wayfarer.AsError(err); !ok && e != nil && e.Kind == wayfarer.KindUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="`+basicRealm+`", charset="UTF-8"`)
	}
	return err
}

// basicRealm names what Basic credentials open: the host's logins.
const basicRealm = "Wayfarer"

func (s *Server) login(w http.ResponseWriter, r *http.Request, in contract.LoginRequest) error {
	return s.loginWith(w, r, in, false)
}

// loginWith logs in; noCredentials marks a request that carried none at
// all (answered 101 without a password check: LoginRequest.NoCredentials).
func (s *Server) loginWith(w http.ResponseWriter, r *http.Request, in contract.LoginRequest, noCredentials bool) error {
	token, err := s.Login.Login(r.Context(), wayfarer.LoginRequest{
		Alias: in.Alias, UserName: in.UserName, Password: in.Password, NoCredentials: noCredentials,
		ClientVersion: r.Header.Get(contract.ClientVersionHeader), ClientIP: clientIP(r, s.Config.TrustedProxies),
	})
	e := wayfarer.AsError(err)
	if e != nil {
		e.Method = wayfarer.MethodLogin
	}
	s.Metrics.Login(loginCode(err, e))
	// The log names the agency only when the alias named one: an unknown
	// alias is whatever the client typed, a card number included (a 109
	// may come before the alias is looked at).
	if (err == nil || (e != nil && e.Code != contract.CodeInvalidAlias && e.Code != contract.CodeTooManyLogins)) && !wayfarer.ContainsCardNumber(in.Alias) {
		logOf(r.Context()).alias = wayfarer.NormalizeAlias(in.Alias)
	}
	if err != nil {
		return err
	}
	if _, operator := wayfarer.OperatorAlias(in.Alias); operator && s.Operators != nil {
		logOf(r.Context()).operator = in.UserName // logged once the password proved it a name
	} else {
		logOf(r.Context()).user = in.UserName // a user of that agency: it logged in
	}
	writeJSON(w, http.StatusOK, contract.LoginResult{IdentityToken: token, ResultCode: 0, ResultDescription: "Login Successful"})
	return nil
}

// loginCode is a login's outcome as the metrics count it: its resultCode.
func loginCode(err error, e *wayfarer.Error) int {
	switch {
	case err == nil:
		return contract.CodeOK
	case e != nil:
		return e.Code
	}
	return contract.CodeInternal
}

func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request) error {
	if err := s.Login.Logout(r.Context(), sessionOf(r)); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, contract.Result{ResultCode: 0, ResultDescription: "Logout Successful"})
	return nil
}

func (s *Server) handleRefresh(w http.ResponseWriter, r *http.Request) error {
	claims, _ := r.Context().Value(claimsKey{}).(*wayfarer.TokenClaims)
	token, err := s.Login.Refresh(r.Context(), sessionOf(r), claims)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, contract.RefreshResult{ResultCode: 0, ResultDescription: "", RefreshIdentityToken: token})
	return nil
}

// handleVersion answers the contract of the request's base path.
func (s *Server) handleVersion(w http.ResponseWriter, r *http.Request) error {
	v := contract.ContractVersion
	if contractOf(r) == contract181 {
		v = contract.ContractVersion181
	}
	writeJSON(w, http.StatusOK, contract.VersionResult{Version: v})
	return nil
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	return nil
}

// handleReady answers whether the instance should get traffic: the
// database answers and no migration is pending (a binary newer than its
// schema, started with --no-migrate, or a schema rolled back under it).
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) error {
	// The answer says why in words fit for anyone who can reach the port;
	// the log line has the database's own error.
	notReady := func(status, reason string, err error) {
		attrs := []any{"reason", reason}
		if err != nil {
			attrs = append(attrs, "error", err.Error())
		}
		s.log.WarnContext(r.Context(), "readiness check failed", attrs...)
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": status, "reason": reason})
	}
	if err := s.DB.Ping(r.Context()); err != nil {
		notReady("database unreachable", "the database does not answer", err)
		return nil
	}
	pending, err := s.DB.MigrationsPending(r.Context())
	switch {
	case err != nil:
		notReady("database unreachable", "the migration status cannot be read", err)
	case pending:
		notReady("migrations pending", "the database has pending migrations: run 'wayfarer migrate up'", nil)
	default:
		writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
	}
	return nil
}
