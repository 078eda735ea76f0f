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

	"wayfarer/internal/wayfarer"
)

// claims are the reference's claims plus the registered exp and iat, which
// let the library enforce expiry.
type claims struct {
	ExpireDate      string `json:"expireDate"`
	ExpireInterval  int    `json:"expireInterval"`
	AgencyRecNo     int64  `json:"agencyRecNo"`
	AppUserRecNo    int64  `json:"appUserRecNo"`
	UserName        string `json:"userName"`
	Alias           string `json:"alias"`
	TokenRecNo      int64  `json:"tokenRecNo"`
	AppName         string `json:"appName"`
	ClientIPAddress string `json:"clientIPAddress"`
	jwt.RegisteredClaims
}

// Codec implements wayfarer.TokenCodec with one HMAC key.
type Codec struct {
	key    []byte
	parser *jwt.Parser
}

// NewCodec returns a codec signing with key; now is the clock expiry is judged by.
func NewCodec(key []byte, now func() time.Time) *Codec {
	return &Codec{
		key: key,
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
		ExpireInterval:  int(tc.ExpiresAt.Sub(tc.IssuedAt).Round(time.Minute) / time.Minute),
		AgencyRecNo:     tc.AgencyID,
		AppUserRecNo:    tc.UserID,
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

// Verify checks algorithm, signature and expiry, in that order, and maps each
// failure to its identity-token result code.
func (c *Codec) Verify(s string) (*wayfarer.TokenClaims, error) {
	if alg, ok := headerAlg(s); !ok {
		return nil, wayfarer.TokenError(wayfarer.CodeTokenInvalid, "Invalid identity token")
	} else if alg != jwt.SigningMethodHS256.Alg() {
		return nil, wayfarer.TokenError(wayfarer.CodeTokenInvalid, "Invalid identity token")
	}
	var cl claims
	_, err := c.parser.ParseWithClaims(s, &cl, func(*jwt.Token) (any, error) { return c.key, nil })
	switch {
	case err == nil:
	case errors.Is(err, jwt.ErrTokenSignatureInvalid):
		return nil, wayfarer.TokenError(wayfarer.CodeTokenSignatureMismatch, "Signature Mismatch")
	case errors.Is(err, jwt.ErrTokenExpired):
		return nil, wayfarer.TokenError(wayfarer.CodeTokenExpired, "Identity token is expired")
	default:
		return nil, wayfarer.TokenError(wayfarer.CodeTokenInvalid, "Invalid identity token")
	}
	if cl.TokenRecNo == 0 || cl.AgencyRecNo == 0 {
		return nil, wayfarer.TokenError(wayfarer.CodeTokenInvalid, "Invalid identity token")
	}
	return &wayfarer.TokenClaims{
		TokenID: cl.TokenRecNo, AgencyID: cl.AgencyRecNo, UserID: cl.AppUserRecNo,
		UserName: cl.UserName, Alias: cl.Alias, AppName: cl.AppName, ClientIP: cl.ClientIPAddress,
		IssuedAt: cl.IssuedAt.Time, ExpiresAt: cl.ExpiresAt.Time,
	}, nil
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
