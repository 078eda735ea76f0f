package http_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

func login(t *testing.T, s *testserver.Server, alias, user, pw string, headers ...string) *testserver.Response {
	t.Helper()
	return s.Do(t, "POST", "/login", map[string]string{"alias": alias, "userName": user, "password": pw}, headers...)
}

// wantResult checks status, resultCode and method of an answer.
func wantResult(t *testing.T, r *testserver.Response, status, code int, method string) map[string]any {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d: %s", r.Status, status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Fatalf("content type %q", ct)
	}
	m := r.JSON(t)
	if got := r.Code(t); got != code {
		t.Fatalf("resultCode %d, want %d: %s", got, code, r.Body)
	}
	if method != "" && m["method"] != method {
		t.Fatalf("method %v, want %s: %s", m["method"], method, r.Body)
	}
	return m
}

func TestLoginSuccessBothForms(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		r := login(t, s, "DEMO", "admin", "demo-admin")
		m := wantResult(t, r, 200, 0, "")
		if m["resultDescription"] != "Login Successful" || len(strings.Split(m["identityToken"].(string), ".")) != 3 {
			t.Fatalf("body %s", r.Body)
		}
		// method names, aliases and user names are case-insensitive
		r = s.Do(t, "POST", "/LOGIN", `{"alias":"demo","userName":"Admin","password":"demo-admin"}`)
		wantResult(t, r, 200, 0, "")
		basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("agent:demo-agent"))
		r = s.Do(t, "GET", "/Login/demo", nil, "Authorization", basic)
		wantResult(t, r, 200, 0, "")
		// the POST form also takes Basic credentials when the body has none
		r = s.Do(t, "POST", "/login", `{"alias":"DEMO"}`, "Authorization", basic)
		wantResult(t, r, 200, 0, "")
	})
}

func TestTokenClaims(t *testing.T) {
	s := testserver.Start(t, testserver.Options{})
	tok := s.LoginDemo(t, "agent")
	parts := strings.Split(tok, ".")
	head, _ := base64.RawURLEncoding.DecodeString(parts[0])
	if string(head) != `{"alg":"HS256","typ":"JWT"}` {
		t.Fatalf("header %s", head)
	}
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	var c map[string]any
	if err := json.Unmarshal(payload, &c); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"expireDate", "expireInterval", "agencyRecNo", "appUserRecNo", "userName", "alias", "tokenRecNo", "appName", "clientIPAddress"} {
		if _, ok := c[k]; !ok {
			t.Errorf("claim %s missing from %s", k, payload)
		}
	}
	if c["expireInterval"] != float64(30) || c["alias"] != "DEMO" || c["userName"] != "agent" {
		t.Errorf("claims %s", payload)
	}
	if strings.Contains(string(payload), "demo-agent") || strings.Contains(strings.ToLower(string(payload)), "permission") {
		t.Errorf("token carries a password or permissions: %s", payload)
	}
}

type countingHasher struct {
	wayfarer.PasswordHasher
	n atomic.Int32
}

func (c *countingHasher) Verify(pw, enc string) bool {
	c.n.Add(1)
	return c.PasswordHasher.Verify(pw, enc)
}
func (c *countingHasher) Burn(pw string) { c.n.Add(1); c.PasswordHasher.Burn(pw) }

func TestWrongPasswordAndUnknownUserLookAlike(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		h := &countingHasher{PasswordHasher: s.App.Login.Hasher}
		s.App.Login.Hasher = h
		wrong := login(t, s, "DEMO", "agent", "nope")
		wantResult(t, wrong, 401, 101, "login")
		if h.n.Load() != 1 {
			t.Fatalf("a wrong password cost %d hashes", h.n.Load())
		}
		unknown := login(t, s, "DEMO", "nobody", "nope")
		wantResult(t, unknown, 401, 101, "login")
		if h.n.Load() != 2 {
			t.Fatalf("an unknown user must cost one hash too (total %d)", h.n.Load())
		}
		if string(wrong.Body) != string(unknown.Body) {
			t.Fatalf("bodies differ: %s vs %s", wrong.Body, unknown.Body)
		}
		want := `{"resultCode":101,"resultDescription":"Invalid Username/Password","method":"login"}`
		if string(wrong.Body) != want {
			t.Fatalf("body %s, want %s", wrong.Body, want)
		}
	})
}

