package http_test

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// live answers a token's session check: 200, or the 401 of a dead session.
func live(t *testing.T, s *testserver.Server, tok string) *testserver.Response {
	t.Helper()
	return s.Do(t, "POST", "/personSearch", `{"includeCols":["recNo"],"rowCount":1}`, testserver.Bearer(tok)...)
}

func wantLive(t *testing.T, s *testserver.Server, tok, what string) {
	t.Helper()
	if r := live(t, s, tok); r.Status != 200 && r.Status != 204 && r.Status != 403 {
		t.Fatalf("%s: %d %s", what, r.Status, r.Body)
	}
}

func wantEnded(t *testing.T, s *testserver.Server, tok, what string) {
	t.Helper()
	r := live(t, s, tok)
	if r.Status != 401 || r.Code(t) != contract.CodeTokenNotInStore {
		t.Fatalf("%s: %d %s, want 401/305", what, r.Status, r.Body)
	}
}

// Issue 11 item 6: changing who a user is or may do ends every session of
// the user at once; an agency leaving the active state ends all of its
// sessions. The sessions are in use (cached) when the change comes.
func TestSessionsEndWithUserAndAgencyChanges(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := t.Context()
		demo, _ := s.App.DB.AgencyByAlias(ctx, "DEMO")
		agent, _ := s.App.DB.UserByName(ctx, demo.ID, "agent")
		adm := s.App.Admin
		changes := []struct {
			what   string
			change func() error
			undo   func() error
		}{
			{"new password", func() error { return adm.SetPassword(ctx, demo.ID, agent.ID, "demo-agent") }, nil},
			{"new permissions", func() error {
				return adm.SetPermissions(ctx, agent, map[wayfarer.Area]wayfarer.Permission{wayfarer.AreaPerson: agent.Perms[wayfarer.AreaPerson] | wayfarer.PermDelete})
			}, nil},
			{"another branch", func() error { return adm.SetBranch(ctx, agent, "Harbor") }, func() error { return adm.SetBranch(ctx, agent, "Main") }},
			{"an advisor linked", func() error { return adm.LinkAdvisor(ctx, agent, "Mark Mainwaring") }, nil},
			{"an advisor unlinked", func() error { return adm.UnlinkAdvisor(ctx, agent, "Mark Mainwaring") }, nil},
			{"disabled", func() error { return adm.SetEnabled(ctx, agent, false) }, func() error { return adm.SetEnabled(ctx, agent, true) }},
			{"locked", func() error { return adm.Lock(ctx, agent) }, func() error { return adm.Unlock(ctx, agent) }},
		}
		for _, c := range changes {
			tok, other := s.LoginDemo(t, "agent"), s.LoginDemo(t, "admin")
			wantLive(t, s, tok, c.what+": before")
			wantLive(t, s, other, c.what+": admin before")
			if err := c.change(); err != nil {
				t.Fatalf("%s: %v", c.what, err)
			}
			wantEnded(t, s, tok, c.what)
			wantLive(t, s, other, c.what+": another user's session")
			if c.undo != nil {
				if err := c.undo(); err != nil {
					t.Fatalf("undo %s: %v", c.what, err)
				}
			}
		}
		// Linking an advisor already linked changes nothing and ends nothing.
		tok := s.LoginDemo(t, "agent")
		wantLive(t, s, tok, "before relinking")
		if err := adm.LinkAdvisor(ctx, agent, "Alice Advisor"); err != nil {
			t.Fatal(err)
		}
		wantLive(t, s, tok, "after linking an advisor linked already")

		for _, st := range []wayfarer.AgencyStatus{wayfarer.AgencyDisabled, wayfarer.AgencyCancelled} {
			other, _ := s.App.DB.AgencyByAlias(ctx, "OTHER")
			if err := adm.SetAgencyStatus(ctx, other, wayfarer.AgencyActive); err != nil {
				t.Fatal(err)
			}
			tok := s.Login(t, "OTHER", "admin", "demo-admin")
			wantLive(t, s, tok, "OTHER before")
			if err := adm.SetAgencyStatus(ctx, other, st); err != nil {
				t.Fatal(err)
			}
			wantEnded(t, s, tok, "agency "+st.String())
			wantLive(t, s, s.LoginDemo(t, "admin"), "another agency's session")
		}
	})
}

// An administrator's lock: sessions end; the right password answers 103,
// a wrong one 101 (the lock is news only to who knows the password);
// unlock lifts it, and lifts lockouts by failed logins too.
func TestAdministratorLock(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := t.Context()
		demo, _ := s.App.DB.AgencyByAlias(ctx, "DEMO")
		agent, _ := s.App.DB.UserByName(ctx, demo.ID, "agent")
		if err := s.App.Admin.Lock(ctx, agent); err != nil {
			t.Fatal(err)
		}
		wantResult(t, login(t, s, "DEMO", "agent", "demo-agent"), 401, 103, "login")
		wantResult(t, login(t, s, "DEMO", "agent", "wrong"), 401, 101, "login")
		users, err := s.App.DB.ListUsers(ctx, demo.ID, s.Clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range users {
			if (u.UserName == "agent") != u.Locked {
				t.Errorf("%s: locked %v", u.UserName, u.Locked)
			}
		}
		if err := s.App.Admin.Unlock(ctx, agent); err != nil {
			t.Fatal(err)
		}
		wantResult(t, login(t, s, "DEMO", "agent", "demo-agent"), 200, 0, "")
		for range 5 {
			login(t, s, "DEMO", "agent", "wrong")
		}
		wantResult(t, login(t, s, "DEMO", "agent", "demo-agent"), 401, 103, "login")
		users, _ = s.App.DB.ListUsers(ctx, demo.ID, s.Clock.Now())
		for _, u := range users {
			if (u.UserName == "agent") != u.LockedOut {
				t.Errorf("%s: locked out %v", u.UserName, u.LockedOut)
			}
		}
		if err := s.App.Admin.Unlock(ctx, agent); err != nil {
			t.Fatal(err)
		}
		wantResult(t, login(t, s, "DEMO", "agent", "demo-agent"), 200, 0, "")
	})
}

