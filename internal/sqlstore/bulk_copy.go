package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// The bulk loader's rows through the engine's COPY where it has one
// (PostgreSQL: pgx's CopyFrom on the load's own connection, inside its
// transaction): one stream per table and batch instead of multi-row
// INSERTs that PostgreSQL parses, plans and binds 30,000 parameters at a
// time (docs/benchmarks/2026-11-23-24.md, "Bulk load").

// bulkDateCols are the DATE columns the loader fills from "2006-01-02"
// strings; COPY's binary format needs them as times.
var bulkDateCols = map[string]bool{"expiration_date": true, "trigger_fixed_date": true, "action_date": true}

// flushCopy writes b's rows with COPY on conn, the connection of the open
// transaction.
func (b *batch) flushCopy(ctx context.Context, conn *sql.Conn, d Dialect) error {
	if len(b.rows) == 0 {
		return nil
	}
	for i, c := range b.cols {
		if !bulkDateCols[c] {
			continue
		}
		for _, r := range b.rows {
			if s, ok := r[i].(*string); ok {
				if s == nil {
					r[i] = nil
					continue
				}
				t, err := time.Parse(time.DateOnly, *s)
				if err != nil {
					return fmt.Errorf("bulk %s.%s: %w", b.table, c, err)
				}
				r[i] = t
			}
		}
	}
	if err := d.copyFrom(ctx, conn, b.table, b.cols, b.rows); err != nil {
		return fmt.Errorf("bulk %s: copy: %w", b.table, err)
	}
	b.rows = b.rows[:0]
	return nil
}
