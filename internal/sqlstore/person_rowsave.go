package sqlstore

import (
	"context"
	"database/sql"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// UpdatePersonRow is wayfarer.PersonStore's conditional save of the
// person's own fields: one UPDATE whose WHERE holds the scope, the
// versions and the expected values, in a transaction of its own; on
// PostgreSQL BEGIN, the request's settings, the UPDATE and COMMIT go as
// one round trip. A save that writes more than the row (a birthday moves
// the due dates of action items) is not taken.
func (db *DB) UpdatePersonRow(ctx context.Context, scope wayfarer.Scope, recNo int64, expect wayfarer.RowExpect, w *wayfarer.PersonWrite) (ok bool, err error) {
	if w == nil || w.Changes == nil || !personRowOnly(w.Changes) {
		return false, nil
	}
	ctx, end := db.bound(ctx)
	defer end(&err)
	ch := w.Changes
	names, values := assignments(personColumns, ch.New, ch.Fields)
	names, values = append(names, "last_modified_date_time"), append(values, ts(w.Now))
	conds := append([]Expr{E("agency_id = ? AND rec_no = ?", scope.AgencyID, recNo)}, scopeConds(scope, "branch_id", "advisor_profile_id")...)
	if expect.Versions != nil {
		conds = append(conds, In("row_version", expect.Versions))
	}
	for _, c := range personColumns {
		if !hasName(expect.Fields, c.field) {
			continue
		}
		// Null as null, whatever the column's default: the stale check
		// compares what the old side says with what is stored.
		if v, valid := wayfarer.FieldValue(expect.Old, c.field); valid {
			conds = append(conds, E(c.name+" = ?", sqlArg(v)))
		} else {
			conds = append(conds, E(c.name+" IS NULL"))
		}
	}
	where := And(conds...)
	q := db.q(`UPDATE person SET ` + setList(names, "row_version = row_version + 1") + ` WHERE ` + where.SQL)
	args := append(values, where.Args...)
	if db.readPipeline == nil || db.Dialect.requestSettings == "" {
		// SQLite: the statement on its own, committed as it ends (as durable
		// as a COMMIT); an Exec, not a query: database/sql watches a query's
		// rows with a goroutine of their own. Its one long wait can be for
		// the write lock, which SQLite ends within the limit by itself
		// (uncancelable).
		n, err := db.execOnPrimary(db.uncancelable(ctx), q, args)
		return n == 1, err
	}
	// PostgreSQL: with BEGIN, the request's settings and COMMIT, one round
	// trip; the rows it returns say whether it wrote.
	n := 0
	err = db.readPipeline(ctx, db.primary, sql.TxOptions{}, []ReadStep{
		db.requestSettingsStep(),
		{SQL: q + ` RETURNING rec_no`, Args: args, Row: func(RowScanner) error { n++; return nil }},
	})
	return n == 1, err
}

// execOnPrimary runs a statement on the primary outside a transaction,
// through the prepared statement cache, and reports how many rows it
// changed.
func (db *DB) execOnPrimary(ctx context.Context, query string, args []any) (int64, error) {
	s, done, err := preparedStmts.get(ctx, db.primary, query)
	if err != nil {
		return 0, err
	}
	defer done()
	res, err := s.ExecContext(ctx, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
