package token

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

func code(t *testing.T, err error) int {
	t.Helper()
	e := wayfarer.AsError(err)
	if e == nil {
		t.Fatalf("want a *wayfarer.Error, got %v", err)
	}
	return e.Code
}

func TestSignVerifyAndFailures(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	clock := now
	key := []byte("0123456789abcdef0123456789abcdef")
	c := NewCodec(key, func() time.Time { return clock })
	tc := wayfarer.TokenClaims{TokenID: 7, AgencyID: 3, UserID: 9, UserName: "agent", Alias: "DEMO",
		AppName: "Wayfarer", ClientIP: "127.0.0.1", IssuedAt: now, ExpiresAt: now.Add(30 * time.Minute)}
	s, err := c.Sign(tc)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Verify(s)
	if err != nil || got.TokenID != 7 || got.AgencyID != 3 || got.UserName != "agent" {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	payload, _ := base64.RawURLEncoding.DecodeString(strings.Split(s, ".")[1])
	for _, claim := range []string{`"expireDate":"2026-11-21T10:30:00Z"`, `"expireInterval":30`, `"agencyRecNo":3`, `"appUserRecNo":9`, `"tokenRecNo":7`, `"alias":"DEMO"`, `"appName":"Wayfarer"`, `"clientIPAddress":"127.0.0.1"`} {
		if !strings.Contains(string(payload), claim) {
			t.Errorf("payload %s lacks %s", payload, claim)
		}
	}

	other := NewCodec([]byte("another key another key another k"), func() time.Time { return clock })
	if code(t, errOf(other.Verify(s))) != contract.CodeTokenSignatureMismatch {
		t.Error("a foreign signature must be 303")
	}
	if code(t, errOf(c.Verify("not.a.token"))) != contract.CodeTokenInvalid {
		t.Error("garbage must be 300")
	}
	parts := strings.Split(s, ".")
	none := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + parts[1] + "."
	if code(t, errOf(c.Verify(none))) != contract.CodeTokenInvalid {
		t.Error("alg none must be refused")
	}
	hs512, _ := jwt.NewWithClaims(jwt.SigningMethodHS512, jwt.MapClaims{"tokenRecNo": 7, "agencyRecNo": 3, "exp": now.Add(time.Hour).Unix()}).SignedString(key)
	if code(t, errOf(c.Verify(hs512))) != contract.CodeTokenInvalid {
		t.Error("HS512 must be refused")
	}
	clock = now.Add(31 * time.Minute)
	if code(t, errOf(c.Verify(s))) != contract.CodeTokenExpired {
		t.Error("an expired token must be 301")
	}
}

func errOf(_ *wayfarer.TokenClaims, err error) error { return err }

func TestExpireIntervalRoundsUp(t *testing.T) {
	for d, want := range map[time.Duration]int{30 * time.Minute: 30, 30 * time.Second: 1, 90 * time.Second: 2, time.Hour: 60} {
		if got := expireInterval(d); got != want {
			t.Errorf("expireInterval(%s) = %d, want %d", d, got, want)
		}
	}
}

// A token verified once is served from memory afterwards, but still expires
// on time, and a token with one changed byte is checked in full.
func TestVerifiedTokensExpireAndStayExact(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	clock := now
	c := NewCodec([]byte("0123456789abcdef0123456789abcdef"), func() time.Time { return clock })
	s, err := c.Sign(wayfarer.TokenClaims{TokenID: 7, AgencyID: 3, UserID: 9, IssuedAt: now, ExpiresAt: now.Add(time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if got, err := c.Verify(s); err != nil || got.TokenID != 7 || !got.ExpiresAt.Equal(now.Add(time.Minute)) {
			t.Fatalf("verify: %+v %v", got, err)
		}
	}
	if _, ok := c.verified.get(s); !ok {
		t.Fatal("a verified token is remembered")
	}
	tampered := s[:len(s)-2] + map[bool]string{true: "A", false: "B"}[s[len(s)-2] != 'A'] + s[len(s)-1:]
	if code(t, errOf(c.Verify(tampered))) != contract.CodeTokenSignatureMismatch {
		t.Error("a changed signature must be 303 even after the original was verified")
	}
	clock = now.Add(time.Minute)
	if code(t, errOf(c.Verify(s))) != contract.CodeTokenExpired {
		t.Error("a remembered token must expire at its exp")
	}
	if _, ok := c.verified.get(s); ok {
		t.Error("an expired token is forgotten")
	}
}

func TestVerifiedTokensStayBounded(t *testing.T) {
	v := verifiedTokens{max: 3}
	for i := range 10 {
		v.put(strings.Repeat("x", i+1), wayfarer.TokenClaims{TokenID: int64(i)})
		if len(v.claims) > 3 {
			t.Fatalf("%d entries", len(v.claims))
		}
	}
}

// An operator's token (docs/operators.md) carries adminUserRecNo and a null
// appUserRecNo, as the reference's recorded one; in the admin domain its
// agencyRecNo is 0. A token naming both a user and an operator is invalid.
func TestOperatorClaims(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	c := NewCodec([]byte("0123456789abcdef0123456789abcdef"), func() time.Time { return now })
	for _, agency := range []int64{0, 3} {
		s, err := c.Sign(wayfarer.TokenClaims{TokenID: 7, AgencyID: agency, OperatorID: 22, UserName: "ops", IssuedAt: now, ExpiresAt: now.Add(time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Verify(s)
		if err != nil || got.OperatorID != 22 || got.UserID != 0 || got.AgencyID != agency {
			t.Fatalf("agency %d: %+v %v", agency, got, err)
		}
		payload, _ := base64.RawURLEncoding.DecodeString(strings.Split(s, ".")[1])
		if !strings.Contains(string(payload), `"appUserRecNo":null`) || !strings.Contains(string(payload), `"adminUserRecNo":22`) {
			t.Fatalf("claims %s", payload)
		}
	}
	s, _ := c.Sign(wayfarer.TokenClaims{TokenID: 7, AgencyID: 0, UserID: 9, IssuedAt: now, ExpiresAt: now.Add(time.Hour)})
	if _, err := c.Verify(s); code(t, err) != contract.CodeTokenInvalid {
		t.Fatal("a user's token without an agency verified")
	}
	both, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, claims{AgencyRecNo: 3, AppUserRecNo: idOrNull(9), AdminUserRecNo: idOrNull(22), TokenRecNo: 7,
		RegisteredClaims: jwt.RegisteredClaims{ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour))}}).SignedString([]byte("0123456789abcdef0123456789abcdef"))
	if _, err := c.Verify(both); code(t, err) != contract.CodeTokenInvalid {
		t.Fatal("a token of a user and an operator verified")
	}
}
