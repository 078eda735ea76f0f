package sqlstore

import (
	"context"
	"database/sql"
)

// queryFixed is queryEach for a query text that does not vary with input
// (given rebound): through the prepared statement cache (search_stmt.go)
// when q is a handle, as given otherwise (a transaction, where pgx keeps
// its own cache). SQLite's driver parses every statement it is given
// again, and parsing was most of a person's load (BENCHMARKS.md, "Loading
// a person").
func (db *DB) queryFixed(ctx context.Context, q personQuerier, query string, args []any, fn func(*sql.Rows) error) error {
	h, ok := q.(*sql.DB)
	if !ok {
		return queryEach(ctx, q, query, args, fn)
	}
	s, done, err := preparedStmts.get(ctx, h, query)
	if err != nil {
		return err
	}
	defer done()
	rows, err := s.QueryContext(ctx, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}
