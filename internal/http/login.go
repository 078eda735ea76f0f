package http

import (
	"net/http"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

type loginBody struct {
	Alias    string `json:"alias"`
	UserName string `json:"userName"`
	Password string `json:"password"`
}

type loginResult struct {
	IdentityToken     string `json:"identityToken"`
	ResultCode        int    `json:"resultCode"`
	ResultDescription string `json:"resultDescription"`
}

// handleLogin is POST /login with {"alias","userName","password"}. Where
// the body carries no credentials, a Basic Authorization header may.
func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) error {
	body, err := readBody(r)
	if err != nil {
		return err
	}
	var in loginBody
	if len(body) > 0 {
		if err := wayfarer.DecodeJSON(body, &in, wayfarer.MethodLogin); err != nil {
			return err
		}
	}
	if in.UserName == "" && in.Password == "" {
		if u, p, ok := r.BasicAuth(); ok {
			in.UserName, in.Password = u, p
		}
	}
	return s.login(w, r, in)
}

// handleLoginBasic is GET /login/{alias} with Basic credentials.
func (s *Server) handleLoginBasic(w http.ResponseWriter, r *http.Request) error {
	in := loginBody{Alias: r.PathValue("alias")}
	in.UserName, in.Password, _ = r.BasicAuth()
	return s.login(w, r, in)
}

func (s *Server) login(w http.ResponseWriter, r *http.Request, in loginBody) error {
	token, err := s.Login.Login(r.Context(), wayfarer.LoginRequest{
		Alias: in.Alias, UserName: in.UserName, Password: in.Password,
		ClientVersion: r.Header.Get(wayfarer.ClientVersionHeader), ClientIP: clientIP(r, s.Config.TrustedProxies),
	})
	e := wayfarer.AsError(err)
	if e != nil {
		e.Method = wayfarer.MethodLogin
	}
	// The log names the agency only when the alias named one: an unknown
	// alias is whatever the client typed, a card number included (a 109
	// may come before the alias is looked at).
	if (err == nil || (e != nil && e.Code != wayfarer.CodeInvalidAlias && e.Code != wayfarer.CodeTooManyLogins)) && !wayfarer.ContainsCardNumber(in.Alias) {
		logOf(r.Context()).alias = wayfarer.NormalizeAlias(in.Alias)
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, loginResult{IdentityToken: token, ResultCode: 0, ResultDescription: "Login Successful"})
	return nil
}

func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request) error {
	if err := s.Login.Logout(r.Context(), sessionOf(r)); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, resultBody{ResultCode: 0, ResultDescription: "Logout Successful"})
	return nil
}

type refreshResult struct {
	ResultCode           int    `json:"resultCode"`
	ResultDescription    string `json:"resultDescription"`
	RefreshIdentityToken string `json:"refreshIdentityToken"`
}

func (s *Server) handleRefresh(w http.ResponseWriter, r *http.Request) error {
	claims, _ := r.Context().Value(claimsKey{}).(*wayfarer.TokenClaims)
	token, err := s.Login.Refresh(r.Context(), sessionOf(r), claims)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, refreshResult{ResultCode: 0, ResultDescription: "", RefreshIdentityToken: token})
	return nil
}

type versionResult struct {
	Version           string `json:"version"`
	ResultCode        int    `json:"resultCode"`
	ResultDescription string `json:"resultDescription"`
	WayfarerVersion   string `json:"wayfarerVersion"`
}

func (s *Server) handleVersion(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, versionResult{Version: wayfarer.ContractVersion, WayfarerVersion: s.Config.BuildVersion})
	return nil
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	return nil
}

func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) error {
	if err := s.DB.Ping(r.Context()); err != nil {
		s.log.Warn("readiness check failed", "error", err.Error())
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "database unreachable"})
		return nil
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
	return nil
}
