package wayfarer

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// OperatorAlias tells an operator's login alias from an app user's: the
// reference's recordings show operators logging in with the alias
// followed by a colon, GET /login/AVDB: into agency AVDB and GET /login/:
// into the host's admin domain. alias is what precedes the colon ("" for
// the admin domain).
func OperatorAlias(raw string) (alias string, ok bool) {
	raw = strings.TrimSpace(raw)
	if !strings.HasSuffix(raw, ":") {
		return "", false
	}
	return NormalizeAlias(strings.TrimSuffix(raw, ":")), true
}

// operatorLogin logs a host operator in: to the admin domain when alias is
// empty, else to that agency with the rights granted there. Everything a
// user's login has applies: the address's failure budget (Login's), the
// agency's state (105..108), the hash gate, the lockout of the name
// (counted under HostAgencyID: one operator name, one lockout, whichever
// agency it aims at), 101 for a wrong password or an unknown name.
func (s *LoginService) operatorLogin(ctx context.Context, req LoginRequest, alias, client string, now time.Time) (string, error) {
	var agency *Agency
	if alias != "" {
		a, err := s.activeAgency(ctx, alias)
		if err != nil {
			return "", err
		}
		agency = a
	}
	release, ok := s.Hashing.Acquire(ctx)
	if !ok {
		return "", loginThrottled(time.Second, "the server is busy checking other logins")
	}
	defer release()

	ops := s.Operators
	var op *Operator
	if err := s.checkPassword(ctx, HostAgencyID, req, client, now, func() (string, error) {
		o, err := ops.Store.OperatorByName(ctx, req.UserName)
		if err != nil {
			return "", err
		}
		op = o
		return o.PasswordHash, nil
	}); err != nil {
		return "", err
	}
	if !op.Enabled {
		return "", loginError(contract.CodeUserDisabled, "User disabled")
	}
	sess := &Session{OperatorID: op.ID, UserName: op.Name}
	if agency != nil {
		_, granted, err := ops.Store.OperatorGrant(ctx, op.ID, agency.ID)
		if err != nil {
			return "", err
		}
		if !granted {
			// The agency is not in the operator's domain: as for a user
			// of another agency, the credentials are not valid here
			// (docs/operators.md).
			return "", loginError(contract.CodeInvalidCredentials, "Invalid Username/Password")
		}
		sess.AgencyID = agency.ID
	}
	expires := now.Add(s.Config.TokenLifetime)
	tokenID, err := ops.Store.CreateOperatorToken(ctx, sess.AgencyID, op.ID, now, expires)
	if err != nil {
		return "", err
	}
	if err := ops.Record(ctx, sess, "login", "", ""); err != nil {
		return "", err
	}
	c := TokenClaims{
		TokenID: tokenID, AgencyID: sess.AgencyID, OperatorID: op.ID, UserName: op.Name,
		AppName: s.Config.AppName, ClientIP: req.ClientIP, IssuedAt: now, ExpiresAt: expires,
	}
	if agency != nil {
		c.Alias = agency.Alias
	}
	return s.Tokens.Sign(c)
}

// errNotAdminDomain is the answer of an admin route to any session but an
// operator's in the admin domain.
func errNotAdminDomain() error {
	return Errorf(KindForbidden, contract.CodePermissionDenied, MethodAdmin,
		"Permission denied: only an operator logged in to the admin domain (GET /login/:) may call this")
}

// errNotFoundAsAdmin turns a store's ErrNotFound into the admin's 404.
func errNotFoundAsAdmin(err error, format string, args ...any) error {
	if errors.Is(err, ErrNotFound) {
		return adminNotFound(format, args...)
	}
	return err
}
