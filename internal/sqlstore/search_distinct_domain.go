package sqlstore

import (
	"context"
	"database/sql"
	"slices"
	"strconv"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// A distinct search of one column with few values (`{"distinct":true,
// "includeCols":["cardType"]}`: three types and the persons without a
// card) never fills a page, so its walk (walkDistinct) could not tell
// whether a later row brings a new value, and every row was grouped: 3.7 s
// at a million persons on a slow machine, near the 5 s limit. The values a
// column can take at all in the agency are listed from an index in a few
// steps (one per value, columnDomain); once the walk has met each of them,
// no later row can add a distinct row, and the walk answers.

// distinctDomain lists every value a distinct search's only column can
// take in a row (nil among them where a row can hold none), converted as
// the search's rows are; nil when it cannot tell them cheaply.
type distinctDomain func(ctx context.Context, handle *sql.DB) ([]any, error)

// domainColumn is a column whose values an index lists: column of table
// (as alias, the search's own), first after agency_id in one of its
// indexes. child: the table is a child group the search left-joins, so a
// row can always hold none.
type domainColumn struct {
	table, alias, column string
	child                bool
}

// personDomainColumns are the person search's columns whose values
// columnDomain lists (search_columns.go has their SQL).
var personDomainColumns = map[string]domainColumn{
	"cardType":            {"card", "c", "type", true},         // card_search_type
	"cardSubType":         {"card", "c", "sub_type", true},     // card_search_sub_type
	"tagRecNo":            {"tag", "t", "rec_no", true},        // tag's key
	"tagName":             {"tag", "t", "name", true},          // tag names are unique in an agency
	"branchRecNo":         {"person", "p", "branch_id", false}, // person_search_branch
	"advisorProfileRecNo": {"person", "p", "advisor_profile_id", false},
	"birthdayMonth":       {"person", "p", "birthday_month", false},
}

// scopedDomain is domain, a person search's of cols, narrowed to the values
// the caller's scope lets a row hold: an OnlyBranch caller sees its
// branch's persons only, an OnlySelf caller its advisors' (buildSearch).
// Without it the walk of an agent's distinct branchRecNo waited for the
// other branches, which never come, and then grouped every row (0.43 s at
// a million persons).
func scopedDomain(domain distinctDomain, sc wayfarer.Scope, cols []wayfarer.SearchColumn) distinctDomain {
	if domain == nil {
		return nil
	}
	var keep []int64
	switch name := cols[0].Name; {
	case name == "branchRecNo" && sc.OnlyBranch:
		if sc.BranchID != nil {
			keep = []int64{*sc.BranchID}
		}
	case name == "advisorProfileRecNo" && sc.OnlySelf:
		keep = sc.AdvisorIDs
	default:
		return domain
	}
	return func(ctx context.Context, handle *sql.DB) ([]any, error) {
		values, err := domain(ctx, handle)
		if err != nil || values == nil {
			return values, err
		}
		seen := []any{} // none is an answer too
		for _, v := range values {
			if n, ok := v.(int64); ok && slices.Contains(keep, n) {
				seen = append(seen, v)
			}
		}
		return seen, nil
	}
}

// maxDomainValues is the most values columnDomain lists: past them a walk
// of distinctWalkRows rows would rarely meet them all.
const maxDomainValues = 64

// distinctDomainOf is the domain of a distinct search showing cols, nil
// unless it shows one column of domains (a person search's
// personDomainColumns, a flat table's Domains). joined, where not nil,
// gives the conditions on a child table that the search joins (not
// left-joins) to its rows, and whether it does.
func (db *DB) distinctDomainOf(agencyID int64, cols []wayfarer.SearchColumn, domains map[string]domainColumn, joined func(table string) (Expr, bool)) distinctDomain {
	if len(cols) != 1 {
		return nil
	}
	col := cols[0]
	dc, ok := domains[col.Name]
	if !ok {
		return nil
	}
	var where Expr
	if dc.child && joined != nil {
		if where, ok = joined(dc.table); ok {
			dc.child = false // every row holds one of the table's
		}
	}
	return func(ctx context.Context, handle *sql.DB) ([]any, error) {
		return db.columnDomain(ctx, handle, agencyID, dc, where, col)
	}
}

// personSearchJoins is distinctDomainOf's joined for person search c: its
// card filters join the cards (searchJoins).
func personSearchJoins(d Dialect, c *wayfarer.SearchCriteria) func(table string) (Expr, bool) {
	return func(table string) (Expr, bool) {
		if table == "card" && c.FiltersCards() {
			return And(cardConds(d, c)...), true
		}
		return Expr{}, false
	}
}

// columnDomain lists the values of dc in the agency's rows of its table
// that meet where (none: every row), from its index: the least, then the
// least above it, and so on (a loose index scan, written as a recursive
// statement both engines run), and nil where a row can hold none. These
// values are a superset of any search's within the agency, whatever its
// other filters and scope; nil (with no error) past maxDomainValues.
func (db *DB) columnDomain(ctx context.Context, handle *sql.DB, agencyID int64, dc domainColumn, where Expr, col wayfarer.SearchColumn) ([]any, error) {
	x := dc.alias + "." + dc.column
	rowsWhere := func(where Expr, cond string) Expr {
		return Wrap("SELECT "+x+" FROM "+dc.table+" "+dc.alias+" WHERE ", And(E(dc.alias+".agency_id = ?", agencyID), where, E(cond)), "")
	}
	rows := func(cond string) Expr { return rowsWhere(where, cond) }
	stepWhere := where
	if !where.IsZero() && db.Dialect.probeChildren {
		// The steps after the first test where on each index entry from
		// the last value on (SQLite): planned as a seek, a card type filter
		// made SQLite sort every card of the agency for each step (284 ms
		// against 60 at a million persons). The first step seeks with it
		// (a type filter's own value: 0.1 ms against 150).
		stepWhere = unindexed(where)
	}
	first := Wrap("SELECT (", rows(x+" IS NOT NULL"), " ORDER BY "+x+" LIMIT 1), 1")
	// n counts the values: the recursion stops one past maxDomainValues.
	next := Wrap("SELECT (", rowsWhere(stepWhere, x+" > v.x"), " ORDER BY "+x+" LIMIT 1), v.n + 1 FROM v WHERE v.x IS NOT NULL AND v.n <= "+strconv.Itoa(maxDomainValues))
	none := Wrap("SELECT NULL AS x WHERE EXISTS (", rows(x+" IS NULL"), ")")
	if dc.child {
		none = E("SELECT NULL AS x")
	}
	q := join(" ", []Expr{Wrap("WITH RECURSIVE v(x, n) AS (", join(" UNION ALL ", []Expr{first, next}), ")"),
		none, E("UNION ALL SELECT x FROM v WHERE x IS NOT NULL")})
	values := []any{} // none is an answer too: nil is for "cannot tell"
	err := db.readSteps(ctx, handle, []ReadStep{{SQL: db.q(q.SQL), Args: q.Args, Row: func(r RowScanner) error {
		var raw any
		if err := r.Scan(&raw); err != nil {
			return err
		}
		v, err := searchValue(col, raw)
		values = append(values, v)
		return err
	}}})
	if err != nil || len(values) > maxDomainValues {
		return nil, err
	}
	return values, nil
}

// coversDomain reports whether rows hold every value of domain in their
// only column.
func coversDomain(rows []wayfarer.SearchRow, domain []any) bool {
	seen := make(map[string]bool, len(domain))
	var key []byte
	for _, r := range rows {
		key = appendValueKey(key[:0], r[0])
		seen[string(key)] = true
	}
	for _, v := range domain {
		if key = appendValueKey(key[:0], v); !seen[string(key)] {
			return false
		}
	}
	return true
}
