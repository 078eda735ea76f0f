package http_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

const (
	answerBadPassword = testserver.Answer("401/101")
	answerLocked      = testserver.Answer("401/103")
	answerThrottled   = testserver.Answer("429/109")
)

// checkGuessBurst holds the lockout's promise for a parallel guess: at most
// maxFailures answers 101, every other one 103 or 429 (a rate limit that
// answered first), and no token for anybody. rightIsWrong: the "right"
// password is wrong too (a name that names nobody), so it may be one of the
// checked failures when the rate limit kept wrong guesses from being
// checked before it was sent.
func checkGuessBurst(t *testing.T, maxFailures int, wrong, right []testserver.Answer, rightIsWrong bool) {
	t.Helper()
	count := map[testserver.Answer]int{}
	for _, a := range append(append([]testserver.Answer{}, wrong...), right...) {
		count[a]++
	}
	t.Logf("%d wrong and %d right passwords in parallel: %v", len(wrong), len(right), count)
	if count[answerBadPassword] > maxFailures || count[answerBadPassword] == 0 {
		t.Errorf("%d answers 101, want 1 to %d", count[answerBadPassword], maxFailures)
	}
	for a, n := range count {
		if a != answerBadPassword && a != answerLocked && a != answerThrottled {
			t.Errorf("%d answers %s", n, a)
		}
	}
	for i, a := range right {
		if a != answerLocked && a != answerThrottled && !(rightIsWrong && a == answerBadPassword) {
			t.Errorf("right password #%d: %s", i+1, a)
		}
	}
}

func loginFrom(s *testserver.Server, addr, user, pw string) (*testserver.Response, error) {
	return s.Try("POST", "/login", map[string]string{"alias": "DEMO", "userName": user, "password": pw}, "X-Forwarded-For", addr)
}

// Issue 11 item 1: 150 parallel logins, the right password among the last
// 10. The attempt is counted before its password is checked, so at most
// five are checked at all. Run as configured by default, and with the
// per-address rate limit off and room for every login to wait for a
// hashing slot, so that all 150 reach the lockout.
func TestParallelGuessesCannotOutrunTheLockout(t *testing.T) {
	for _, c := range []struct {
		name string
		opt  testserver.Options
	}{
		{"defaults", testserver.Options{}},
		{"lockout alone", testserver.Options{Config: func(c *app.Config) {
			c.LoginFailureRate, c.HashSlots, c.HashWait = -1, 8, time.Minute
		}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			testserver.Each(t, c.opt, func(t *testing.T, s *testserver.Server) {
				burst := func(user, rightPassword string, rightIsWrong bool) {
					t.Helper()
					wrong, right, err := testserver.LoginBurst(140, 10, 5, answerBadPassword, func(i int, right bool) (*testserver.Response, error) {
						pw := fmt.Sprintf("guess-%d", i)
						if right {
							pw = rightPassword
						}
						return s.Try("POST", "/login", map[string]string{"alias": "DEMO", "userName": user, "password": pw})
					})
					if err != nil {
						t.Fatal(err)
					}
					checkGuessBurst(t, 5, wrong, right, rightIsWrong)
				}
				burst("agent", "demo-agent", false)
				// The same for a name that names nobody: no existence oracle.
				s.Clock.Advance(2 * time.Minute) // the address pays back its debt of failures
				burst("nobody-here", "whatever", true)
			})
		})
	}
}

// Issue 11 item 2: a user locked from one address can still log in from
// another; the address comes from X-Forwarded-For only through a trusted
// proxy.
func TestLockoutIsPerAddress(t *testing.T) {
	trusted := testserver.Options{Config: func(c *app.Config) { c.TrustedProxies = "127.0.0.1/32" }}
	// Subtests of their own: a second "sqlite" subtest would be "sqlite#01",
	// and sqlite.Open cuts a path at '#' (a bug left to the storage task).
	t.Run("trusted proxy", func(t *testing.T) {
		testserver.Each(t, trusted, func(t *testing.T, s *testserver.Server) {
			for i := range 5 {
				r, err := loginFrom(s, "10.0.0.1", "agent", fmt.Sprintf("wrong-%d", i))
				if err != nil {
					t.Fatal(err)
				}
				wantResult(t, r, 401, 101, "login")
			}
			r, err := loginFrom(s, "10.0.0.2", "agent", "demo-agent")
			if err != nil {
				t.Fatal(err)
			}
			m := wantResult(t, r, 200, 0, "")
			if m["identityToken"] == "" {
				t.Fatal("no token")
			}
			r, _ = loginFrom(s, "10.0.0.1", "agent", "demo-agent")
			wantResult(t, r, 401, 103, "login")
			// The right-most address that is not a trusted proxy is the client:
			// what the client writes in front of it changes nothing.
			r, _ = loginFrom(s, "10.0.0.2, 10.0.0.1", "agent", "demo-agent")
			wantResult(t, r, 401, 103, "login")
			// The lockout of 10.0.0.1 ends after --lockout.
			s.Clock.Advance(15 * time.Minute)
			r, _ = loginFrom(s, "10.0.0.1", "agent", "demo-agent")
			wantResult(t, r, 200, 0, "")
		})
	})
	// Without trusted proxies the header is the client's word: ignored.
	t.Run("untrusted header", func(t *testing.T) {
		testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
			for i := range 5 {
				r, _ := loginFrom(s, "10.0.0.1", "agent", fmt.Sprintf("wrong-%d", i))
				wantResult(t, r, 401, 101, "login")
			}
			r, _ := loginFrom(s, "10.0.0.2", "agent", "demo-agent")
			wantResult(t, r, 401, 103, "login")
		})
	})
}

