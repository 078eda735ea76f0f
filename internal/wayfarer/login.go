package wayfarer

import (
	"context"
	"errors"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// AuthStore is what login and token checks need from storage.
type AuthStore interface {
	AgencyByAlias(ctx context.Context, alias string) (*Agency, error)
	UserByName(ctx context.Context, agencyID int64, userName string) (*User, error)
	// UpdateLoginCounters runs fn on the failed-login counters of key (zero
	// counters the first time) under a lock every instance on the database
	// respects, and stores what fn leaves unless fn fails (its error is
	// returned): counting an attempt and deciding that the name is locked
	// are one step.
	UpdateLoginCounters(ctx context.Context, key LoginAttemptKey, fn func(all, addr *LoginCounter) error) error
	CreateToken(ctx context.Context, agencyID, userID int64, createdAt, expiresAt time.Time) (tokenID int64, err error)
	// ExtendToken and DeleteToken record a Revocation of the token with
	// the change (session caches read the session again, or drop it).
	ExtendToken(ctx context.Context, agencyID, tokenID int64, expiresAt time.Time) error
	DeleteToken(ctx context.Context, agencyID, tokenID int64) error
	// SessionByToken loads the live session of a stored token: ErrNotFound
	// when the token is gone or expired, its user disabled or locked, or
	// its agency inactive.
	SessionByToken(ctx context.Context, agencyID, tokenID int64, now time.Time) (*Session, error)
}

// PasswordHasher hashes and verifies passwords with a slow hash.
type PasswordHasher interface {
	Hash(password string) (string, error)
	Verify(password, encoded string) bool
	// Burn costs what one Verify costs, for unknown users.
	Burn(password string)
}

// TokenClaims are the claims of an identity token, as the reference carries them.
type TokenClaims struct {
	TokenID    int64
	AgencyID   int64 // 0 with OperatorID: the admin domain
	UserID     int64 // 0 for an operator
	OperatorID int64 // the reference's adminUserRecNo: a host operator's token
	UserName   string
	Alias      string
	AppName    string
	ClientIP   string
	IssuedAt   time.Time
	ExpiresAt  time.Time
}

// TokenCodec signs and verifies identity tokens. Verify checks signature,
// algorithm and expiry, answering a TokenError with the code of each failure.
type TokenCodec interface {
	Sign(c TokenClaims) (string, error)
	Verify(token string) (*TokenClaims, error)
}

// LoginConfig holds the login policy.
type LoginConfig struct {
	Lockout          LockoutPolicy
	TokenLifetime    time.Duration
	MinClientVersion string // "" accepts every client
	AppName          string
}

// LoginService runs logins and checks identity tokens. Hashing, Failures
// and Sessions are optional (nil: no gate, no per-address limit, no cache).
type LoginService struct {
	Store    AuthStore
	Hasher   PasswordHasher
	Tokens   TokenCodec
	Clock    Clock
	Config   LoginConfig
	Hashing  *HashGate       // admits password checks
	Failures *FailureLimiter // failed logins per client address
	Sessions *SessionCache   // live sessions in memory
	// Operators: host operators' logins (GET /login/: and /login/{alias}:,
	// docs/operators.md); nil: those aliases are invalid, as any unknown one.
	Operators *OperatorService
}

// LoginRequest is one login attempt.
type LoginRequest struct {
	Alias, UserName, Password string
	ClientVersion             string // from contract.ClientVersionHeader
	ClientIP                  string // the client's address (docs/security.md: behind trusted proxies)
	// NoCredentials: the request carried no credentials at all, the first
	// leg of a client that sends them only when challenged (GET
	// /login/{alias} without an Authorization header: docs/operators.md,
	// "The Basic challenge").
	NoCredentials bool
}

func loginError(code int, msg string) *Error {
	return &Error{Kind: KindUnauthorized, Code: code, Method: MethodLogin, Message: msg}
}

// loginThrottled is the 429 answer of a login refused for now; why says
// which limit refused it.
func loginThrottled(retry time.Duration, why string) *Error {
	return &Error{Kind: KindThrottled, Code: contract.CodeTooManyLogins, Method: MethodLogin,
		Message: "Too many login attempts; retry later (" + why + ")", RetryAfter: max(retry, time.Second)}
}

// Login checks the request and answers a signed identity token. The order
// of the checks is docs/security.md's ("Logins and lockout").
func (s *LoginService) Login(ctx context.Context, req LoginRequest) (_ string, err error) {
	now := s.Clock.Now()
	client := ClientKey(req.ClientIP)
	// An address that has spent its failed logins waits; every login that
	// does not succeed, except a 429, is charged to its address.
	if ok, retry := s.Failures.Allow(client, now); !ok {
		return "", loginThrottled(retry, "too many failed logins from this address")
	}
	challengeOnly := false
	defer func() {
		if e := AsError(err); err != nil && !challengeOnly && (e == nil || e.Kind != KindThrottled) {
			s.Failures.Fail(client, s.Clock.Now())
		}
	}()
	if err := s.checkClientVersion(req.ClientVersion); err != nil {
		return "", err
	}
	if req.NoCredentials {
		// It tries no password: after the alias's answers (charged as
		// always), the 101 of no credentials costs no check and no failure,
		// so that a client logging in by challenge and response pays once.
		if err := s.checkAlias(ctx, req.Alias); err != nil {
			return "", err
		}
		challengeOnly = true
		return "", loginError(contract.CodeInvalidCredentials, "Invalid Username/Password")
	}
	if alias, ok := OperatorAlias(req.Alias); ok && s.Operators != nil {
		return s.operatorLogin(ctx, req, alias, client, now)
	}
	agency, err := s.activeAgency(ctx, req.Alias)
	if err != nil {
		return "", err
	}
	release, ok := s.Hashing.Acquire(ctx)
	if !ok {
		return "", loginThrottled(time.Second, "the server is busy checking other logins")
	}
	defer release()

	var user *User
	err = s.checkPassword(ctx, agency.ID, req, client, now, func() (string, error) {
		u, err := s.Store.UserByName(ctx, agency.ID, req.UserName)
		if err != nil {
			return "", err
		}
		user = u
		return u.PasswordHash, nil
	})
	if err != nil {
		return "", err
	}
	// Only a caller who knows the password learns the account's state.
	if user.Locked {
		return "", loginError(contract.CodeUserLocked, "User locked")
	}
	if !user.Enabled {
		return "", loginError(contract.CodeUserDisabled, "User disabled")
	}
	if user.PasswordExpired(agency, now) {
		return "", loginError(contract.CodePasswordExpired, "Password is expired")
	}
	expires := now.Add(s.Config.TokenLifetime)
	tokenID, err := s.Store.CreateToken(ctx, agency.ID, user.ID, now, expires)
	if err != nil {
		return "", err
	}
	return s.Tokens.Sign(TokenClaims{
		TokenID: tokenID, AgencyID: agency.ID, UserID: user.ID, UserName: user.UserName,
		Alias: agency.Alias, AppName: s.Config.AppName, ClientIP: req.ClientIP,
		IssuedAt: now, ExpiresAt: expires,
	})
}

// checkPassword is the password check of every login, users' and
// operators' alike, counted against the lockout of the name in counters
// (an agency, or HostAgencyID for operator names). hash looks the name
// up (ErrNotFound: nobody has it). It answers nil only for the right
// password; a wrong one, or a name nobody has, is 101 and costs the same.
func (s *LoginService) checkPassword(ctx context.Context, counters int64, req LoginRequest, client string, now time.Time,
	hash func() (string, error)) error {
	badCredentials := loginError(contract.CodeInvalidCredentials, "Invalid Username/Password")
	key := NormalizeUserName(req.UserName)
	if key == "" || len(key) > MaxUserNameLength {
		// Never a user's name: costs a check like any other, counts nowhere.
		s.Hasher.Burn(req.Password)
		return badCredentials
	}
	// The attempt is counted before its password is checked, and whether
	// or not the name is a user's: parallel guesses cannot outrun the
	// lockout, and the lockout does not tell which names exist.
	attempt := LoginAttemptKey{AgencyID: counters, NameKey: key, Client: client}
	policy := s.Config.Lockout
	err := s.Store.UpdateLoginCounters(ctx, attempt, func(all, addr *LoginCounter) error { return policy.Attempt(all, addr, now) })
	if errors.Is(err, errLockedOut) {
		return loginError(contract.CodeUserLocked, "User locked")
	} else if err != nil {
		return err
	}
	encoded, err := hash()
	if errors.Is(err, ErrNotFound) {
		s.Hasher.Burn(req.Password) // costs what a known user's check costs
		return badCredentials
	} else if err != nil {
		return err
	}
	if !s.Hasher.Verify(req.Password, encoded) {
		return badCredentials
	}
	return s.Store.UpdateLoginCounters(ctx, attempt, func(all, addr *LoginCounter) error {
		policy.Succeeded(all, addr)
		return nil
	})
}

// checkAlias answers what a login's alias alone earns: 105..108, or nil
// for an active agency (an operator's alias: the admin domain, or an
// active agency).
func (s *LoginService) checkAlias(ctx context.Context, raw string) error {
	if alias, ok := OperatorAlias(raw); ok && s.Operators != nil {
		if alias == "" {
			return nil
		}
		raw = alias
	}
	_, err := s.activeAgency(ctx, raw)
	return err
}

// activeAgency finds the agency an alias names and checks that it takes
// logins (105..108 otherwise).
func (s *LoginService) activeAgency(ctx context.Context, alias string) (*Agency, error) {
	alias = NormalizeAlias(alias)
	if alias == "" {
		return nil, loginError(contract.CodeInvalidAlias, "Invalid alias")
	}
	agency, err := s.Store.AgencyByAlias(ctx, alias)
	if errors.Is(err, ErrNotFound) {
		return nil, loginError(contract.CodeInvalidAlias, "Invalid alias")
	} else if err != nil {
		return nil, err
	}
	switch agency.Status {
	case AgencyActive:
		return agency, nil
	case AgencyNotInitialized:
		return nil, loginError(contract.CodeAgencyNotInitialized, "Agency not initialized")
	case AgencyDisabled:
		return nil, loginError(contract.CodeAgencyDisabled, "Agency disabled")
	default:
		return nil, loginError(contract.CodeAgencyCancelled, "Agency cancelled")
	}
}

func (s *LoginService) checkClientVersion(v string) error {
	if s.Config.MinClientVersion == "" {
		return nil
	}
	min, _ := contract.ParseVersion(s.Config.MinClientVersion)
	got, ok := contract.ParseVersion(v)
	if !ok || contract.CompareVersions(got, min) < 0 {
		return loginError(contract.CodeInvalidClientVersion, "Invalid AppServer client version")
	}
	return nil
}

// TokenError is the 401 answer of an identity-token failure.
func TokenError(code int, msg string) *Error {
	return &Error{Kind: KindUnauthorized, Code: code, Method: MethodIdentityToken, Message: msg}
}

// Authenticate turns a bearer token into the live session behind it: from
// the session cache when it holds the session, from the store otherwise.
// The token's signature and expiry are judged on every call.
func (s *LoginService) Authenticate(ctx context.Context, token string) (*Session, *TokenClaims, error) {
	if token == "" {
		return nil, nil, TokenError(contract.CodeTokenMissing, "Identity token missing")
	}
	claims, err := s.Tokens.Verify(token)
	if err != nil {
		return nil, nil, err
	}
	now := s.Clock.Now()
	var gen uint64
	if s.Sessions != nil {
		if sess, ok := s.Sessions.Get(claims.AgencyID, claims.TokenID, now); ok {
			return sess, claims, nil
		}
		gen = s.Sessions.Generation()
	}
	var sess *Session
	switch {
	case claims.OperatorID == 0:
		sess, err = s.Store.SessionByToken(ctx, claims.AgencyID, claims.TokenID, now)
	case s.Operators != nil:
		sess, err = s.Operators.Store.OperatorSessionByToken(ctx, claims.AgencyID, claims.TokenID, claims.OperatorID, now)
	default:
		err = ErrNotFound
	}
	if errors.Is(err, ErrNotFound) {
		return nil, nil, TokenError(contract.CodeTokenNotInStore, "Identity Token not found in store")
	} else if err != nil {
		return nil, nil, err
	}
	if s.Sessions != nil {
		s.Sessions.Put(sess, gen, now)
	}
	return sess, claims, nil
}

// Logout removes the session's token from the store: it is dead on every
// instance (the store records the revocation for their session caches).
func (s *LoginService) Logout(ctx context.Context, sess *Session) error {
	return s.Store.DeleteToken(ctx, sess.AgencyID, sess.TokenID)
}

// Refresh extends the stored session and signs a new token for it. The
// session keeps its tokenRecNo, so a logout still ends every token it issued.
func (s *LoginService) Refresh(ctx context.Context, sess *Session, old *TokenClaims) (string, error) {
	now := s.Clock.Now()
	expires := now.Add(s.Config.TokenLifetime)
	if err := s.Store.ExtendToken(ctx, sess.AgencyID, sess.TokenID, expires); err != nil {
		return "", err
	}
	c := *old
	c.IssuedAt, c.ExpiresAt = now, expires
	return s.Tokens.Sign(c)
}
