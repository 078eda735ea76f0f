package sqlstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Migration 00025 moves an activity's person from activity_person_link
// onto the activity's row: an activity linked before it stays linked to the
// same person, and one without a link stays without.
func TestMigrationKeepsActivityPersons(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			ctx := context.Background()
			db := openUnmigrated(t, engine)
			if _, err := db.MigrateTo(ctx, 24); err != nil {
				t.Fatal(err)
			}
			now := time.Now().UTC()
			agency := mustExec(t, db, `INSERT INTO agency (alias, name, status, max_password_age_days, created_at) VALUES (?, ?, ?, ?, ?)`,
				"ACME", "Acme", wayfarer.AgencyActive, 0, now)
			person := mustExec(t, db, `INSERT INTO person (agency_id, last_name, create_date_time, last_modified_date_time) VALUES (?, ?, ?, ?)`,
				agency, "Abler", now, now)
			activity := func(subject string) int64 {
				return mustExec(t, db, `INSERT INTO activity (agency_id, type, priority, subject, create_date_time, last_modified_date_time)
					VALUES (?, 1, 1, ?, ?, ?)`, agency, subject, now, now)
			}
			linked, unlinked := activity("Call back"), activity("Send brochure")
			if _, err := db.Primary().ExecContext(ctx, db.Dialect.Rebind(`INSERT INTO activity_person_link (agency_id, activity_id, person_id) VALUES (?, ?, ?)`),
				agency, linked, person); err != nil {
				t.Fatal(err)
			}
			if n, err := db.Migrate(ctx); err != nil || n == 0 {
				t.Fatalf("migrate from 00024: %d applied, %v", n, err)
			}
			sc := wayfarer.Scope{AgencyID: agency}
			for _, tc := range []struct {
				recNo  int64
				person *int64
			}{{linked, &person}, {unlinked, nil}} {
				a, err := db.LoadActivity(ctx, sc, tc.recNo)
				if err != nil {
					t.Fatal(err)
				}
				got := a.ActivityPersonLink
				switch {
				case tc.person == nil && got != nil:
					t.Errorf("activity %d after the migration: linked to %v, want no link", tc.recNo, got.PersonRecNo)
				case tc.person != nil && (got == nil || got.PersonRecNo.Value != *tc.person):
					t.Errorf("activity %d after the migration: link %+v, want person %d", tc.recNo, got, *tc.person)
				}
			}
			var tables int
			if err := db.Primary().QueryRowContext(ctx, `SELECT count(*) FROM activity_person_link`).Scan(&tables); err == nil {
				t.Error("activity_person_link is still there after the migration")
			}
		})
	}
}
