package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"os"
	"slices"
	"time"
)

// SQLite's trigram indexes (FTS5 tables) after a bulk load are built on a
// second connection, in a scratch file beside the database, while the
// load's connection builds the other indexes: FTS5's rebuild runs on one
// core and took about half of the index phase, with the other core idle.
// The scratch build reads each index's content table once (the
// communication values, the activity subjects, the persons' names), builds
// and merges the same FTS5 tables there, and the transaction that restores
// each insert trigger copies its table's shadow tables in. The copy is
// taken only if nothing else wrote to the database since those reads
// (PRAGMA data_version on the load's connection, which counts every other
// connection's commits); otherwise, or if the scratch build failed, each
// index is rebuilt in place as before. docs/decisions.md, "Bulk load:
// indexes built after the rows".

// trigramTable is SQLite's trigram index of communication values.
const trigramTable = "communication_trigram"

// sideTrigram is a trigram index the scratch build makes: its FTS5 table,
// the content table and the columns it reads.
type sideTrigram struct{ table, content, columns string }

// sideTrigrams are the trigram indexes the scratch build makes.
var sideTrigrams = []sideTrigram{
	{trigramTable, "communication", "value"},
	{activityTrigramTable, "activity", "subject"},
	{personTrigramTable, "person", "last_name, first_name, middle_name"},
}

// trigramBuilt, when set (tests), runs when a scratch build has ended.
var trigramBuilt func()

// trigramBuild is a scratch build of the trigram index under way.
type trigramBuild struct {
	path    string // the scratch file
	version int64  // the load connection's data_version before the build read communication
	log     func(format string, args ...any)

	finished chan struct{} // closed when build has returned err, after took
	err      error
	took     time.Duration
}

// startTrigramBuild starts the scratch build for the database loader is
// connected to, opening the scratch file with pool's driver; nil when the
// database has no file (in memory).
func startTrigramBuild(ctx context.Context, loader *sql.Conn, pool *sql.DB, log func(string, ...any)) (*trigramBuild, error) {
	mainPath, scratch, err := removeTrigramScratch(ctx, loader)
	if err != nil || scratch == "" {
		return nil, err
	}
	var creates []string
	for _, t := range sideTrigrams {
		var create string
		if err := loader.QueryRowContext(ctx, "SELECT sql FROM sqlite_master WHERE name = ?", t.table).Scan(&create); err != nil {
			return nil, err
		}
		creates = append(creates, create)
	}
	b := &trigramBuild{path: scratch, log: log, finished: make(chan struct{})}
	if err := loader.QueryRowContext(ctx, "PRAGMA data_version").Scan(&b.version); err != nil {
		return nil, err
	}
	go func() {
		defer close(b.finished)
		start := time.Now()
		b.err = b.build(ctx, pool.Driver(), mainPath, creates)
		b.took = time.Since(start)
		if trigramBuilt != nil {
			trigramBuilt()
		}
	}()
	return b, nil
}

// removeTrigramScratch removes the scratch file a killed load may have
// left beside the database q reads, returning the database's path and the
// scratch file's ("" for both when the database has no file).
func removeTrigramScratch(ctx context.Context, q execQuerier) (mainPath, scratch string, err error) {
	err = eachQueried(ctx, q, "SELECT file FROM pragma_database_list WHERE name = 'main'", func(r *sql.Rows) error {
		return r.Scan(&mainPath)
	})
	if err != nil || mainPath == "" {
		return "", "", err
	}
	scratch = mainPath + "-trigram-build"
	if err := os.Remove(scratch); err != nil && !os.IsNotExist(err) {
		return "", "", err
	}
	return mainPath, scratch, nil
}

// build fills the scratch file: for each of sideTrigrams its content
// table (the columns the FTS5 definition reads), then the same FTS5
// table, rebuilt and merged into one segment as the restore does in place.
func (b *trigramBuild) build(ctx context.Context, drv driver.Driver, mainPath string, creates []string) error {
	// Nothing in the scratch file needs to survive a crash: no journal, no
	// syncs. A small page cache: the build appends, and 32 MiB (the load
	// connection's) took the loader from 242 to 280 MB at 1,000,000
	// persons (target 6: 300) for no speed.
	db := sql.OpenDB(dsnConnector{drv, SQLiteFileURI(b.path) +
		"?_pragma=journal_mode(OFF)&_pragma=synchronous(OFF)&_pragma=cache_size(-8192)"})
	defer db.Close()
	db.SetMaxOpenConns(1)
	type stmt struct {
		sql  string
		args []any
	}
	stmts := []stmt{{sql: "ATTACH ? AS load_source", args: []any{mainPath}}}
	for _, t := range sideTrigrams {
		// In rowid order (no index): nothing else writes meanwhile, or
		// data_version says so and the copy is not taken.
		stmts = append(stmts, stmt{sql: fmt.Sprintf("CREATE TABLE %s (rec_no INTEGER PRIMARY KEY, %s)", t.content, t.columns)},
			stmt{sql: fmt.Sprintf("INSERT INTO %s SELECT rec_no, %s FROM load_source.%[1]s NOT INDEXED", t.content, t.columns)})
	}
	stmts = append(stmts, stmt{sql: "DETACH load_source"})
	for i, t := range sideTrigrams {
		stmts = append(stmts, stmt{sql: creates[i]}, stmt{sql: "BEGIN"}, stmt{sql: trigramRebuild(t.table)}, stmt{sql: "COMMIT"})
	}
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s.sql, s.args...); err != nil {
			return fmt.Errorf("trigram index beside the load: %w", err)
		}
	}
	return nil
}

