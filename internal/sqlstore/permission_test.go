package sqlstore_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/postgres"
	"github.com/wayfarerhq/wayfarer/internal/sqlite"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// openUnmigrated opens a fresh database of engine without migrating it.
func openUnmigrated(t *testing.T, engine string) *sqlstore.DB {
	t.Helper()
	var db *sqlstore.DB
	var err error
	if engine == "postgres" {
		db, err = postgres.Open(testserver.FreshPostgres(t))
	} else {
		db, err = sqlite.Open(t.TempDir() + "/migrate.db")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Migration 00010 moves app_user.person_permissions into
// app_user_permission: users of a database at 00009 keep their person
// permissions, and have none in the other areas.
func TestMigrationKeepsPersonPermissions(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			ctx := context.Background()
			db := openUnmigrated(t, engine)
			if _, err := db.MigrateTo(ctx, 9); err != nil {
				t.Fatal(err)
			}
			agency := mustExec(t, db, `INSERT INTO agency (alias, name, status, max_password_age_days, created_at) VALUES (?, ?, ?, ?, ?)`,
				"ACME", "Acme", wayfarer.AgencyActive, 0, time.Now().UTC())
			want := map[string]wayfarer.Permission{
				"ann": wayfarer.PermSelect | wayfarer.PermRead | wayfarer.PermAllUsers,
				"bob": wayfarer.PermAll,
				"cy":  0,
			}
			for name, bits := range want {
				mustExec(t, db, `INSERT INTO app_user (agency_id, user_name, user_name_key, type, password_last_modified, person_permissions)
					VALUES (?, ?, ?, ?, ?, ?)`, agency, name, name, wayfarer.UserTypeUser, time.Now().UTC(), bits)
			}
			if n, err := db.Migrate(ctx); err != nil || n == 0 {
				t.Fatalf("migrate from 00009: %d applied, %v", n, err)
			}
			for name, bits := range want {
				u, err := db.UserByName(ctx, agency, name)
				if err != nil {
					t.Fatal(err)
				}
				var w wayfarer.Permissions
				w[wayfarer.AreaPerson] = bits
				if u.Perms != w {
					t.Errorf("%s after the migration: %s, want %s", name, u.Perms, w)
				}
			}
		})
	}
}

// The session read gets every area's bits and every advisor once, however
// many rows the two joins make of them.
func TestSessionByTokenReadsEveryArea(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			ctx := context.Background()
			db := openSearchDB(t, engine)
			agency, err := db.CreateAgency(ctx, wayfarer.Agency{Alias: "ACME", Name: "Acme", Status: wayfarer.AgencyActive})
			if err != nil {
				t.Fatal(err)
			}
			var perms wayfarer.Permissions
			perms[wayfarer.AreaPerson] = wayfarer.PermSelect | wayfarer.PermRead
			perms[wayfarer.AreaTag] = wayfarer.PermSelect
			perms[wayfarer.AreaAffiliation] = wayfarer.PermAll
			user, err := db.CreateUser(ctx, wayfarer.NewUser{AgencyID: agency, UserName: "ann", Type: wayfarer.UserTypeUser,
				Perms: perms, Enabled: true, PasswordSetAt: time.Now()})
			if err != nil {
				t.Fatal(err)
			}
			var advisors []int64
			for _, name := range []string{"A", "B", "C"} {
				id, err := db.CreateProfile(ctx, agency, wayfarer.ProfileAdvisor, name, nil)
				if err != nil {
					t.Fatal(err)
				}
				if err := db.LinkUserAdvisor(ctx, agency, user, id); err != nil {
					t.Fatal(err)
				}
				advisors = append(advisors, id)
			}
			now := time.Now()
			tok, err := db.CreateToken(ctx, agency, user, now, now.Add(time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			s, err := db.SessionByToken(ctx, agency, tok, now)
			if err != nil {
				t.Fatal(err)
			}
			if s.Perms != perms || !slices.Equal(s.AdvisorIDs, advisors) {
				t.Fatalf("session: %s, advisors %v; want %s, %v", s.Perms, s.AdvisorIDs, perms, advisors)
			}

			// Setting some areas keeps the others; none (0) removes an area's bits.
			if err := db.SetUserPermissions(ctx, agency, user, map[wayfarer.Area]wayfarer.Permission{
				wayfarer.AreaActivity: wayfarer.PermRead, wayfarer.AreaTag: 0}); err != nil {
				t.Fatal(err)
			}
			perms[wayfarer.AreaActivity], perms[wayfarer.AreaTag] = wayfarer.PermRead, 0
			u, err := db.UserByName(ctx, agency, "ann")
			if err != nil {
				t.Fatal(err)
			}
			if u.Perms != perms {
				t.Fatalf("after set: %s, want %s", u.Perms, perms)
			}
			if err := db.SetUserPermissions(ctx, agency, user+1000, map[wayfarer.Area]wayfarer.Permission{wayfarer.AreaTag: 1}); err != wayfarer.ErrNotFound {
				t.Fatalf("set on no user: %v", err)
			}
		})
	}
}
