// Package sqlite opens Wayfarer's embedded database: one SQLite file through
// modernc.org/sqlite, a pure-Go driver, so the binary needs no C toolchain.
package sqlite

import (
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"net/url"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Open opens (creating if needed) the SQLite file at path. WAL lets readers
// run beside the one writer; immediate transactions take the write lock at
// BEGIN, so two saves never deadlock upgrading from read to write.
func Open(path string) (*sqlstore.DB, error) {
	q := url.Values{}
	for _, p := range []string{"journal_mode(WAL)", "busy_timeout(10000)", "foreign_keys(ON)", "synchronous(NORMAL)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	q.Set("_time_format", "sqlite")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	// Keep connections idle rather than the default 2: under concurrent
	// requests they would be opened and closed constantly.
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(16)
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return nil, err
	}
	return sqlstore.New(db, sqlstore.SQLite, sub), nil
}
