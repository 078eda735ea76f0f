package sqlstore

import (
	"context"
	"database/sql"
)

// queryFixed is queryEach for a query text that does not vary with input
// (given rebound), through the prepared statement cache (search_stmt.go):
// on a handle, or on a transaction of the primary (db.Tx, db.read). SQLite's
// driver parses every statement it is given again, and parsing was most of
// a person's load and of a save's load under its lock (BENCHMARKS.md,
// "Loading a person").
func (db *DB) queryFixed(ctx context.Context, q personQuerier, query string, args []any, fn func(*sql.Rows) error) error {
	h, tx := db.primary, (*sql.Tx)(nil)
	switch v := q.(type) {
	case *sql.DB:
		h = v
	case *sql.Tx:
		tx = v
	default:
		return queryEach(ctx, q, query, args, fn)
	}
	s, done, err := preparedStmts.get(ctx, h, query)
	if err != nil {
		return err
	}
	defer done()
	if tx != nil {
		s = tx.StmtContext(ctx, s)
		defer s.Close()
	}
	rows, err := s.QueryContext(ctx, args...)
	return eachRow(rows, err, fn)
}
