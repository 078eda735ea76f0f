package sqlstore_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// A bulk load that writes a reference to nothing fails, and nothing broken
// is served: SQLite refuses the row itself; PostgreSQL, which adds its
// foreign keys back after the rows (bulk_defer.go), fails that restore,
// keeps the key listed, and builds it at the next restore once the row is
// mended.
func TestBulkLoadBrokenReference(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := context.Background()
		db := s.App.DB
		agency := agencyOf(t, s)
		before, err := db.CountPersons(ctx, agency)
		if err != nil {
			t.Fatal(err)
		}
		name, missing, now := "Orphan", int64(987654), time.Now()
		orphan := sqlstore.BulkPerson{FirstName: &name, LastName: &name, BranchID: &missing, ActiveStatus: 1, Created: now, Modified: now}
		err = db.BulkLoad(ctx, agency, sqlstore.BulkOptions{DeferIndexes: true}, func(insert func([]sqlstore.BulkPerson) error) error {
			return insert([]sqlstore.BulkPerson{orphan})
		})
		if err == nil {
			t.Fatal("a person of a branch that does not exist was loaded without an error")
		}
		deferred, derr := db.DeferredIndexes(ctx)
		if derr != nil {
			t.Fatal(derr)
		}
		if s.Engine == "sqlite" {
			if len(deferred) != 0 {
				t.Errorf("after the failed load, still deferred: %v", deferred)
			}
			if after, _ := db.CountPersons(ctx, agency); after != before {
				t.Errorf("persons %d after the failed load, want %d", after, before)
			}
			return
		}
		const key = "person_agency_id_branch_id_fkey"
		if !strings.Contains(err.Error(), key) || !slices.Contains(deferred, key) {
			t.Fatalf("load error %v, deferred %v: want the refused key %s named and still listed", err, deferred, key)
		}
		if _, err := db.RestoreDeferred(ctx); err == nil {
			t.Fatal("the key was restored while a row breaks it")
		}
		if _, err := db.Primary().ExecContext(ctx, `DELETE FROM person WHERE agency_id = $1 AND branch_id = $2`, agency, missing); err != nil {
			t.Fatal(err)
		}
		if n, err := db.RestoreDeferred(ctx); err != nil || n != 1 {
			t.Fatalf("restore after the row was mended: %d built, %v; want the key", n, err)
		}
		if err := db.InsertBulkPersons(ctx, agency, []sqlstore.BulkPerson{orphan}); err == nil {
			t.Error("the restored key lets a person refer to a branch that does not exist")
		}
	})
}

// An object a restore had built while its bulk_deferred row stayed (an
// earlier version's cancelled load could leave that) no longer stops the
// database from opening: an index or key stands as built, a trigger is
// made again with its trigram index's rebuild, and the schema is whole.
func TestRestoreDeferredBuiltAlready(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := context.Background()
		db := s.App.DB
		want, err := db.SchemaObjects(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := sqlstore.DeferIndexesForTest(db); err != nil {
			t.Fatal(err)
		}
		// Build some again behind the list's back, from its own statements.
		again := []string{"person_search_modified"}
		if s.Engine == "sqlite" {
			again = append(again, "person_trigram_insert")
		} else {
			again = append(again, "person_agency_id_branch_id_fkey")
		}
		for _, name := range again {
			var restore string
			if err := db.Primary().QueryRowContext(ctx, db.Dialect.Rebind(`SELECT restore FROM bulk_deferred WHERE name = ?`), name).Scan(&restore); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if s.Engine == "sqlite" && strings.HasSuffix(name, "_insert") {
				restore = restore[:strings.Index(restore, "END;")+len("END;")] // the trigger alone
			}
			if _, err := db.Primary().ExecContext(ctx, restore); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if _, err := db.RestoreDeferred(ctx); err != nil {
			t.Fatalf("restore with objects built already: %v", err)
		}
		if left, err := db.DeferredIndexes(ctx); err != nil || len(left) > 0 {
			t.Fatalf("still listed: %v %v", left, err)
		}
		if got, err := db.SchemaObjects(ctx); err != nil || !slices.Equal(got, want) {
			t.Fatalf("schema objects:\n got %v\nwant %v (%v)", got, want, err)
		}
		if s.Engine == "sqlite" {
			if _, err := db.Primary().ExecContext(ctx, `INSERT INTO person_trigram (person_trigram, rank) VALUES ('integrity-check', 1)`); err != nil {
				t.Errorf("person_trigram: %v", err)
			}
		}
	})
}