func TestAgencyAndUserStates(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		cases := []struct {
			alias, user, pw string
			code            int
		}{
			{"NOSUCH", "admin", "demo-admin", 105},
			{"", "admin", "demo-admin", 105},
			{"NEWAGENCY", "admin", "demo-admin", 106},
			{"DISABLED", "admin", "demo-admin", 107},
			{"CANCELLED", "admin", "demo-admin", 108},
			{"DEMO", "disabled", "demo-disabled", 104},
			{"DEMO", "expired", "demo-expired", 102},
			{"OTHER", "admin", "demo-admin", 0},
		}
		for _, c := range cases {
			r := login(t, s, c.alias, c.user, c.pw)
			if c.code == 0 {
				wantResult(t, r, 200, 0, "")
			} else {
				wantResult(t, r, 401, c.code, "login")
			}
		}
		wantResult(t, s.Do(t, "POST", "/login", `{"userName":"admin","password":"demo-admin"}`), 401, 105, "login")
		wantResult(t, s.Do(t, "GET", "/login/%20", nil), 401, 105, "login")
		// a disabled user with a wrong password learns nothing about its state
		wantResult(t, login(t, s, "DEMO", "disabled", "wrong"), 401, 101, "login")
	})
}

func TestPasswordAge(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := t.Context()
		demo, _ := s.App.DB.AgencyByAlias(ctx, "DEMO")
		if _, err := s.App.Admin.CreateUser(ctx, wayfarer.NewUser{AgencyID: demo.ID, UserName: "aging", Type: wayfarer.UserTypeUser, Enabled: true}, "aging-password"); err != nil {
			t.Fatal(err)
		}
		wantResult(t, login(t, s, "DEMO", "aging", "aging-password"), 200, 0, "")
		s.Clock.Advance(89 * 24 * time.Hour)
		wantResult(t, login(t, s, "DEMO", "aging", "aging-password"), 200, 0, "")
		s.Clock.Advance(2 * 24 * time.Hour) // 91 days: past DEMO's 90
		wantResult(t, login(t, s, "DEMO", "aging", "aging-password"), 401, 102, "login")
		// the demo admin's password never expires
		wantResult(t, login(t, s, "DEMO", "admin", "demo-admin"), 200, 0, "")
		// a new password starts a new age
		u, _ := s.App.DB.UserByName(ctx, demo.ID, "aging")
		if err := s.App.Admin.SetPassword(ctx, demo.ID, u.ID, "renewed-password"); err != nil {
			t.Fatal(err)
		}
		wantResult(t, login(t, s, "DEMO", "aging", "renewed-password"), 200, 0, "")
	})
}

func TestLockout(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		for i := 0; i < 4; i++ {
			wantResult(t, login(t, s, "DEMO", "agent", "wrong"), 401, 101, "login")
		}
		// success resets the count: four more failures do not lock
		wantResult(t, login(t, s, "DEMO", "agent", "demo-agent"), 200, 0, "")
		for i := 0; i < 4; i++ {
			wantResult(t, login(t, s, "DEMO", "agent", "wrong"), 401, 101, "login")
		}
		wantResult(t, login(t, s, "DEMO", "agent", "demo-agent"), 200, 0, "")
		for i := 0; i < 5; i++ {
			wantResult(t, login(t, s, "DEMO", "agent", "wrong"), 401, 101, "login")
		}
		// locked: even the right password is refused, for 15 minutes
		wantResult(t, login(t, s, "DEMO", "agent", "demo-agent"), 401, 103, "login")
		s.Clock.Advance(14 * time.Minute)
		wantResult(t, login(t, s, "DEMO", "agent", "demo-agent"), 401, 103, "login")
		s.Clock.Advance(2 * time.Minute)
		wantResult(t, login(t, s, "DEMO", "agent", "demo-agent"), 200, 0, "")
	})
}

