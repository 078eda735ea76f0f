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
	var s *sql.Stmt
	var done func()
	var err error
	if tx != nil {
		s, done, err = db.txStmt(ctx, tx, query)
	} else {
		s, done, err = preparedStmts.get(ctx, h, query)
	}
	if err != nil {
		return err
	}
	defer done()
	rows, err := s.QueryContext(ctx, args...)
	return eachRow(rows, err, fn)
}

// txStmt is query's statement on tx, a transaction of the primary, and
// its release: the cached statement where the cache holds it. Otherwise
// query is prepared on tx's own connection for this once and on the pool
// in the background for the next time: preparing it on the pool now would
// take a second connection while tx holds one, and with every connection
// held by a transaction waiting for tx's lock (as many saves of one person
// as the pool has connections), none would come before the request timed
// out (TestSavesOnColdStatements).
func (db *DB) txStmt(ctx context.Context, tx *sql.Tx, query string) (*sql.Stmt, func(), error) {
	if s, done, ok := preparedStmts.cached(db.primary, query); ok {
		ts := tx.StmtContext(ctx, s)
		return ts, func() { ts.Close(); done() }, nil
	}
	preparedStmts.warm(db.primary, query)
	ts, err := tx.PrepareContext(ctx, query)
	if err != nil {
		return nil, nil, err
	}
	return ts, func() { ts.Close() }, nil
}

// execFixed is tx.ExecContext through the prepared statement cache, for a
// statement of a transaction of the primary whose text takes few forms (a
// save's UPDATE of the fields it changes): parsed once per connection and
// form instead of at every save.
func (db *DB) execFixed(ctx context.Context, tx *sql.Tx, query string, args []any) (sql.Result, error) {
	s, done, err := db.txStmt(ctx, tx, query)
	if err != nil {
		return nil, err
	}
	defer done()
	return s.ExecContext(ctx, args...)
}
