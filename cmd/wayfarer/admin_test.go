package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// runAdmin runs `wayfarer --db db admin args...` with stdin as its input.
func runAdmin(t *testing.T, db, stdin string, args ...string) (string, error) {
	t.Helper()
	root := rootCommand()
	var out, errb bytes.Buffer
	root.Writer, root.ErrWriter, root.Reader = &out, &errb, strings.NewReader(stdin)
	err := root.Run(context.Background(), append([]string{"wayfarer", "--db", db, "admin"}, args...))
	return out.String() + errb.String(), err
}

func mustAdmin(t *testing.T, db, stdin string, args ...string) {
	t.Helper()
	if out, err := runAdmin(t, db, stdin, args...); err != nil {
		t.Fatalf("admin %v: %v\n%s", args, err, out)
	}
}

// migratedDB is a new, migrated SQLite database (admin refuses a missing file).
func migratedDB(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "admin.db")
	if err := rootCommand().Run(context.Background(), []string{"wayfarer", "--db", db, "migrate", "up"}); err != nil {
		t.Fatal(err)
	}
	return db
}

func TestAdminCommands(t *testing.T) {
	db := migratedDB(t)
	mustAdmin(t, db, "", "agency", "create", "--alias", "acme", "--name", "Acme Travel", "--max-password-age-days", "90")
	mustAdmin(t, db, "", "branch", "create", "--alias", "ACME", "--name", "Downtown")
	mustAdmin(t, db, "", "advisor", "create", "--alias", "ACME", "--name", "Ann Advisor", "--branch", "Downtown")
	mustAdmin(t, db, "", "client-profile", "create", "--alias", "ACME", "--name", "Globex")
	mustAdmin(t, db, "", "user", "create", "--alias", "ACME", "--user", "ann", "--type", "user", "--branch", "Downtown",
		"--person", "select,read")
	// the password comes from stdin, never from the command line
	mustAdmin(t, db, "ann-password-1\n", "user", "set-password", "--alias", "ACME", "--user", "ann")
	mustAdmin(t, db, "", "user", "set-permissions", "--alias", "ACME", "--user", "ann", "--person", "select,read,insert,update,allusers")
	mustAdmin(t, db, "", "user", "link-advisor", "--alias", "ACME", "--user", "ann", "--advisor", "Ann Advisor")

	out, err := runAdmin(t, db, "", "user", "list", "--alias", "ACME")
	if err != nil || !strings.Contains(out, "person=select,read,insert,update,allusers") {
		t.Fatalf("list: %v\n%s", err, out)
	}
	for _, bad := range [][]string{
		{"agency", "create", "--alias", "ACME"},                                            // exists
		{"agency", "create", "--alias", "no spaces"},                                       // bad alias
		{"user", "set-permissions", "--alias", "ACME", "--user", "ann", "--person", "fly"}, // unknown permission
		{"user", "set-permissions", "--alias", "ACME", "--user", "ann", "--activity", "fly"},
		{"user", "set-permissions", "--alias", "ACME", "--user", "ann"},               // no area given
		{"user", "create", "--alias", "ACME", "--user", "bob", "--branch", "Nowhere"}, // unknown branch
		{"user", "link-advisor", "--alias", "ACME", "--user", "ann", "--advisor", "Nobody"},
		{"user", "set-password", "--alias", "ACME", "--user", "ann"}, // no password on stdin
		{"user", "enable", "--alias", "NOSUCH", "--user", "ann"},
	} {
		if out, err := runAdmin(t, db, "", bad...); err == nil {
			t.Errorf("admin %v succeeded:\n%s", bad, out)
		}
	}
	if _, err := runAdmin(t, db, "short\n", "user", "set-password", "--alias", "ACME", "--user", "ann"); err == nil {
		t.Error("a 5-character password was accepted")
	}

	// What the commands did, seen by a server on the same database.
	s := testserver.Start(t, testserver.Options{DB: db})
	login := func(code int) {
		t.Helper()
		r := s.Do(t, "POST", "/login", map[string]string{"alias": "acme", "userName": "ann", "password": "ann-password-1"})
		if got := r.Code(t); got != code {
			t.Fatalf("login: resultCode %d, want %d: %s", got, code, r.Body)
		}
	}
	login(0)
	mustAdmin(t, db, "", "user", "disable", "--alias", "ACME", "--user", "ann")
	login(104)
	mustAdmin(t, db, "", "user", "enable", "--alias", "ACME", "--user", "ann")
	login(0)
	for i := 0; i < 5; i++ {
		s.Do(t, "POST", "/login", map[string]string{"alias": "ACME", "userName": "ann", "password": "wrong-password"})
	}
	login(103)
	mustAdmin(t, db, "", "user", "unlock", "--alias", "ACME", "--user", "ann")
	login(0)
	mustAdmin(t, db, "", "agency", "disable", "--alias", "ACME")
	login(107)
	mustAdmin(t, db, "", "agency", "cancel", "--alias", "ACME")
	login(108)
	mustAdmin(t, db, "", "agency", "enable", "--alias", "ACME")
	login(0)
	out, err = runAdmin(t, db, "", "agency", "list")
	if err != nil || !strings.Contains(out, "ACME") || !strings.Contains(out, "active") {
		t.Fatalf("agency list: %v\n%s", err, out)
	}
	// the help says what to do
	out, _ = runAdmin(t, db, "", "--help")
	if !strings.Contains(out, "wayfarer admin user set-password") {
		t.Fatalf("admin help lacks the examples:\n%s", out)
	}
}

// With --no-migrate a command refuses a database that is behind the binary
// instead of migrating it, and works once `migrate up` has run.
func TestNoMigrate(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.db")
	if err := os.WriteFile(db, nil, 0o600); err != nil { // an empty SQLite database
		t.Fatal(err)
	}
	run := func(args ...string) (string, error) {
		root := rootCommand()
		var out bytes.Buffer
		root.Writer, root.ErrWriter = &out, &out
		err := root.Run(context.Background(), append([]string{"wayfarer", "--db", db}, args...))
		return out.String(), err
	}
	if out, err := run("--no-migrate", "admin", "agency", "list"); err == nil || !strings.Contains(err.Error(), "run 'wayfarer migrate up' first") {
		t.Fatalf("a fresh database with --no-migrate: %v\n%s", err, out)
	}
	if out, err := run("migrate", "status"); err != nil || !strings.Contains(out, "pending") {
		t.Fatalf("nothing was migrated: %v\n%s", err, out)
	}
	if out, err := run("migrate", "up"); err != nil {
		t.Fatalf("migrate up: %v\n%s", err, out)
	}
	if out, err := run("--no-migrate", "admin", "agency", "list"); err != nil {
		t.Fatalf("a migrated database with --no-migrate: %v\n%s", err, out)
	}
}

// `admin user set-permissions` with one area's flag replaces that area's
// bits alone and ends the user's sessions; `user list` shows every area.
// The server keeps no session cache here, so each request reads the store
// (how a change reaches a cache: internal/http's session tests).
func TestAdminSetPermissionsOfAnAreaEndsSessions(t *testing.T) {
	noCache := testserver.Options{Config: func(c *app.Config) { c.SessionCache = -1 }}
	testserver.Each(t, noCache, func(t *testing.T, s *testserver.Server) {
		ctx := t.Context()
		search := func(tok string) *testserver.Response {
			r := s.Do(t, "POST", "/personSearch", `{"includeCols":["recNo"],"rowCount":1}`, testserver.Bearer(tok)...)
			if r.Status == 204 { // no persons: the session was good
				r.Status = 200
			}
			return r
		}
		agentTok, adminTok := s.LoginDemo(t, "agent"), s.LoginDemo(t, "admin")
		if r := search(agentTok); r.Status != 200 {
			t.Fatalf("before: %d %s", r.Status, r.Body)
		}
		mustAdmin(t, s.DBPath, "", "user", "set-permissions", "--alias", "DEMO", "--user", "agent",
			"--activity", "select,read,insert,delete", "--branch-permissions", "none")
		if r := search(agentTok); r.Status != 401 || r.Code(t) != contract.CodeTokenNotInStore {
			t.Fatalf("agent's session after set-permissions --activity: %d %s, want 401/305", r.Status, r.Body)
		}
		if r := search(adminTok); r.Status != 200 {
			t.Fatalf("another user's session: %d %s", r.Status, r.Body)
		}

		demo, _ := s.App.DB.AgencyByAlias(ctx, "DEMO")
		u, err := s.App.DB.UserByName(ctx, demo.ID, "agent")
		if err != nil {
			t.Fatal(err)
		}
		edit := wayfarer.PermSelect | wayfarer.PermRead | wayfarer.PermInsert | wayfarer.PermUpdate
		if p := u.Perms; p[wayfarer.AreaActivity] != wayfarer.PermSelect|wayfarer.PermRead|wayfarer.PermInsert|wayfarer.PermDelete ||
			p[wayfarer.AreaBranch] != 0 || p[wayfarer.AreaPerson] != edit || p[wayfarer.AreaTag] != wayfarer.PermSelect|wayfarer.PermRead {
			t.Fatalf("agent's permissions: %s", p)
		}
		if r := search(s.LoginDemo(t, "agent")); r.Status != 200 {
			t.Fatalf("a new login: %d %s", r.Status, r.Body)
		}
		out, err := runAdmin(t, s.DBPath, "", "user", "list", "--alias", "DEMO")
		if err != nil || !strings.Contains(out, "person=select,read,insert,update activity=select,read,insert,delete tag=select,read branch=none") ||
			!strings.Contains(out, "affiliation=select,read,allusers") {
			t.Fatalf("list: %v\n%s", err, out)
		}
	})
}
