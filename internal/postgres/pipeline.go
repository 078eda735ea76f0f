package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

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
	return c.Raw(func(dc any) error {
		pc, ok := dc.(interface{ Conn() *pgx.Conn })
		if !ok {
			return errors.New("postgres: the connection is not pgx's")
		}
		return runPipeline(ctx, pc.Conn(), begin, steps)
	})
}

// txReadPipeline is sqlstore's TxReadPipeline on PostgreSQL: the steps as
// one pgx batch on the connection, inside its open transaction. A failed
// step leaves that transaction aborted, for its owner to roll back.
func txReadPipeline(ctx context.Context, c *sql.Conn, steps []sqlstore.ReadStep) error {
	return c.Raw(func(dc any) error {
		pc, ok := dc.(interface{ Conn() *pgx.Conn })
		if !ok {
			return errors.New("postgres: the connection is not pgx's")
		}
		b := &pgx.Batch{}
		for _, s := range steps {
			b.Queue(s.SQL, s.Args...)
		}
		br := pc.Conn().SendBatch(ctx, b)
		err := readStepAnswers(br, steps)
		if cerr := br.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

func runPipeline(ctx context.Context, conn *pgx.Conn, begin string, steps []sqlstore.ReadStep) error {
	b := &pgx.Batch{}
	b.Queue(begin)
	for _, s := range steps {
		b.Queue(s.SQL, s.Args...)
	}
	b.Queue("COMMIT")
	br := conn.SendBatch(ctx, b)
	err := readAnswers(br, steps)
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil && conn.PgConn().TxStatus() != 'I' {
		// A failed step leaves the transaction open (aborted): end it here,
		// or the pool would drop the connection (pgx's ResetSession) and
		// open another, a new backend; if the ROLLBACK fails, drop it.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		if _, rerr := conn.Exec(rctx, "ROLLBACK"); rerr != nil {
			_ = conn.Close(rctx)
		}
	}
	return err
}

// readAnswers reads the batch's answers: the BEGIN's, each step's rows,
// the COMMIT's.
func readAnswers(br pgx.BatchResults, steps []sqlstore.ReadStep) error {
	if _, err := br.Exec(); err != nil {
		return err
	}
	if err := readStepAnswers(br, steps); err != nil {
		return err
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