func TestLockoutConfigurable(t *testing.T) {
	s := testserver.Start(t, testserver.Options{Config: func(c *app.Config) { c.MaxFailures = 2; c.LockoutDuration = time.Hour }})
	wantResult(t, login(t, s, "DEMO", "agent", "wrong"), 401, 101, "login")
	wantResult(t, login(t, s, "DEMO", "agent", "wrong"), 401, 101, "login")
	wantResult(t, login(t, s, "DEMO", "agent", "demo-agent"), 401, 103, "login")
	s.Clock.Advance(59 * time.Minute)
	wantResult(t, login(t, s, "DEMO", "agent", "demo-agent"), 401, 103, "login")
	// an administrator can lift it early
	ctx := t.Context()
	demo, _ := s.App.DB.AgencyByAlias(ctx, "DEMO")
	u, _ := s.App.DB.UserByName(ctx, demo.ID, "agent")
	if err := s.App.DB.UnlockUser(ctx, demo.ID, u.ID); err != nil {
		t.Fatal(err)
	}
	wantResult(t, login(t, s, "DEMO", "agent", "demo-agent"), 200, 0, "")
}

func TestClientVersion(t *testing.T) {
	// by default every client is accepted, with or without the header
	s := testserver.Start(t, testserver.Options{})
	wantResult(t, login(t, s, "DEMO", "admin", "demo-admin"), 200, 0, "")
	wantResult(t, login(t, s, "DEMO", "admin", "demo-admin", contract.ClientVersionHeader, "0.1"), 200, 0, "")

	s = testserver.Start(t, testserver.Options{Config: func(c *app.Config) { c.MinClientVersion = "1.8.2" }})
	wantResult(t, login(t, s, "DEMO", "admin", "demo-admin"), 401, 100, "login")
	wantResult(t, login(t, s, "DEMO", "admin", "demo-admin", contract.ClientVersionHeader, "1.8.1.6"), 401, 100, "login")
	wantResult(t, login(t, s, "DEMO", "admin", "demo-admin", contract.ClientVersionHeader, "banana"), 401, 100, "login")
	wantResult(t, login(t, s, "DEMO", "admin", "demo-admin", contract.ClientVersionHeader, "1.8.2"), 200, 0, "")
	wantResult(t, login(t, s, "DEMO", "admin", "demo-admin", contract.ClientVersionHeader, "1.10.0"), 200, 0, "")
}

func TestTokenLifecycle(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		tok := s.LoginDemo(t, "admin")
		wantResult(t, s.Do(t, "GET", "/refreshIdentityToken", nil), 401, 302, "identityToken")
		wantResult(t, s.Do(t, "GET", "/refreshIdentityToken", nil, "Authorization", "Basic abc"), 401, 302, "identityToken")
		wantResult(t, s.Do(t, "GET", "/refreshIdentityToken", nil, testserver.Bearer("garbage")...), 401, 300, "identityToken")

		// a token signed with another key
		forged, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"tokenRecNo": 1, "agencyRecNo": 1, "exp": s.Clock.Now().Add(time.Hour).Unix()}).
			SignedString([]byte("not the server's key, not at all!"))
		wantResult(t, s.Do(t, "GET", "/logout", nil, testserver.Bearer(forged)...), 401, 303, "identityToken")
		// alg none, and a tampered payload under the real signature
		parts := strings.Split(tok, ".")
		none := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + parts[1] + "."
		wantResult(t, s.Do(t, "GET", "/logout", nil, testserver.Bearer(none)...), 401, 300, "identityToken")
		payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
		tampered := parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(payload), `"agencyRecNo":1`, `"agencyRecNo":2`, 1))) + "." + parts[2]
		wantResult(t, s.Do(t, "GET", "/logout", nil, testserver.Bearer(tampered)...), 401, 303, "identityToken")

		// refresh: a new token for the same session, with a new expiry
		s.Clock.Advance(20 * time.Minute)
		r := s.Do(t, "GET", "/RefreshIdentityToken", nil, testserver.Bearer(tok)...)
		m := wantResult(t, r, 200, 0, "")
		fresh, _ := m["refreshIdentityToken"].(string)
		if fresh == "" || fresh == tok || m["resultDescription"] != "" {
			t.Fatalf("refresh body %s", r.Body)
		}
		s.Clock.Advance(15 * time.Minute) // 35 min after login: the first token is expired, the fresh one is not
		wantResult(t, s.Do(t, "GET", "/refreshIdentityToken", nil, testserver.Bearer(tok)...), 401, 301, "identityToken")
		r = s.Do(t, "GET", "/logout", nil, testserver.Bearer(fresh)...)
		if string(r.Body) != `{"resultCode":0,"resultDescription":"Logout Successful"}` {
			t.Fatalf("logout body %s", r.Body)
		}
		wantResult(t, s.Do(t, "GET", "/logout", nil, testserver.Bearer(fresh)...), 401, 305, "identityToken")
	})
}

