package sqlstore

import (
	"context"
	"database/sql"
	"strconv"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// The includeColsExtended columns of the person search
// (wayfarer.ExtendedColumn): one correlated subquery each, on the indexed
// (agency_id, person_id) of person_tag and the primary key of
// person_marketing, so they add no rows and cost one index probe per row.

// extendedColumnExpr is the selected expression of an extended column,
// named s<i>; the record number is a bound parameter.
func extendedColumnExpr(d Dialect, col wayfarer.SearchColumn, i int) Expr {
	as := " AS s" + strconv.Itoa(i)
	e := col.Extended
	if e.Type == wayfarer.ExtendedMarketing {
		return E("CASE WHEN EXISTS (SELECT 1 FROM person_marketing pmx WHERE pmx.agency_id = p.agency_id AND pmx.person_id = p.rec_no"+
			" AND pmx.marketing_element_id = ?) THEN "+d.BoolLit(true)+" ELSE "+d.BoolLit(false)+" END"+as, e.RecNo)
	}
	return E("(SELECT string_agg(COALESCE(ptx.value, ''), '; ' ORDER BY ptx.rec_no) FROM person_tag ptx"+
		" WHERE ptx.agency_id = p.agency_id AND ptx.person_id = p.rec_no AND ptx.tag_id = ?)"+as, e.RecNo)
}

// checkExtendedColumns answers a 407 naming the entry when the agency has
// no tag or marketing element behind an extended column.
func (db *DB) checkExtendedColumns(ctx context.Context, q *sql.DB, agencyID int64, cols []wayfarer.SearchColumn) error {
	for _, col := range cols {
		e := col.Extended
		if e == nil {
			continue
		}
		query := `SELECT 1 FROM tag WHERE agency_id = ? AND rec_no = ?`
		if e.Type == wayfarer.ExtendedMarketing {
			query = `SELECT 1 FROM marketing_element WHERE agency_id = ? AND rec_no = ?`
		}
		var one int
		err := q.QueryRowContext(ctx, db.q(query), agencyID, e.RecNo).Scan(&one)
		if err == sql.ErrNoRows {
			return wayfarer.UnknownExtendedError(e)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
