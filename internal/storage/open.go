// Package storage picks the engine a database URL names.
package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/postgres"
	"github.com/wayfarerhq/wayfarer/internal/sqlite"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
)

// IsPostgres reports whether dsn names a PostgreSQL database.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Options adjust how a database is opened.
type Options struct {
	// Replica, when set, must be a PostgreSQL URL; it receives searches
	// that carry readOnlyIntent.
	Replica string
	// SQLiteSynchronous is sqlite.Options.Synchronous; PostgreSQL ignores it.
	SQLiteSynchronous string
	// SQLiteMmapSize is sqlite.Options.MmapSize; PostgreSQL ignores it.
	SQLiteMmapSize int64
	// SQLiteLockWait is sqlite.Options.LockWait; PostgreSQL ignores it.
	SQLiteLockWait time.Duration
}

// Open opens the database dsn names: a postgres:// URL selects PostgreSQL,
// anything else is the path of a SQLite file. replica, when set, must be a
// PostgreSQL URL and receives searches that carry readOnlyIntent.
func Open(dsn, replica string) (*sqlstore.DB, error) {
	return OpenWith(dsn, Options{Replica: replica})
}

// OpenWith is Open with every option.
func OpenWith(dsn string, o Options) (*sqlstore.DB, error) {
	if dsn == "" {
		return nil, errors.New("no database: set --db or WAYFARER_DB")
	}
	replica := o.Replica
	var db *sqlstore.DB
	var err error
	if IsPostgres(dsn) {
		db, err = postgres.Open(dsn)
	} else {
		db, err = sqlite.OpenWith(sqlitePath(dsn), sqlite.Options{Synchronous: o.SQLiteSynchronous, MmapSize: o.SQLiteMmapSize, LockWait: o.SQLiteLockWait})
	}
	if err != nil {
		return nil, err
	}
	if replica != "" {
		if !IsPostgres(replica) {
			db.Close()
			return nil, errors.New("--db-replica must be a postgres:// URL")
		}
		r, err := postgres.OpenHandle(replica)
		if err != nil {
			db.Close()
			return nil, err
		}
		db.SetReplica(r)
	}
	return db, nil
}

// MustExist refuses a SQLite database whose file does not exist, naming
// it: opening one creates it, so a mistyped --db would otherwise start an
// empty database and migrate it. Only the commands that create databases
// (serve --demo, demo, migrate up) skip the check. A PostgreSQL URL
// passes: the server says whether the database exists.
func MustExist(dsn string) error {
	if dsn == "" || IsPostgres(dsn) {
		return nil
	}
	path := sqlitePath(dsn)
	if path == ":memory:" {
		return nil
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("the database file %s does not exist: check --db (or WAYFARER_DB). "+
			"To create a database there, run 'wayfarer --db %s migrate up' (or 'wayfarer --db %s serve --demo' for a demo)", path, path, path)
	} else if err != nil {
		return fmt.Errorf("the SQLite file %s cannot be read: %w", path, err)
	}
	return nil
}

func sqlitePath(dsn string) string { return strings.TrimPrefix(dsn, "sqlite://") }

// Redact hides a password in a database URL for printing.
func Redact(dsn string) string {
	if !IsPostgres(dsn) {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "postgres://(unparseable URL)"
	}
	return u.Redacted()
}
