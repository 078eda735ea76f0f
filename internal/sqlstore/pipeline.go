package sqlstore

import (
	"context"
	"database/sql"
)

// A read whose statements are known before the first answer (a person's
// load: its row and its children) can go to PostgreSQL in one round trip:
// BEGIN, the request's settings, the statements and COMMIT sent together
// as one pipeline, the answers read after. Through database/sql each was a
// round trip of its own (BEGIN with the settings, the row, the children,
// COMMIT: four for a load; docs/benchmarks/2026-11-23-24.md, "Loading a
// person"). The postgres package provides the pipeline (SetPipelines);
// elsewhere the same steps run one by one, as before.

// RowScanner is one row of an answer: *sql.Rows, or a driver's own rows.
// Destinations are typed (sql.NullString, int64, time.Time, ...) or *any;
// a pipeline gives an *any what database/sql would (int64 for any integer,
// float64, bool, string, []byte, time.Time), never the driver's own types.
type RowScanner interface{ Scan(dest ...any) error }

// ReadStep is one statement of a pipelined read: SQL in the engine's
// placeholders, its arguments, and Row, called for every row of its
// answer (nil: the answer is not read).
type ReadStep struct {
	SQL  string
	Args []any
	Row  func(RowScanner) error
}

// ReadPipeline runs steps in order, in one read-only transaction with
// opts on h, sent together. An error of any step is the pipeline's, and
// leaves no transaction open on the connection.
type ReadPipeline func(ctx context.Context, h *sql.DB, opts sql.TxOptions, steps []ReadStep) error

// SavePipeline runs a save's transaction in two round trips where the
// driver can (PostgreSQL): Begin sends BEGIN, the request's settings and
// the save's reads together and leaves the transaction open, for
// conn.BeginTx(AdoptOpenTx(ctx), ...) to take over without a statement;
// Commit sends the save's last write and COMMIT together. Through
// database/sql alone a save of one field was five round trips (BEGIN with
// the settings, the row, the children, the UPDATE, COMMIT).
type SavePipeline struct {
	// Begin begins a transaction with opts on conn and runs steps in it.
	// On error no transaction is left open on conn.
	Begin func(ctx context.Context, conn *sql.Conn, opts sql.TxOptions, steps []ReadStep) error
	// Commit runs steps and COMMIT in the transaction open on conn; the
	// adopted transaction's Commit then ends only database/sql's side.
	// On error the transaction is left to its owner to roll back.
	Commit func(ctx context.Context, conn *sql.Conn, steps []ReadStep) error
}

type adoptOpenTxKey struct{}

// AdoptOpenTx is ctx for a BeginTx that takes over the transaction
// SavePipeline.Begin left open on the connection instead of beginning one.
func AdoptOpenTx(ctx context.Context) context.Context {
	return context.WithValue(ctx, adoptOpenTxKey{}, true)
}

// AdoptsOpenTx reports whether a BeginTx in ctx is to adopt (AdoptOpenTx).
func AdoptsOpenTx(ctx context.Context) bool {
	adopt, _ := ctx.Value(adoptOpenTxKey{}).(bool)
	return adopt
}

// SetPipelines makes reads of known statements (readSteps) and the
// conditional writes (UpdatePersonRow) use p, and saves that read first use
// save (DB.save); call it before serving.
func (db *DB) SetPipelines(p ReadPipeline, save SavePipeline) {
	db.readPipeline, db.savePipeline = p, save
}

// readSteps runs steps as one read on h (see read): pipelined when the
// engine's driver offers it, one by one otherwise.
func (db *DB) readSteps(ctx context.Context, h *sql.DB, steps []ReadStep) error {
	if db.readPipeline == nil || db.Dialect.requestSettings == "" {
		return db.read(ctx, h, func(q personQuerier) error { return runSteps(ctx, db, q, steps) })
	}
	all := make([]ReadStep, 0, len(steps)+1)
	all = append(all, db.requestSettingsStep())
	all = append(all, steps...)
	return db.readPipeline(ctx, h, sql.TxOptions{ReadOnly: true, Isolation: db.Dialect.snapshot}, all)
}

// runSteps runs steps one by one on q.
func runSteps(ctx context.Context, db *DB, q personQuerier, steps []ReadStep) error {
	for _, s := range steps {
		row := s.Row
		if row == nil {
			row = func(RowScanner) error { return nil }
		}
		if err := db.queryFixed(ctx, q, s.SQL, s.Args, func(rows *sql.Rows) error { return row(rows) }); err != nil {
			return err
		}
	}
	return nil
}
