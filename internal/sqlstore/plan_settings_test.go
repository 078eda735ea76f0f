package sqlstore_test

import (
	"context"
	"database/sql"
	"os"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
)

// A search's transaction on PostgreSQL plans for its values (custom plans),
// without JIT or parallel workers; a load's or a save's plans as usual but
// without JIT or workers; neither leaves a setting on the pooled connection.
func TestPostgresPlanSettings(t *testing.T) {
	if os.Getenv("WAYFARER_TEST_POSTGRES_URL") == "" {
		t.Skip("WAYFARER_TEST_POSTGRES_URL not set")
	}
	db := openSearchDB(t, "postgres")
	db.Primary().SetMaxOpenConns(1) // the same connection before and after
	ctx := context.Background()
	settings := func(q interface {
		QueryRowContext(context.Context, string, ...any) *sql.Row
	}) (plans, jit, workers string) {
		t.Helper()
		if err := q.QueryRowContext(ctx, `SELECT current_setting('plan_cache_mode'), current_setting('jit'),
			current_setting('max_parallel_workers_per_gather')`).Scan(&plans, &jit, &workers); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, tc := range []struct {
		search bool
		plans  string
	}{{true, "force_custom_plan"}, {false, "auto"}} {
		tx, err := db.Primary().BeginTx(sqlstore.SettingsForTest(db, ctx, tc.search), &sql.TxOptions{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if plans, jit, workers := settings(tx); plans != tc.plans || jit != "off" || workers != "0" {
			t.Errorf("search %v: plan_cache_mode %s, jit %s, max_parallel_workers_per_gather %s", tc.search, plans, jit, workers)
		}
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
		if plans, jit, workers := settings(db.Primary()); plans != "auto" || jit != "on" || workers == "0" {
			t.Errorf("after the transaction: plan_cache_mode %s, jit %s, max_parallel_workers_per_gather %s", plans, jit, workers)
		}
	}
}
