package sqlstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Migration 00011 rebuilds identity_token and login_attempt on SQLite:
// sessions and failed-login counters of a database at 00010 survive, and
// a token number is never handed out again (a logged-out token's number
// must not come back as another session's).
func TestMigrationKeepsSessionsAndTokenNumbers(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			ctx := context.Background()
			db := openUnmigrated(t, engine)
			if _, err := db.MigrateTo(ctx, 10); err != nil {
				t.Fatal(err)
			}
			now := time.Now().UTC()
			agency := mustExec(t, db, `INSERT INTO agency (alias, name, status, max_password_age_days, created_at) VALUES (?, ?, ?, ?, ?)`,
				"ACME", "Acme", wayfarer.AgencyActive, 0, now)
			user := mustExec(t, db, `INSERT INTO app_user (agency_id, user_name, user_name_key, type, password_last_modified)
				VALUES (?, ?, ?, ?, ?)`, agency, "ann", "ann", wayfarer.UserTypeUser, now)
			kept, err := db.CreateToken(ctx, agency, user, now, now.Add(time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			gone, err := db.CreateToken(ctx, agency, user, now, now.Add(time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			// The highest number, logged out (by hand: the code's logout writes 00011's columns).
			if _, err := db.Primary().Exec(db.Dialect.Rebind(`DELETE FROM identity_token WHERE rec_no = ?`), gone); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Primary().Exec(db.Dialect.Rebind(`INSERT INTO login_attempt (agency_id, user_name_key, client_key, failures, last_attempt)
				VALUES (?, ?, ?, ?, ?)`), agency, "ann", "*", 3, now); err != nil {
				t.Fatal(err)
			}

			if n, err := db.Migrate(ctx); err != nil || n == 0 {
				t.Fatalf("migrate from 00010: %d applied, %v", n, err)
			}
			if s, err := db.SessionByToken(ctx, agency, kept, now); err != nil || s.UserID != user {
				t.Fatalf("session after the migration: %+v %v", s, err)
			}
			next, err := db.CreateToken(ctx, agency, user, now, now.Add(time.Hour))
			if err != nil || next <= gone {
				t.Fatalf("token number after the migration: %d (%v), the logged-out one was %d", next, err, gone)
			}
			err = db.UpdateLoginCounters(ctx, wayfarer.LoginAttemptKey{AgencyID: agency, NameKey: "ann", Client: "10.0.0.1"},
				func(all, addr *wayfarer.LoginCounter) error {
					if all.Failures != 3 {
						t.Errorf("failures of all addresses after the migration: %d, want 3", all.Failures)
					}
					return nil
				})
			if err != nil {
				t.Fatal(err)
			}
			// Operator names count under agency 0, which is no agency row.
			if err := db.UpdateLoginCounters(ctx, wayfarer.LoginAttemptKey{AgencyID: wayfarer.HostAgencyID, NameKey: "ops", Client: "10.0.0.1"},
				func(all, addr *wayfarer.LoginCounter) error { all.Failures, addr.Failures = 1, 1; return nil }); err != nil {
				t.Fatal(err)
			}
		})
	}
}
