// Package storage picks the engine a database URL names.
package storage

import (
	"errors"
	"net/url"
	"strings"

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
		db, err = sqlite.OpenWith(strings.TrimPrefix(dsn, "sqlite://"), sqlite.Options{Synchronous: o.SQLiteSynchronous})
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
