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
	// RecordLoginFailure counts one failure atomically and, when the count
	// reaches maxFailures, locks the user until lockUntil and resets the count.
	RecordLoginFailure(ctx context.Context, agencyID, userID int64, maxFailures int, lockUntil time.Time) (locked bool, err error)
	RecordLoginSuccess(ctx context.Context, agencyID, userID int64) error
	// UnknownUserLocked and RecordUnknownLoginFailure do the same for a user
	// name that names no user (nameKey: NormalizeUserName), so that a
	// lockout does not tell which names exist.
	UnknownUserLocked(ctx context.Context, agencyID int64, nameKey string, now time.Time) (bool, error)
	RecordUnknownLoginFailure(ctx context.Context, agencyID int64, nameKey string, now time.Time, maxFailures int, lockUntil time.Time) error
	CreateToken(ctx context.Context, agencyID, userID int64, createdAt, expiresAt time.Time) (tokenID int64, err error)
	ExtendToken(ctx context.Context, agencyID, tokenID int64, expiresAt time.Time) error
	DeleteToken(ctx context.Context, agencyID, tokenID int64) error
	// SessionByToken loads the live session of a stored token: ErrNotFound
	// when the token is gone or expired, its user disabled or its agency inactive.
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
	TokenID   int64
	AgencyID  int64
	UserID    int64
	UserName  string
	Alias     string
	AppName   string
	ClientIP  string
	IssuedAt  time.Time
	ExpiresAt time.Time
}

// TokenCodec signs and verifies identity tokens. Verify checks signature,
// algorithm and expiry, answering a TokenError with the code of each failure.
type TokenCodec interface {
	Sign(c TokenClaims) (string, error)
	Verify(token string) (*TokenClaims, error)
}

// LoginConfig holds the login policy.
type LoginConfig struct {
	MaxFailures      int           // consecutive failures before lockout
	LockoutDuration  time.Duration // how long a lockout lasts
	TokenLifetime    time.Duration
	MinClientVersion string // "" accepts every client
	AppName          string
}

// LoginService runs logins and checks identity tokens.
type LoginService struct {
	Store  AuthStore
	Hasher PasswordHasher
	Tokens TokenCodec
	Clock  Clock
	Config LoginConfig
}

// LoginRequest is one login attempt.
type LoginRequest struct {
	Alias, UserName, Password string
	ClientVersion             string // from contract.ClientVersionHeader
	ClientIP                  string
}

func loginError(code int, msg string) *Error {
	return &Error{Kind: KindUnauthorized, Code: code, Method: MethodLogin, Message: msg}
}

// Login checks the request and answers a signed identity token.
func (s *LoginService) Login(ctx context.Context, req LoginRequest) (string, error) {
	if err := s.checkClientVersion(req.ClientVersion); err != nil {
		return "", err
	}
	alias := NormalizeAlias(req.Alias)
	if alias == "" {
		return "", loginError(contract.CodeInvalidAlias, "Invalid alias")
	}
	agency, err := s.Store.AgencyByAlias(ctx, alias)
	if errors.Is(err, ErrNotFound) {
		return "", loginError(contract.CodeInvalidAlias, "Invalid alias")
	} else if err != nil {
		return "", err
	}
	switch agency.Status {
	case AgencyActive:
	case AgencyNotInitialized:
		return "", loginError(contract.CodeAgencyNotInitialized, "Agency not initialized")
	case AgencyDisabled:
		return "", loginError(contract.CodeAgencyDisabled, "Agency disabled")
	default:
		return "", loginError(contract.CodeAgencyCancelled, "Agency cancelled")
	}

	badCredentials := loginError(contract.CodeInvalidCredentials, "Invalid Username/Password")
	now := s.Clock.Now()
	user, err := s.Store.UserByName(ctx, agency.ID, req.UserName)
	if errors.Is(err, ErrNotFound) {
		// An unknown user costs what a known one does, and locks as one does.
		s.Hasher.Burn(req.Password)
		return "", s.unknownUserFailure(ctx, agency.ID, req.UserName, now, badCredentials)
	} else if err != nil {
		return "", err
	}
	passwordOK := s.Hasher.Verify(req.Password, user.PasswordHash)
	if user.Locked(now) {
		return "", loginError(contract.CodeUserLocked, "User locked")
	}
	if !passwordOK {
		if _, err := s.Store.RecordLoginFailure(ctx, agency.ID, user.ID, s.Config.MaxFailures, now.Add(s.Config.LockoutDuration)); err != nil {
			return "", err
		}
		return "", badCredentials
	}
	// Only a caller who knows the password learns the account's state.
	if !user.Enabled {
		return "", loginError(contract.CodeUserDisabled, "User disabled")
	}
	if user.PasswordExpired(agency, now) {
		return "", loginError(contract.CodePasswordExpired, "Password is expired")
	}
	if err := s.Store.RecordLoginSuccess(ctx, agency.ID, user.ID); err != nil {
		return "", err
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

// unknownUserFailure answers a login for a name that names no user: 103
// while such failures have locked the name, 101 otherwise (counting one).
// Names longer than any user name can be are not counted: they never exist.
func (s *LoginService) unknownUserFailure(ctx context.Context, agencyID int64, name string, now time.Time, bad *Error) error {
	key := NormalizeUserName(name)
	if key == "" || len(key) > MaxUserNameLength {
		return bad
	}
	locked, err := s.Store.UnknownUserLocked(ctx, agencyID, key, now)
	if err != nil {
		return err
	}
	if locked {
		return loginError(contract.CodeUserLocked, "User locked")
	}
	if err := s.Store.RecordUnknownLoginFailure(ctx, agencyID, key, now, s.Config.MaxFailures, now.Add(s.Config.LockoutDuration)); err != nil {
		return err
	}
	return bad
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

// Authenticate turns a bearer token into the live session behind it.
func (s *LoginService) Authenticate(ctx context.Context, token string) (*Session, *TokenClaims, error) {
	if token == "" {
		return nil, nil, TokenError(contract.CodeTokenMissing, "Identity token missing")
	}
	claims, err := s.Tokens.Verify(token)
	if err != nil {
		return nil, nil, err
	}
	sess, err := s.Store.SessionByToken(ctx, claims.AgencyID, claims.TokenID, s.Clock.Now())
	if errors.Is(err, ErrNotFound) {
		return nil, nil, TokenError(contract.CodeTokenNotInStore, "Identity Token not found in store")
	} else if err != nil {
		return nil, nil, err
	}
	return sess, claims, nil
}

// Logout removes the session's token from the store: it is dead everywhere.
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
