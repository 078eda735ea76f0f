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
// COMMIT: four for a load; BENCHMARKS.md, "Loading a person"). The
// postgres package provides the pipeline (SetReadPipeline); elsewhere the
// same steps run one by one, as before.

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

// TxReadPipeline runs steps in order, sent together, on conn inside the
// transaction open on it (neither begun nor ended here). An error leaves
// the transaction to its owner to roll back.
type TxReadPipeline func(ctx context.Context, conn *sql.Conn, steps []ReadStep) error

// SetReadPipeline makes reads of known statements use p (readSteps) and,
// inside a save's transaction, inTx (loadPersonForUpdate); call it before
// serving.
func (db *DB) SetReadPipeline(p ReadPipeline, inTx TxReadPipeline) {
	db.readPipeline, db.txPipeline = p, inTx
}

// readSteps runs steps as one read on h (see read): pipelined when the
// engine's driver offers it, one by one otherwise.
func (db *DB) readSteps(ctx context.Context, h *sql.DB, steps []ReadStep) error {
	if db.readPipeline == nil || db.Dialect.requestSettings == "" {
		return db.read(ctx, h, func(q personQuerier) error { return runSteps(ctx, db, q, steps) })
	}
	all := make([]ReadStep, 0, len(steps)+1)
	all = append(all, ReadStep{SQL: db.q(db.Dialect.requestSettings), Args: []any{db.timeoutSetting()}})
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
