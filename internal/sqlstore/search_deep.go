package sqlstore

import (
	"strconv"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// A deep page of a person search (a large startingRow) skips its offset on
// the rows' order keys alone, and works out its columns for the page's
// rows only: the rows statement becomes
//
//	SELECT <columns> FROM (SELECT p.agency_id, p.rec_no[, <children's keys>]
//	    FROM person p ... WHERE ... ORDER BY <order> LIMIT ? OFFSET ?) pg
//	JOIN person p ON <pg's person> ... [WHERE <each child's key is pg's>]
//	ORDER BY <order>
//
// PostgreSQL evaluates a statement's select list for every row its OFFSET
// skips, when an index gives the order: the name column alone (a CASE over
// three COALESCEs) made an offset of 100,000 take 26 ms instead of 14 at a
// million persons (BENCHMARKS.md), and a column with a subquery would run it
// once per skipped row. The inner statement reads only the name index
// (an index-only walk); the outer one reads the page's persons by primary
// key. SQLite already skips a person's row without working out the
// columns (it defers the row's read), and answers in the same time either
// way.
//
// Rows of a child group shown (a person's cards, tags, action items) skip
// the same way: the inner statement walks the name index and each
// person's links, keyed by the children's recNos (the card's from its
// link, searchOrder), and reads no card; the outer one joins the page's
// persons' children again and keeps the row whose keys the inner one
// chose. Before, both engines read every skipped row's card (an offset of
// 100,000 card rows at a million persons: 0.39 s on SQLite, 0.63 s on
// PostgreSQL; BENCHMARKS.md).
//
// Only for a page of a bounded size that starts at deepPageFrom rows or
// more, and at least deepPageRatio times its size: each of the page's reads
// by primary key (about 4 µs warm) costs what the name column's work for
// some 30 skipped rows does (about 120 ns each), so a large page deep in
// few rows would lose. Not for distinct, whose rows are groups.
const (
	deepPageFrom  = 2000
	deepPageRatio = 40
)

// deepPage reports whether rows, the page of search c, is a deep one (see
// above). DB.deepPageFrom, set in tests, replaces both bounds.
func (db *DB) deepPage(c *wayfarer.SearchCriteria, rows Select) bool {
	if c.Distinct || rows.Limit == nil {
		return false
	}
	if n := db.deepPageFrom.Load(); n != nil {
		return c.StartingRow >= *n
	}
	return c.StartingRow >= deepPageFrom && c.StartingRow >= deepPageRatio**rows.Limit
}

// deepPageRows is rows, a person search's page (from person p), in the
// deep page form; children are the order keys after the person's
// (searchOrder), which name a row among its person's rows.
func deepPageRows(d Dialect, rows Select, children []string) Select {
	skip := Select{
		Columns: []Expr{E("p.agency_id AS pa"), E("p.rec_no AS pr")},
		From:    rows.From, Where: rows.Where, OrderBy: rows.OrderBy, Limit: rows.Limit, Offset: rows.Offset,
	}
	var pick []Expr
	if len(children) > 0 {
		skip.Joins = rows.Joins // the children's; the engines leave out unused lookups
	}
	for i, k := range children {
		name := "pc" + strconv.Itoa(i)
		skip.Columns = append(skip.Columns, E(k+" AS "+name))
		pick = append(pick, E(k+d.sameAs+"pg."+name)) // null: a person without such children
	}
	return Select{
		Columns: rows.Columns,
		From:    Wrap("(", skip.Expr(), ") pg JOIN person p ON p.agency_id = pg.pa AND p.rec_no = pg.pr"),
		Joins:   rows.Joins,
		Where:   pick,
		OrderBy: rows.OrderBy,
	}
}
