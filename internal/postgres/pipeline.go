package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
)

// readPipeline is sqlstore's ReadPipeline on PostgreSQL: BEGIN, the steps
// and COMMIT go to the server as one pgx batch, which pgx sends as one
// pipeline (a statement it has not prepared on this connection yet costs
// one more round trip, once). The answers are read in order.
func readPipeline(ctx context.Context, h *sql.DB, opts sql.TxOptions, steps []sqlstore.ReadStep) error {
	begin, err := beginSQL(driver.TxOptions{Isolation: driver.IsolationLevel(opts.Isolation), ReadOnly: opts.ReadOnly})
	if err != nil {
		return err
	}
	c, err := h.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	return onConn(c, func(pc *conn) error { return runPipeline(ctx, pc.Conn(), begin, steps, "COMMIT") })
}

// savePipeline is sqlstore's SavePipeline on PostgreSQL.
var savePipeline = sqlstore.SavePipeline{Begin: saveBegin, Commit: saveCommit}

// saveBegin sends BEGIN and the steps as one batch and leaves the
// transaction open for conn.BeginTx to adopt (conn.BeginTx).
func saveBegin(ctx context.Context, c *sql.Conn, opts sql.TxOptions, steps []sqlstore.ReadStep) error {
	begin, err := beginSQL(driver.TxOptions{Isolation: driver.IsolationLevel(opts.Isolation), ReadOnly: opts.ReadOnly})
	if err != nil {
		return err
	}
	return onConn(c, func(pc *conn) error {
		pc.committed = false
		return runPipeline(ctx, pc.Conn(), begin, steps, "")
	})
}

// saveCommit sends the steps and COMMIT as one batch in the transaction
// open on c, and marks it committed for the adopted transaction's Commit.
func saveCommit(ctx context.Context, c *sql.Conn, steps []sqlstore.ReadStep) error {
	return onConn(c, func(pc *conn) error {
		b := &pgx.Batch{}
		for _, s := range steps {
			b.Queue(s.SQL, s.Args...)
		}
		b.Queue("COMMIT")
		br := pc.Conn().SendBatch(ctx, b)
		err := readStepAnswers(br, steps)
		if err == nil {
			err = commitAnswer(br.Exec())
		}
		if cerr := br.Close(); err == nil {
			err = cerr
		}
		pc.committed = err == nil
		return err
	})
}

// commitAnswer is a COMMIT's answer as an error: a transaction that had
// failed answers COMMIT with ROLLBACK (as pgx's own Commit reports).
func commitAnswer(tag pgconn.CommandTag, err error) error {
	if err == nil && tag.String() == "ROLLBACK" {
		return pgx.ErrTxCommitRollback
	}
	return err
}

// onConn runs fn on c's driver connection, which must be this package's.
func onConn(c *sql.Conn, fn func(pc *conn) error) error {
	return c.Raw(func(dc any) error {
		pc, ok := dc.(*conn)
		if !ok {
			return errors.New("postgres: the connection is not this package's")
		}
		return fn(pc)
	})
}

// runPipeline sends begin, the steps and commit ("": none, the
// transaction stays open) as one batch and reads the answers. On error no
// transaction is left open.
func runPipeline(ctx context.Context, conn *pgx.Conn, begin string, steps []sqlstore.ReadStep, commit string) error {
	b := &pgx.Batch{}
	b.Queue(begin)
	for _, s := range steps {
		b.Queue(s.SQL, s.Args...)
	}
	if commit != "" {
		b.Queue(commit)
	}
	br := conn.SendBatch(ctx, b)
	err := readAnswers(br, steps, commit != "")
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		endOpenTx(ctx, conn)
	}
	return err
}

// endOpenTx rolls back the transaction a failed step left open (aborted),
// or the pool would drop the connection (pgx's ResetSession) and open
// another, a new backend; if the ROLLBACK fails, the connection is closed.
func endOpenTx(ctx context.Context, conn *pgx.Conn) {
	if conn.PgConn().TxStatus() == 'I' {
		return
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	if _, err := conn.Exec(rctx, "ROLLBACK"); err != nil {
		_ = conn.Close(rctx)
	}
}

// readAnswers reads the batch's answers: the BEGIN's, each step's rows,
// the COMMIT's if commit.
func readAnswers(br pgx.BatchResults, steps []sqlstore.ReadStep, commit bool) error {
	if _, err := br.Exec(); err != nil {
		return err
	}
	if err := readStepAnswers(br, steps); err != nil {
		return err
	}
	if !commit {
		return nil
	}
	_, err := br.Exec()
	return err
}

// readStepAnswers reads each step's rows, in order.
func readStepAnswers(br pgx.BatchResults, steps []sqlstore.ReadStep) error {
	for _, s := range steps {
		rows, err := br.Query()
		if err != nil {
			return err
		}
		var row sqlstore.RowScanner = sqlRow{rows} // one wrapper per answer, not per row
		for rows.Next() {
			if s.Row == nil {
				continue
			}
			if err := s.Row(row); err != nil {
				rows.Close()
				return err
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}

// sqlRow is pgx's row as database/sql's pgx driver gives it: an *any
// destination gets int64 for any integer and float64 for a float4, as a
// search's columns expect, not pgx's int16, int32 or float32.
type sqlRow struct{ rows pgx.Rows }

func (r sqlRow) Scan(dest ...any) error {
	if err := r.rows.Scan(dest...); err != nil {
		return err
	}
	for _, d := range dest {
		p, ok := d.(*any)
		if !ok {
			continue
		}
		switch v := (*p).(type) {
		case int16:
			*p = int64(v)
		case int32:
			*p = int64(v)
		case float32:
			*p = float64(v)
		}
	}
	return nil
}
