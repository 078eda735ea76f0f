package sqlstore

import (
	"context"
	"fmt"
)

// SQLite keeps its per-index averages (sqlite_stat1) and not its value
// histograms (sqlite_stat4, which ANALYZE writes in modernc's build). With
// histograms, SQLite plans a statement again at every execution when one of
// its parameters is compared with an indexed column, since the value might
// change the plan: every search and every load, as all of them compare the
// agency. At 1,000,000 persons that re-planning was 38 % of a short search
// (lastName StartingWith: 0.18 against 0.10 ms direct) and 40 % of a
// person's load, and no search of BENCHMARKS.md is planned differently
// without the histograms: the searches size their selective filters
// themselves (search_sizing.go). docs/decisions.md, "SQLite statistics
// without value histograms".
const sqliteDropHistograms = "DELETE FROM sqlite_stat4"

// DropValueHistograms empties SQLite's sqlite_stat4 (PostgreSQL: nothing to
// do) and reports whether it held anything. app.Open calls it after the
// migrations, some of which ANALYZE, so a file analyzed by an earlier
// version or by hand is served without histograms too; the bulk load drops
// them with its own ANALYZE (Dialect.bulkAnalyze).
func (db *DB) DropValueHistograms(ctx context.Context) (bool, error) {
	if db.Dialect.dropHistograms == "" {
		return false, nil
	}
	var held bool
	err := db.primary.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat4')`).Scan(&held)
	if err == nil && held {
		err = db.primary.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM sqlite_stat4)`).Scan(&held)
	}
	if err != nil || !held {
		return false, err
	}
	if _, err := db.primary.ExecContext(ctx, db.Dialect.dropHistograms); err != nil {
		return false, fmt.Errorf("statistics: %w", err)
	}
	// A connection reads the statistics when it loads the schema, and
	// deleting rows does not change the schema: close the idle ones (the
	// migrations' included) so that none keeps the histograms, then keep
	// idle as many as the pool opens (16, sqlite.OpenWith; where no limit
	// is set, database/sql's default of 2).
	idle := db.primary.Stats().MaxOpenConnections
	if idle <= 0 {
		idle = 2
	}
	db.primary.SetMaxIdleConns(0)
	db.primary.SetMaxIdleConns(idle)
	return true, nil
}
