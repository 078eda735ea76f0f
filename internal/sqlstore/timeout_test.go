package sqlstore_test

import (
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wire"

	"context"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Each store call serving a request answers wayfarer.QueryTimeoutError
// once its time is up, whatever it was doing; without a limit nothing
// changes.
func TestStoreCallsAnswerQueryTimeout(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			db, sc, recNo := onePerson(t, engine, sqlstore.BulkPerson{})
			ctx := context.Background()
			c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(`{"includeCols":["recNo","summaryCount"]}`))
			if err != nil {
				t.Fatal(err)
			}
			calls := map[string]func() error{
				"SearchPersons": func() error { _, err := db.SearchPersons(ctx, sc, c); return err },
				"LoadPerson":    func() error { _, err := db.LoadPerson(ctx, sc, recNo); return err },
				"UpdatePerson": func() error {
					return db.UpdatePerson(ctx, sc, recNo, true, func(*wayfarer.Person) (*wayfarer.PersonWrite, error) {
						return &wayfarer.PersonWrite{Changes: &wayfarer.PersonChanges{}}, nil
					})
				},
				"AgencyByAlias": func() error { _, err := db.AgencyByAlias(ctx, "SEARCH"); return err },
			}
			db.SetQueryTimeout(0)
			for name, call := range calls {
				if err := call(); err != nil {
					t.Errorf("%s without a limit: %v", name, err)
				}
			}
			if engine == "sqlite" {
				// A limit already past: SQLite refuses at once.
				db.SetQueryTimeout(time.Nanosecond)
			} else {
				// PostgreSQL: every statement on person waits for a lock
				// until the server's statement_timeout ends it.
				db.SetQueryTimeout(50 * time.Millisecond)
				tx, err := db.Primary().BeginTx(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer tx.Rollback()
				if _, err := tx.Exec(`LOCK TABLE person, agency IN ACCESS EXCLUSIVE MODE`); err != nil {
					t.Fatal(err)
				}
			}
			for name, call := range calls {
				err := call()
				if limit, ok := wayfarer.QueryTimeoutOf(err); !ok || limit != db.QueryTimeout() {
					t.Errorf("%s past the limit: %v", name, err)
				}
			}
		})
	}
}
