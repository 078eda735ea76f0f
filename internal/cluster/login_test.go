package cluster

import (
	"fmt"
	"os/exec"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// revocationBound is the documented bound within which a session ended
// through one process is refused by every other (docs/security.md).
const revocationBound = time.Second

// parallelGuessesOverBoth: issue 11 item 1 across instances. 150 logins
// for one user split over the two, the right password among the last 10:
// counting and deciding are one step in the database, so at most 5 answer
// 101; the others 103, or 429 where an instance's rate limit or hashing
// gate answered first; no token.
func parallelGuessesOverBoth(t *testing.T, a, b *instance) {
	pair := []*instance{a, b}
	wrong, right, err := testserver.LoginBurst(140, 10, 5, "401/101", func(i int, right bool) (*testserver.Response, error) {
		pw := fmt.Sprintf("guess-%d", i)
		if right {
			pw = "demo-agent"
		}
		return pair[i%2].Try("POST", "/login", map[string]string{"alias": "DEMO", "userName": "agent", "password": pw})
	})
	if err != nil {
		t.Fatal(err)
	}
	count := map[testserver.Answer]int{}
	for _, x := range append(wrong, right...) {
		count[x]++
	}
	t.Logf("150 logins over two instances: %v", count)
	if count["401/101"] == 0 || count["401/101"] > 5 {
		t.Errorf("%d answers 101, want 1 to 5", count["401/101"])
	}
	for x, n := range count {
		if x != "401/101" && x != "401/103" && x != "429/109" {
			t.Errorf("%d answers %s", n, x)
		}
	}
	for i, x := range right {
		if x != "401/103" && x != "429/109" {
			t.Errorf("right password #%d: %s", i+1, x)
		}
	}
}

// refusedWithin waits until tok is refused (305) by s, failing after the
// bound; it answers how long that took.
func refusedWithin(t *testing.T, s *instance, tok string, since time.Time, bound time.Duration) time.Duration {
	t.Helper()
	for {
		r, err := s.Try("POST", "/personSearch", `{"includeCols":["recNo"],"rowCount":1}`, testserver.Bearer(tok)...)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status == 401 && r.Code(t) == 305 {
			return time.Since(since)
		}
		if r.Status != 200 && r.Status != 204 && r.Status != 403 {
			t.Fatalf("%s: %d %s", s.name, r.Status, r.Body)
		}
		if time.Since(since) > bound {
			t.Fatalf("%s still accepts the token %s after the change", s.name, bound)
		}
		time.Sleep(5 * time.Millisecond) // waiting on another process, not a clock
	}
}

func useOn(t *testing.T, tok string, ss ...*instance) {
	t.Helper()
	for _, s := range ss {
		if r := s.Do(t, "POST", "/personSearch", `{"includeCols":["recNo"],"rowCount":1}`, testserver.Bearer(tok)...); r.Status != 200 && r.Status != 204 && r.Status != 403 {
			t.Fatalf("%s: %d %s", s.name, r.Status, r.Body)
		}
	}
}

// logoutReachesTheOther: issue 15 target 1. A's and B's session caches
// hold the session; a logout on A is refused by B within a second (NOTIFY).
func logoutReachesTheOther(t *testing.T, a, b *instance) {
	tok := token(t, login(t, a, "admin", "demo-admin"))
	useOn(t, tok, a, b, a, b)
	if r := a.Do(t, "GET", "/logout", nil, testserver.Bearer(tok)...); r.Status != 200 {
		t.Fatalf("logout on A: %d %s", r.Status, r.Body)
	}
	loggedOut := time.Now()
	wantCode(t, "A right after its logout", a.Do(t, "POST", "/personSearch", `{"includeCols":["recNo"],"rowCount":1}`, testserver.Bearer(tok)...), 401, 305)
	t.Logf("B refused the token %s after the logout on A", refusedWithin(t, b, tok, loggedOut, revocationBound).Round(time.Millisecond))
}

// adminCommandReachesBoth: `wayfarer admin` is a process of its own; the
// sessions it ends are refused by both running instances within a second.
func adminCommandReachesBoth(t *testing.T, a, b *instance) {
	for _, c := range []struct {
		user, pw string
		args     []string
	}{
		{"branch", "demo-branch", []string{"set-permissions", "--person", "select"}},
		{"branch", "demo-branch", []string{"disable"}},
	} {
		tok := token(t, login(t, a, c.user, c.pw))
		useOn(t, tok, a, b)
		args := append([]string{"--db", a.DBPath, "admin", "user", c.args[0], "--alias", "DEMO", "--user", c.user}, c.args[1:]...)
		if out, err := exec.Command(wayfarerBinary(t), args...).CombinedOutput(); err != nil {
			t.Fatalf("admin %v: %v\n%s", c.args, err, out)
		}
		done := time.Now()
		for _, s := range []*instance{a, b} {
			t.Logf("admin user %s: %s refused the session %s after the command ended", c.args[0], s.name,
				refusedWithin(t, s, tok, done, revocationBound).Round(time.Millisecond))
		}
	}
}
