// Package token signs and verifies identity tokens: HS256 JWTs carrying the
// reference service's claims, made with golang-jwt.
package token

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// claims are the reference's claims plus the registered exp and iat, which
// let the library enforce expiry.
type claims struct {
	ExpireDate      string `json:"expireDate"`
	ExpireInterval  int    `json:"expireInterval"`
	AgencyRecNo     int64  `json:"agencyRecNo"`
	AppUserRecNo    *int64 `json:"appUserRecNo"`   // null in an operator's token, as the reference's
	AdminUserRecNo  *int64 `json:"adminUserRecNo"` // the host operator (docs/operators.md); null in a user's
	UserName        string `json:"userName"`
	Alias           string `json:"alias"`
	TokenRecNo      int64  `json:"tokenRecNo"`
	AppName         string `json:"appName"`
	ClientIPAddress string `json:"clientIPAddress"`
	jwt.RegisteredClaims
}

// Codec implements wayfarer.TokenCodec with one HMAC key.
type Codec struct {
	key      []byte
	now      func() time.Time
	parser   *jwt.Parser
	verified verifiedTokens
}

// NewCodec returns a codec signing with key; now is the clock expiry is judged by.
func NewCodec(key []byte, now func() time.Time) *Codec {
	return &Codec{
		key:      key,
		now:      now,
		verified: verifiedTokens{max: maxVerifiedTokens},
		parser: jwt.NewParser(
			jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
			jwt.WithExpirationRequired(),
			jwt.WithTimeFunc(now),
		),
	}
}

// Sign issues a token for c.
func (c *Codec) Sign(tc wayfarer.TokenClaims) (string, error) {
	cl := claims{
		ExpireDate:      tc.ExpiresAt.UTC().Format(time.RFC3339),
		ExpireInterval:  expireInterval(tc.ExpiresAt.Sub(tc.IssuedAt)),
		AgencyRecNo:     tc.AgencyID,
		AppUserRecNo:    idOrNull(tc.UserID),
		AdminUserRecNo:  idOrNull(tc.OperatorID),
		UserName:        tc.UserName,
		Alias:           tc.Alias,
		TokenRecNo:      tc.TokenID,
		AppName:         tc.AppName,
		ClientIPAddress: tc.ClientIP,
		RegisteredClaims: jwt.RegisteredClaims{
			IssuedAt:  jwt.NewNumericDate(tc.IssuedAt),
			ExpiresAt: jwt.NewNumericDate(tc.ExpiresAt),
		},
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, cl).SignedString(c.key)
}

// expireInterval is the token's lifetime in whole minutes, as the
// reference's claim has it, rounded up: a lifetime under a minute is 1, not 0.
func expireInterval(d time.Duration) int {
	return int((d + time.Minute - 1) / time.Minute)
}

// Verify checks algorithm, signature and expiry, in that order, and maps each
// failure to its identity-token result code. A token verified before is only
// checked for expiry again: its signature and claims cannot have changed.
func (c *Codec) Verify(s string) (*wayfarer.TokenClaims, error) {
	if tc, ok := c.verified.get(s); ok {
		if !c.now().Before(tc.ExpiresAt) {
			c.verified.drop(s)
			return nil, wayfarer.TokenError(contract.CodeTokenExpired, "Identity token is expired")
		}
		return &tc, nil
	}
	tc, err := c.verify(s)
	if err == nil {
		c.verified.put(s, *tc)
	}
	return tc, err
}

func (c *Codec) verify(s string) (*wayfarer.TokenClaims, error) {
	if alg, ok := headerAlg(s); !ok {
		return nil, wayfarer.TokenError(contract.CodeTokenInvalid, "Invalid identity token")
	} else if alg != jwt.SigningMethodHS256.Alg() {
		return nil, wayfarer.TokenError(contract.CodeTokenInvalid, "Invalid identity token")
	}
	var cl claims
	_, err := c.parser.ParseWithClaims(s, &cl, func(*jwt.Token) (any, error) { return c.key, nil })
	switch {
	case err == nil:
	case errors.Is(err, jwt.ErrTokenSignatureInvalid):
		return nil, wayfarer.TokenError(contract.CodeTokenSignatureMismatch, "Signature Mismatch")
	case errors.Is(err, jwt.ErrTokenExpired):
		return nil, wayfarer.TokenError(contract.CodeTokenExpired, "Identity token is expired")
	default:
		return nil, wayfarer.TokenError(contract.CodeTokenInvalid, "Invalid identity token")
	}
	user, operator := valueOf(cl.AppUserRecNo), valueOf(cl.AdminUserRecNo)
	// A user's token names an agency; an operator's may not (the admin domain).
	if cl.TokenRecNo == 0 || (cl.AgencyRecNo == 0 && operator == 0) || (user != 0 && operator != 0) {
		return nil, wayfarer.TokenError(contract.CodeTokenInvalid, "Invalid identity token")
	}
	return &wayfarer.TokenClaims{
		TokenID: cl.TokenRecNo, AgencyID: cl.AgencyRecNo, UserID: user, OperatorID: operator,
		UserName: cl.UserName, Alias: cl.Alias, AppName: cl.AppName, ClientIP: cl.ClientIPAddress,
		IssuedAt: cl.IssuedAt.Time, ExpiresAt: cl.ExpiresAt.Time,
	}, nil
}

func idOrNull(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

func valueOf(id *int64) int64 {
	if id == nil {
		return 0
	}
	return *id
}

// headerAlg reads the alg of a three-segment token without trusting it.
func headerAlg(s string) (string, bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return "", false
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[0])
	if err != nil {
		return "", false
	}
	var h struct {
		Alg string `json:"alg"`
	}
	if json.Unmarshal(raw, &h) != nil {
		return "", false
	}
	return h.Alg, true
}