// A guess spread over many addresses still stops at the per-user cap.
func TestLockoutOverAllAddresses(t *testing.T) {
	opt := testserver.Options{Config: func(c *app.Config) {
		c.TrustedProxies = "127.0.0.1"
		c.MaxUserFailures = 12
	}}
	testserver.Each(t, opt, func(t *testing.T, s *testserver.Server) {
		for i := range 12 {
			r, _ := loginFrom(s, fmt.Sprintf("10.0.%d.1", i/4), "agent", "wrong")
			wantResult(t, r, 401, 101, "login")
		}
		r, _ := loginFrom(s, "10.0.99.1", "agent", "demo-agent")
		wantResult(t, r, 401, 103, "login")
		// Other names are not affected.
		r, _ = loginFrom(s, "10.0.99.1", "admin", "demo-admin")
		wantResult(t, r, 200, 0, "")
		s.Clock.Advance(15 * time.Minute)
		r, _ = loginFrom(s, "10.0.99.1", "agent", "demo-agent")
		wantResult(t, r, 200, 0, "")
	})
}

func TestFailedLoginsPerAddressAreRateLimited(t *testing.T) {
	opt := testserver.Options{Config: func(c *app.Config) {
		c.TrustedProxies = "127.0.0.1"
		c.LoginFailureRate = 10
	}}
	testserver.Each(t, opt, func(t *testing.T, s *testserver.Server) {
		// Successes do not spend the budget.
		for range 15 {
			r, _ := loginFrom(s, "10.0.0.1", "admin", "demo-admin")
			wantResult(t, r, 200, 0, "")
		}
		// Ten failures a minute from one address, over any names (a spray).
		for i := range 10 {
			r, _ := loginFrom(s, "10.0.0.1", fmt.Sprintf("user-%d", i), "wrong")
			wantResult(t, r, 401, 101, "login")
		}
		r, _ := loginFrom(s, "10.0.0.1", "admin", "demo-admin")
		m := wantResult(t, r, 429, contract.CodeTooManyLogins, "login")
		if d := m["resultDescription"].(string); !strings.HasPrefix(d, "Too many login attempts; retry later") || !strings.Contains(d, "failed logins from this address") {
			t.Errorf("description %q", d)
		}
		if ra := r.Header.Get("Retry-After"); ra != "6" {
			t.Errorf("Retry-After %q, want 6 (a failure every 6 s at 10 a minute)", ra)
		}
		// Refused before the alias is looked at: the log does not repeat it.
		r, _ = s.Try("POST", "/login", map[string]string{"alias": "NOSUCHALIAS", "userName": "a", "password": "b"}, "X-Forwarded-For", "10.0.0.1")
		wantResult(t, r, 429, contract.CodeTooManyLogins, "login")
		if strings.Contains(s.Logs.String(), "NOSUCHALIAS") {
			t.Error("the log names an alias that names no agency")
		}
		// Another address is not affected.
		r, _ = loginFrom(s, "10.0.0.2", "admin", "demo-admin")
		wantResult(t, r, 200, 0, "")
		// The budget refills with time.
		s.Clock.Advance(6 * time.Second)
		r, _ = loginFrom(s, "10.0.0.1", "admin", "demo-admin")
		wantResult(t, r, 200, 0, "")
	})
}

func TestLoginsWaitBrieflyForAHashingSlot(t *testing.T) {
	opt := testserver.Options{Config: func(c *app.Config) { c.HashSlots = 1; c.HashWait = time.Millisecond }}
	testserver.Each(t, opt, func(t *testing.T, s *testserver.Server) {
		release, ok := s.App.Login.Hashing.Acquire(t.Context())
		if !ok {
			t.Fatal("no slot")
		}
		for range 8 { // more than the lockout's threshold: these are not attempts
			r := login(t, s, "DEMO", "agent", "demo-agent")
			m := wantResult(t, r, 429, contract.CodeTooManyLogins, "login")
			if d := m["resultDescription"].(string); !strings.Contains(d, "busy") {
				t.Errorf("description %q", d)
			}
			if ra := r.Header.Get("Retry-After"); ra != "1" {
				t.Errorf("Retry-After %q", ra)
			}
		}
		release()
		wantResult(t, login(t, s, "DEMO", "agent", "demo-agent"), 200, 0, "")
	})
}