func TestTokenLifetimeConfigurable(t *testing.T) {
	s := testserver.Start(t, testserver.Options{Config: func(c *app.Config) { c.TokenLifetime = 5 * time.Minute }})
	tok := s.LoginDemo(t, "admin")
	s.Clock.Advance(4 * time.Minute)
	wantResult(t, s.Do(t, "GET", "/refreshIdentityToken", nil, testserver.Bearer(tok)...), 200, 0, "")
	s.Clock.Advance(2 * time.Minute)
	wantResult(t, s.Do(t, "GET", "/logout", nil, testserver.Bearer(tok)...), 401, 301, "identityToken")
}

func TestDisablingEndsSessions(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := t.Context()
		tok := s.LoginDemo(t, "agent")
		demo, _ := s.App.DB.AgencyByAlias(ctx, "DEMO")
		u, _ := s.App.DB.UserByName(ctx, demo.ID, "agent")
		if err := s.App.DB.SetUserEnabled(ctx, demo.ID, u.ID, false); err != nil {
			t.Fatal(err)
		}
		wantResult(t, s.Do(t, "GET", "/refreshIdentityToken", nil, testserver.Bearer(tok)...), 401, 305, "identityToken")
		other := s.Login(t, "OTHER", "admin", "demo-admin")
		ag, _ := s.App.DB.AgencyByAlias(ctx, "OTHER")
		if err := s.App.DB.SetAgencyStatus(ctx, ag.ID, wayfarer.AgencyCancelled); err != nil {
			t.Fatal(err)
		}
		wantResult(t, s.Do(t, "GET", "/refreshIdentityToken", nil, testserver.Bearer(other)...), 401, 305, "identityToken")
		wantResult(t, login(t, s, "OTHER", "admin", "demo-admin"), 401, 108, "login")
	})
}

func TestSigningKeySharedThroughDatabase(t *testing.T) {
	a := testserver.Start(t, testserver.Options{})
	b := testserver.Start(t, testserver.Options{DB: a.DBPath})
	tok := a.LoginDemo(t, "admin")
	wantResult(t, b.Do(t, "GET", "/refreshIdentityToken", nil, testserver.Bearer(tok)...), 200, 0, "")
	wantResult(t, b.Do(t, "GET", "/logout", nil, testserver.Bearer(tok)...), 200, 0, "")
	wantResult(t, a.Do(t, "GET", "/refreshIdentityToken", nil, testserver.Bearer(tok)...), 401, 305, "identityToken")
	// a configured key wins over the stored one: tokens of the stored key fail there
	c := testserver.Start(t, testserver.Options{DB: a.DBPath, Config: func(c *app.Config) { c.TokenKey = strings.Repeat("k", 32) }})
	tok = a.LoginDemo(t, "admin")
	wantResult(t, c.Do(t, "GET", "/refreshIdentityToken", nil, testserver.Bearer(tok)...), 401, 303, "identityToken")
}