// trigramRebuild fills the external-content FTS5 table from its content
// table after its trigger is back, then merges it into one segment
// ('optimize'): the rebuild leaves a dozen, and every trigram of a
// substring search is looked up in each of them (query c at 1,000,000
// persons: 3.4-3.8 ms with the rebuild's segments, 2.5-2.6 ms merged; the
// merge takes about 6 s there).
func trigramRebuild(table string) string {
	return fmt.Sprintf("INSERT INTO %s (%[1]s) VALUES ('rebuild'); INSERT INTO %[1]s (%[1]s) VALUES ('optimize')", table)
}

// attach waits for the scratch build and attaches its file to the load's
// connection (outside a transaction, as SQLite requires), reporting
// whether the copy can be taken.
func (b *trigramBuild) attach(ctx context.Context, loader *sql.Conn) bool {
	<-b.finished
	if b.err != nil {
		b.logf("trigram index rebuilt in place: %v", b.err)
		return false
	}
	// ATTACH would create a missing file: one removed meanwhile (say by
	// another process opening the database) must not pass for the build.
	if _, err := os.Stat(b.path); err != nil {
		b.logf("trigram index rebuilt in place: %v", err)
		return false
	}
	if _, err := loader.ExecContext(ctx, "ATTACH ? AS trigram_build", b.path); err != nil {
		b.logf("trigram index rebuilt in place: %v", err)
		return false
	}
	return true
}

// copyInto replaces the trigram index table's shadow tables with the
// scratch build's, inside tx (the restore's, holding the write lock),
// unless another connection has written since the build read the content
// tables: then it reports false and copies nothing.
func (b *trigramBuild) copyInto(ctx context.Context, tx *sql.Tx, table string) (bool, error) {
	var version int64
	if err := tx.QueryRowContext(ctx, "PRAGMA data_version").Scan(&version); err != nil {
		return false, err
	}
	if version != b.version {
		b.logf("%s rebuilt in place: the database was written during the load", table)
		return false, nil
	}
	var shadows []string
	err := eachQueried(ctx, tx, "SELECT name FROM trigram_build.sqlite_master WHERE type = 'table' AND name LIKE '"+table+"\\_%' ESCAPE '\\'", func(r *sql.Rows) error {
		var name string
		err := r.Scan(&name)
		shadows = append(shadows, name)
		return err
	})
	if err != nil {
		return false, err
	}
	if !slices.Contains(shadows, table+"_data") || !slices.Contains(shadows, table+"_idx") {
		b.logf("%s rebuilt in place: the scratch file holds no index", table)
		return false, nil
	}
	start := time.Now()
	for _, t := range shadows {
		if _, err := tx.ExecContext(ctx, fmt.Sprintf(`DELETE FROM main."%s"; INSERT INTO main."%[1]s" SELECT * FROM trigram_build."%[1]s"`, t)); err != nil {
			return false, fmt.Errorf("copy %s: %w", t, err)
		}
	}
	b.logf("%s: trigram index built beside the others in %s, copied in %s", table,
		b.took.Round(100*time.Millisecond), time.Since(start).Round(100*time.Millisecond))
	return true, nil
}

// holds reports whether the build makes the FTS5 table.
func (b *trigramBuild) holds(table string) bool {
	return slices.ContainsFunc(sideTrigrams, func(t sideTrigram) bool { return t.table == table })
}

// detach lets go of the scratch file on the load's connection.
func (b *trigramBuild) detach(ctx context.Context, loader *sql.Conn) {
	_, _ = loader.ExecContext(ctx, "DETACH trigram_build")
}

// close waits for the build to stop and removes its file.
func (b *trigramBuild) close() {
	<-b.finished
	_ = os.Remove(b.path)
}

func (b *trigramBuild) logf(format string, args ...any) {
	if b.log != nil {
		b.log(format, args...)
	}
}

// dsnConnector opens connections of drv to dsn: a database/sql handle on
// a file with the driver of an open pool, without naming the driver.
type dsnConnector struct {
	drv driver.Driver
	dsn string
}

func (c dsnConnector) Connect(context.Context) (driver.Conn, error) { return c.drv.Open(c.dsn) }
func (c dsnConnector) Driver() driver.Driver                        { return c.drv }
