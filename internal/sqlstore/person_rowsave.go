package sqlstore

import (
	"context"
	"database/sql"
	"strings"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// UpdatePersonRow is wayfarer.PersonStore's conditional save of the
// person's own fields: one UPDATE whose WHERE holds the scope, the
// versions and the expected values, in a transaction of its own; on
// PostgreSQL BEGIN, the request's settings, the UPDATE and COMMIT go as
// one round trip (writeSteps). A save that writes more than the row (a
// birthday moves the due dates of action items) is not taken.
func (db *DB) UpdatePersonRow(ctx context.Context, scope wayfarer.Scope, recNo int64, expect wayfarer.RowExpect, w *wayfarer.PersonWrite) (ok bool, err error) {
	if w == nil || w.Changes == nil || !personRowOnly(w.Changes) {
		return false, nil
	}
	ctx, end := db.bound(ctx)
	defer end(&err)
	ch := w.Changes
	names, values := assignments(personColumns, ch.New, ch.Fields)
	set := make([]string, 0, len(names)+2)
	for _, n := range names {
		set = append(set, n+" = ?")
	}
	set = append(set, "last_modified_date_time = ?", "row_version = row_version + 1")
	values = append(values, ts(w.Now))
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
	n := 0
	err = db.writeSteps(ctx, []ReadStep{{
		SQL:  db.q(`UPDATE person SET ` + strings.Join(set, ", ") + ` WHERE ` + where.SQL + ` RETURNING rec_no`),
		Args: append(values, where.Args...),
		Row:  func(RowScanner) error { n++; return nil },
	}})
	return n == 1, err
}

// writeSteps runs steps, which may write, in one transaction of a request:
// on PostgreSQL with BEGIN, the request's settings and COMMIT as one
// round trip; elsewhere one by one, a single statement as a transaction
// of its own (SQLite commits it as durably as a COMMIT).
func (db *DB) writeSteps(ctx context.Context, steps []ReadStep) error {
	if db.Dialect.requestSettings == "" && len(steps) == 1 {
		return runSteps(ctx, db, db.primary, steps)
	}
	if db.readPipeline == nil || db.Dialect.requestSettings == "" {
		return db.requestTx(ctx, func(tx *sql.Tx) error { return runSteps(ctx, db, tx, steps) })
	}
	all := make([]ReadStep, 0, len(steps)+1)
	all = append(all, ReadStep{SQL: db.q(db.Dialect.requestSettings), Args: []any{db.timeoutSetting()}})
	return db.readPipeline(ctx, db.primary, sql.TxOptions{}, append(all, steps...))
}
