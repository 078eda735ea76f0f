// Package sqlstore implements Wayfarer's storage interfaces once, over
// database/sql, for both engines: SQLite (internal/sqlite) and PostgreSQL
// (internal/postgres) differ only in their Dialect and their migrations.
// All SQL of the project lives here and in those migrations.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"sync/atomic"
	"time"

	"github.com/pressly/goose/v3"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// DB is a Wayfarer database: a primary, an optional read replica, the
// engine's dialect and its migrations.
type DB struct {
	primary       *sql.DB
	replica       *sql.DB
	listener      *sql.DB // SetListener; nil: LISTEN takes a connection of primary
	Dialect       Dialect
	migrations    fs.FS
	queryTimeout  atomic.Int64                 // time.Duration; see timeout.go
	lockWait      time.Duration                // SetLockWait; see timeout.go
	onRevoke      func(...wayfarer.Revocation) // OnRevoke
	queryObserver QueryObserver                // SetQueryObserver
	readPipeline  ReadPipeline                 // SetPipelines
	savePipeline  SavePipeline                 // SetPipelines
	// probeLimit overrides childProbeLimit when set (tests: both forms
	// of a child filter, on one DB without touching others).
	probeLimit atomic.Pointer[int]
	// trigramLimit overrides the package's trigramLimit when set (tests:
	// the path of too many trigram candidates on a small table).
	trigramLimit atomic.Pointer[int]
	// deepPageFrom overrides the package's deepPageFrom when set (tests:
	// the deep page form on small tables).
	deepPageFrom atomic.Pointer[int64]
	// walkBudget overrides the package's walkBudget when set (tests: both
	// outcomes of the bounded walk on small tables).
	walkBudget atomic.Pointer[int64]
	// distinctRows overrides the package's distinctWalkRows when set
	// (tests: a distinct search's walk and its grouped statement).
	distinctRows atomic.Pointer[int64]
	// distinctWalked counts the distinct searches a walk answered (tests:
	// which way a search went, where both give the same rows).
	distinctWalked atomic.Int64
	// distinctRead counts the rows distinct searches' walks read (tests:
	// how far a walk went before it answered).
	distinctRead atomic.Int64
	// commListLimit overrides the package's commListLimit when set (tests:
	// a walk that fell short with too many matches to start from).
	commListLimit atomic.Pointer[int]
	// walkSeen, when set, hears how each bounded walk ended (tests).
	walkSeen atomic.Pointer[func(WalkOutcome)]
	// scopes keeps the sizes of the callers' scopes (search_scope.go).
	scopes scopeSizes
}

// New wraps an open primary. migrations holds the engine's goose files.
func New(primary *sql.DB, d Dialect, migrations fs.FS) *DB {
	return &DB{primary: primary, Dialect: d, migrations: migrations}
}

// SetReplica routes read-only-intent searches to r.
func (db *DB) SetReplica(r *sql.DB) { db.replica = r }

// Replica is the read replica's handle; nil when none is configured.
func (db *DB) Replica() *sql.DB { return db.replica }

// Primary is the read-write handle.
func (db *DB) Primary() *sql.DB { return db.primary }

// Reader is the handle a read should use: the replica when the caller says
// the read may be stale and one is configured, the primary otherwise.
func (db *DB) Reader(readOnlyIntent bool) *sql.DB {
	if readOnlyIntent && db.replica != nil {
		return db.replica
	}
	return db.primary
}

// Close closes every handle.
func (db *DB) Close() error {
	err := db.primary.Close()
	if db.replica != nil {
		err = errors.Join(err, db.replica.Close())
	}
	if db.listener != nil {
		err = errors.Join(err, db.listener.Close())
	}
	return err
}

// SetListener gives the revocation listener (RevocationWakeups) a handle of
// its own, closed with db. Its connection must not come from primary's
// pool: a statement prepared on the whole pool (the search's statement
// cache, CardKeyIDs) records every connection it was prepared on, and
// closing it locks each of them, which database/sql's Conn.Raw holds for
// as long as the listener waits; a statement prepared on a connection
// before the listener took it could never be closed (a `keys rotate`
// hung so).
func (db *DB) SetListener(h *sql.DB) { db.listener = h }

// Ping checks that the primary answers.
func (db *DB) Ping(ctx context.Context) error { return db.primary.PingContext(ctx) }

// Tx runs fn in one transaction, committing when fn returns nil and rolling
// back otherwise: a failed request leaves nothing half-written.
func (db *DB) Tx(ctx context.Context, fn func(tx *sql.Tx) error) (err error) {
	tx, err := db.primary.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	return runTx(tx, fn)
}

// runTx runs fn in tx and commits, or rolls back when fn fails or panics.
func runTx(tx *sql.Tx, fn func(tx *sql.Tx) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback()
			panic(p)
		}
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	if err = fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// q renders a ?-placeholder query for the engine.
func (db *DB) q(query string) string { return db.Dialect.Rebind(query) }

func (db *DB) provider() (*goose.Provider, error) {
	opts, err := db.Dialect.gooseOptions()
	if err != nil {
		return nil, err
	}
	return goose.NewProvider(db.Dialect.Goose, db.primary, db.migrations, opts...)
}

// Migrate applies every pending migration (forward only) and reports how
// many it applied.
func (db *DB) Migrate(ctx context.Context) (int, error) {
	p, err := db.provider()
	if err != nil {
		return 0, err
	}
	res, err := p.Up(ctx)
	if err != nil {
		return len(res), fmt.Errorf("migrate: %w", err)
	}
	return len(res), nil
}

// MigrateTo applies the pending migrations up to version and no further:
// how a test of one migration builds the database it starts from.
func (db *DB) MigrateTo(ctx context.Context, version int64) (int, error) {
	p, err := db.provider()
	if err != nil {
		return 0, err
	}
	res, err := p.UpTo(ctx, version)
	if err != nil {
		return len(res), fmt.Errorf("migrate to %d: %w", version, err)
	}
	return len(res), nil
}

// MigrationsPending reports whether any migration is not applied yet. It
// takes no lock, so it works where the migration lock cannot (behind a
// transaction-mode pooler) and never waits for a migrating instance.
func (db *DB) MigrationsPending(ctx context.Context) (bool, error) {
	p, err := db.provider()
	if err != nil {
		return false, err
	}
	pending, err := p.HasPending(ctx)
	if err != nil {
		return false, fmt.Errorf("migration status: %w", err)
	}
	return pending, nil
}

// MigrationState is one migration's status.
type MigrationState struct {
	Version   int64
	Name      string
	Applied   bool
	AppliedAt time.Time
}

// MigrationStatus lists every migration the binary knows and whether it ran.
func (db *DB) MigrationStatus(ctx context.Context) ([]MigrationState, error) {
	p, err := db.provider()
	if err != nil {
		return nil, err
	}
	st, err := p.Status(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]MigrationState, 0, len(st))
	for _, s := range st {
		out = append(out, MigrationState{Version: s.Source.Version, Name: s.Source.Path,
			Applied: s.State == goose.StateApplied, AppliedAt: s.AppliedAt})
	}
	return out, nil
}

// ts is the form timestamps are stored in: UTC, microseconds, like PostgreSQL.
func ts(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }
