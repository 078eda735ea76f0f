package sqlstore

import (
	"context"
	"database/sql"
)

// A save reads what it decides on (the stored rows, locked by the reads'
// own FOR UPDATE where the engine has one) and then writes, in one
// transaction on a connection held for it. With the engine's SavePipeline
// (PostgreSQL) the BEGIN, the request's settings and the reads are one
// round trip, and a save whose writes are one statement sends it with the
// COMMIT: two round trips where database/sql alone took five (BENCHMARKS.md,
// issue 15 target 4). A save of the person's own fields takes neither: it
// is one conditional UPDATE (UpdatePersonRow) unless that refuses.

// saveTx is a save's transaction and the connection it runs on.
type saveTx struct {
	db        *DB
	conn      *sql.Conn
	tx        *sql.Tx
	pipelined bool // begun by the SavePipeline: lastExec may commit with it
}

// save runs a request's save: reads, then fn, committed unless either
// fails (then nothing of it stays).
func (db *DB) save(ctx context.Context, reads []ReadStep, fn func(s *saveTx) error) error {
	conn, err := db.primary.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	s := &saveTx{db: db, conn: conn, pipelined: db.savePipeline.Begin != nil && db.Dialect.requestSettings != ""}
	if s.pipelined {
		steps := make([]ReadStep, 0, len(reads)+1)
		steps = append(steps, db.requestSettingsStep())
		if err := db.savePipeline.Begin(ctx, conn, sql.TxOptions{}, append(steps, reads...)); err != nil {
			return err
		}
		if s.tx, err = conn.BeginTx(AdoptOpenTx(ctx), nil); err != nil {
			return err
		}
		return runTx(s.tx, func(*sql.Tx) error { return fn(s) })
	}
	ctx = db.withRequestSettings(ctx)
	if s.tx, err = conn.BeginTx(ctx, nil); err != nil {
		return err
	}
	return runTx(s.tx, func(tx *sql.Tx) error {
		if err := db.limitTx(ctx, tx); err != nil {
			return err
		}
		if err := runSteps(ctx, db, tx, reads); err != nil {
			return err
		}
		return fn(s)
	})
}

// lastExec runs the save's last statement. Begun by the pipeline, it goes
// together with the COMMIT, and the save's own commit (runTx) only ends
// database/sql's side: nothing may follow it in fn.
func (s *saveTx) lastExec(ctx context.Context, query string, args []any) error {
	if s.pipelined && s.db.savePipeline.Commit != nil {
		return s.db.savePipeline.Commit(ctx, s.conn, []ReadStep{{SQL: query, Args: args}})
	}
	_, err := s.db.execFixed(ctx, s.tx, query, args)
	return err
}
