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

// SQLite's trigram index (an FTS5 table) after a bulk load is built on a
// second connection, in a scratch file beside the database, while the
// load's connection builds the other indexes: FTS5's rebuild runs on one
// core and took about half of the index phase, with the other core idle.
// The scratch build reads communication once, builds and merges the same
// FTS5 table there, and the transaction that restores the trigger copies
// its shadow tables in. The copy is taken only if nothing else wrote to
// the database since that read (PRAGMA data_version on the load's
// connection, which counts every other connection's commits); otherwise,
// or if the scratch build failed, the index is rebuilt in place as
// before. docs/decisions.md, "Bulk load: indexes built after the rows".

// trigramTable is SQLite's trigram index of communication values.
const trigramTable = "communication_trigram"

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
	var create string
	if err := loader.QueryRowContext(ctx, "SELECT sql FROM sqlite_master WHERE name = ?", trigramTable).Scan(&create); err != nil {
		return nil, err
	}
	b := &trigramBuild{path: scratch, log: log, finished: make(chan struct{})}
	if err := loader.QueryRowContext(ctx, "PRAGMA data_version").Scan(&b.version); err != nil {
		return nil, err
	}
	go func() {
		defer close(b.finished)
		start := time.Now()
		b.err = b.build(ctx, pool.Driver(), mainPath, create)
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

// build fills the scratch file: communication's values (the content table
// the FTS5 definition names, with the columns it reads), then the same
// FTS5 table, rebuilt and merged into one segment as sqliteTrigramRebuild
// does in place.
func (b *trigramBuild) build(ctx context.Context, drv driver.Driver, mainPath, create string) error {
	// Nothing in the scratch file needs to survive a crash: no journal, no
	// syncs. A small page cache: the build appends, and 32 MiB (the load
	// connection's) took the loader from 242 to 280 MB at 1,000,000
	// persons (target 6: 300) for no speed.
	db := sql.OpenDB(dsnConnector{drv, SQLiteFileURI(b.path) +
		"?_pragma=journal_mode(OFF)&_pragma=synchronous(OFF)&_pragma=cache_size(-8192)"})
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, stmt := range []struct {
		sql  string
		args []any
	}{
		{sql: "CREATE TABLE communication (rec_no INTEGER PRIMARY KEY, value TEXT)"},
		{sql: "ATTACH ? AS load_source", args: []any{mainPath}},
		// In rowid order (no index), in one read: the snapshot that
		// data_version is compared with.
		{sql: "INSERT INTO communication (rec_no, value) SELECT rec_no, value FROM load_source.communication NOT INDEXED"},
		{sql: "DETACH load_source"},
		{sql: create},
		{sql: "BEGIN"},
		{sql: sqliteTrigramRebuild},
		{sql: "COMMIT"},
	} {
		if _, err := db.ExecContext(ctx, stmt.sql, stmt.args...); err != nil {
			return fmt.Errorf("trigram index beside the load: %w", err)
		}
	}
	return nil
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

// copyInto replaces the trigram index's shadow tables with the scratch
// build's, inside tx (the restore's, holding the write lock), unless
// another connection has written since the build read communication: then
// it reports false and copies nothing.
func (b *trigramBuild) copyInto(ctx context.Context, tx *sql.Tx) (bool, error) {
	var version int64
	if err := tx.QueryRowContext(ctx, "PRAGMA data_version").Scan(&version); err != nil {
		return false, err
	}
	if version != b.version {
		b.logf("trigram index rebuilt in place: the database was written during the load")
		return false, nil
	}
	var shadows []string
	err := eachQueried(ctx, tx, "SELECT name FROM trigram_build.sqlite_master WHERE type = 'table' AND name LIKE '"+trigramTable+"\\_%' ESCAPE '\\'", func(r *sql.Rows) error {
		var name string
		err := r.Scan(&name)
		shadows = append(shadows, name)
		return err
	})
	if err != nil {
		return false, err
	}
	if !slices.Contains(shadows, trigramTable+"_data") || !slices.Contains(shadows, trigramTable+"_idx") {
		b.logf("trigram index rebuilt in place: the scratch file holds no index")
		return false, nil
	}
	start := time.Now()
	for _, t := range shadows {
		if _, err := tx.ExecContext(ctx, fmt.Sprintf(`DELETE FROM main."%s"; INSERT INTO main."%[1]s" SELECT * FROM trigram_build."%[1]s"`, t)); err != nil {
			return false, fmt.Errorf("copy %s: %w", t, err)
		}
	}
	b.logf("trigram index built beside the others in %s, copied in %s",
		b.took.Round(100*time.Millisecond), time.Since(start).Round(100*time.Millisecond))
	return true, nil
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