type countingSessions struct {
	wayfarer.AuthStore
	reads atomic.Int32
}

func (c *countingSessions) SessionByToken(ctx context.Context, agencyID, tokenID int64, now time.Time) (*wayfarer.Session, error) {
	c.reads.Add(1)
	return c.AuthStore.SessionByToken(ctx, agencyID, tokenID, now)
}

// Issue 15 target 1: a token check answered from memory, without a store
// round trip per request; expiry still judged every time, and a logout or
// refresh through this instance effective at once.
func TestSessionCacheSparesStoreReads(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		store := &countingSessions{AuthStore: s.App.Login.Store}
		s.App.Login.Store = store
		tok := s.LoginDemo(t, "admin")
		for range 10 {
			wantLive(t, s, tok, "cached")
		}
		if n := store.reads.Load(); n != 1 {
			t.Fatalf("10 requests read the session %d times, want 1", n)
		}
		// A refresh revokes the cached session: the next check reads it again.
		r := s.Do(t, "GET", "/refreshIdentityToken", nil, testserver.Bearer(tok)...)
		fresh, _ := r.JSON(t)["refreshIdentityToken"].(string)
		wantLive(t, s, fresh, "refreshed")
		if n := store.reads.Load(); n != 2 { // the refresh itself was served from memory
			t.Fatalf("after a refresh: %d reads, want 2", n)
		}
		// Past the cache's bound (30 s) the session is read again.
		s.Clock.Advance(31 * time.Second)
		wantLive(t, s, fresh, "after 31 s")
		if n := store.reads.Load(); n != 3 {
			t.Fatalf("after the cache bound: %d reads, want 3", n)
		}
		// Expiry: the token's own, judged on every request.
		s.Clock.Advance(30 * time.Minute)
		if r := live(t, s, fresh); r.Status != 401 || r.Code(t) != contract.CodeTokenExpired {
			t.Fatalf("expired: %d %s", r.Status, r.Body)
		}
		tok = s.LoginDemo(t, "admin")
		wantLive(t, s, tok, "new login")
		if r := s.Do(t, "GET", "/logout", nil, testserver.Bearer(tok)...); r.Status != 200 {
			t.Fatalf("logout %d", r.Status)
		}
		wantEnded(t, s, tok, "after logout on this instance")
	})
	// --session-cache 0: every check asks the store.
	s := testserver.Start(t, testserver.Options{Config: func(c *app.Config) { c.SessionCache = -1 }})
	store := &countingSessions{AuthStore: s.App.Login.Store}
	s.App.Login.Store = store
	tok := s.LoginDemo(t, "admin")
	for range 3 {
		wantLive(t, s, tok, "uncached")
	}
	if n := store.reads.Load(); n != 3 {
		t.Fatalf("without a cache: %d reads, want 3", n)
	}
}

// sessionRevocationBound is the documented bound within which a change made
// by another process reaches a running instance (docs/security.md).
const sessionRevocationBound = time.Second

// Issue 11 item 6 and issue 15: an admin command is another process on the
// same database. Its change reaches the running instance's session cache
// within the bound: by the revocation log's poll on SQLite, by NOTIFY on
// PostgreSQL.
func TestChangesOfAnotherProcessReachTheSessionCache(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := t.Context()
		// The admin command's instance: no cache, no listener, as `wayfarer admin` opens it.
		cli, err := app.Open(ctx, app.Config{DB: s.DBPath, SessionCache: -1, PasswordParams: testserver.CheapPasswords}, slog.New(slog.DiscardHandler), s.Clock)
		if err != nil {
			t.Fatal(err)
		}
		defer cli.Close()
		demo, _ := cli.DB.AgencyByAlias(ctx, "DEMO")
		for _, c := range []struct {
			what   string
			user   string
			change func(u *wayfarer.User) error
		}{
			{"disable", "agent", func(u *wayfarer.User) error { return cli.Admin.SetEnabled(ctx, u, false) }},
			{"set-permissions", "branch", func(u *wayfarer.User) error {
				return cli.Admin.SetPermissions(ctx, u, map[wayfarer.Area]wayfarer.Permission{wayfarer.AreaPerson: wayfarer.PermSelect})
			}},
			{"set-password", "viewer", func(u *wayfarer.User) error { return cli.Admin.SetPassword(ctx, demo.ID, u.ID, "another-password") }},
		} {
			tok := s.LoginDemo(t, c.user)
			wantLive(t, s, tok, c.what+": before") // now cached
			u, _ := cli.DB.UserByName(ctx, demo.ID, c.user)
			if err := c.change(u); err != nil {
				t.Fatal(err)
			}
			changed := time.Now()
			for {
				r := live(t, s, tok)
				if r.Status == 401 && r.Code(t) == contract.CodeTokenNotInStore {
					break
				}
				if time.Since(changed) > sessionRevocationBound {
					t.Fatalf("%s by another process: still %d after %s", c.what, r.Status, sessionRevocationBound)
				}
				time.Sleep(5 * time.Millisecond) // polling a real process's effect, not a clock
			}
			t.Logf("%s by another process: refused after %s", c.what, time.Since(changed).Round(time.Millisecond))
		}
	})
}
