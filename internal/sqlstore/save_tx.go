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
	// committed: the server answered the COMMIT sent with the last write
	// (lastExec); what database/sql's own end of the transaction says
	// after that (a context that ended a moment later) cannot undo it.
	committed bool
}

// afterPipelinedCommit, when set (by tests), runs once the COMMIT sent
// with a save's last write was answered, before database/sql's end of the
// transaction.
var afterPipelinedCommit func()

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
		err := runTx(s.tx, func(*sql.Tx) error { return fn(s) })
		if err != nil && s.committed {
			// Only database/sql's Commit can fail after lastExec's COMMIT
			// (nothing may follow it in fn), and it had nothing to send:
			// the save is written, and its answer must say so.
			return nil
		}
		return err
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
		if err := s.db.savePipeline.Commit(ctx, s.conn, []ReadStep{{SQL: query, Args: args}}); err != nil {
			return err
		}
		s.committed = true
		if afterPipelinedCommit != nil {
			afterPipelinedCommit()
		}
		return nil
	}
	_, err := s.db.execFixed(ctx, s.tx, query, args)
	return err
}