func TestRequestErrors(t *testing.T) {
	s := testserver.Start(t, testserver.Options{Config: func(c *app.Config) { c.BodyLimit = 1024 }})
	r := s.Do(t, "POST", "/doesNotExist", `{}`)
	if r.Status != 404 || len(r.Body) != 0 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("unknown method: %d %q %q", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
	r = s.Do(t, "POST", "/login", `{"alias":"DEMO","userName":"admin","password":"`+strings.Repeat("x", 2000)+`"}`)
	wantResult(t, r, 413, 413, "")
	r = s.Do(t, "POST", "/login", "{\"alias\":\"DEMO\",\n \"userName\": admin}")
	m := wantResult(t, r, 400, 406, "login")
	if d := m["resultDescription"].(string); !strings.Contains(d, "Error deserializing Json") || !strings.Contains(d, "line 2, position") {
		t.Fatalf("description %q does not say where", d)
	}
	r = s.Do(t, "POST", "/login", `{"alias":42}`)
	m = wantResult(t, r, 400, 406, "login")
	if !strings.Contains(m["resultDescription"].(string), "Path 'alias'") {
		t.Fatalf("description %q does not name the path", m["resultDescription"])
	}
	if r := s.Do(t, "GET", "/personSearch", nil); r.Status != 405 || r.Header.Get("Allow") != "POST" {
		t.Fatalf("wrong verb: %d allow %q", r.Status, r.Header.Get("Allow"))
	}
}

func TestVersionAndHealth(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		m := wantResult(t, s.Do(t, "GET", "/Version", nil), 200, 0, "")
		v, ok := contract.ParseVersion(m["version"].(string))
		if !ok || contract.CompareVersions(v, []int{1, 8, 2}) < 0 || len(m) != 3 || m["resultDescription"] != "" {
			t.Fatalf("version body %v", m)
		}
		if r := s.Do(t, "GET", "/healthz", nil); r.Status != 200 {
			t.Fatalf("healthz %d", r.Status)
		}
		if r := s.Do(t, "GET", "/readyz", nil); r.Status != 200 {
			t.Fatalf("readyz %d", r.Status)
		}
	})
}

func TestLogsHoldNoSecrets(t *testing.T) {
	s := testserver.Start(t, testserver.Options{})
	tok := s.LoginDemo(t, "admin")
	login(t, s, "DEMO", "agent", "a-wrong-password")
	s.Do(t, "GET", "/refreshIdentityToken?token="+tok, nil, testserver.Bearer(tok)...)
	s.Do(t, "GET", "/person/4111111111111111", nil, testserver.Bearer(tok)...)
	s.Do(t, "GET", "/logout", nil, testserver.Bearer(tok)...)
	logs := s.Logs.String()
	for _, secret := range []string{"demo-admin", "a-wrong-password", tok, strings.Split(tok, ".")[2], "4111111111111111"} {
		if strings.Contains(logs, secret) {
			t.Fatalf("logs contain a secret %q:\n%s", secret[:8], logs)
		}
	}
	for _, want := range []string{"method=POST path=/login status=200", "alias=DEMO", "duration_ms="} {
		if !strings.Contains(logs, want) {
			t.Fatalf("logs lack %q:\n%s", want, logs)
		}
	}
}

// The lockout does not tell which names exist: an unknown name locks after
// as many failures as a known one, with the same answers.
func TestLockoutSameForUnknownUsers(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		answers := func(user string) []string {
			var out []string
			for i := 0; i < 6; i++ {
				out = append(out, string(login(t, s, "DEMO", user, "wrong-password").Body))
			}
			return out
		}
		known, unknown := answers("agent"), answers("nobody-here")
		for i := range known {
			if known[i] != unknown[i] {
				t.Fatalf("attempt %d: known %s, unknown %s", i+1, known[i], unknown[i])
			}
		}
		if !strings.Contains(unknown[5], `"resultCode":103`) {
			t.Fatalf("the 6th failure of an unknown name: %s", unknown[5])
		}
		s.Clock.Advance(16 * time.Minute)
		wantResult(t, login(t, s, "DEMO", "nobody-here", "wrong-password"), 401, 101, "login")
		// a day later the sweep forgets both names' counters (from this
		// address and from all addresses): known and unknown names alike
		s.Clock.Advance(25 * time.Hour)
		n, err := s.App.DB.DeleteStaleLoginAttempts(t.Context(), s.Clock.Now().Add(-24*time.Hour), s.Clock.Now())
		if err != nil || n != 4 {
			t.Fatalf("sweep removed %d: %v", n, err)
		}
	})
}
