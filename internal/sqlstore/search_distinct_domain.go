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

// distinctDomain lists every row of values a distinct search's columns
// can take (nil among them where a row can hold none), converted as the
// search's rows are; nil when it cannot tell them cheaply.
type distinctDomain func(ctx context.Context, handle *sql.DB) ([][]any, error)

// domainColumn is a column whose values an index lists: column of table
// (as alias, the search's own), first after agency_id in one of its
// indexes. child: the table is a child group the search left-joins, so a
// row can always hold none. lookup, where set, is what the search shows
// instead: a value of the row the column names by recNo.
type domainColumn struct {
	table, alias, column string
	child                bool
	lookup               *domainLookup
}

// domainLookup is a lookup column's value (search_columns.go): column of
// the row of table (as alias, the search's own) whose rec_no the domain
// column holds; a row without one shows null.
type domainLookup struct{ table, alias, column string }

// personDomainColumns are the person search's columns whose values
// columnDomain lists (search_columns.go has their SQL). The lookups list
// the names of the branches, advisors and users the rows can name: a
// distinct `branchRecName` grouped every row before (1.6 s on SQLite, 0.85
// s on PostgreSQL at a million persons).
var personDomainColumns = map[string]domainColumn{
	"cardType":                         {"card", "c", "type", true, nil},                       // card_search_type
	"cardSubType":                      {"card", "c", "sub_type", true, nil},                   // card_search_sub_type
	"tagRecNo":                         {"tag", "t", "rec_no", true, nil},                      // tag's key
	"tagName":                          {"tag", "t", "name", true, nil},                        // tag names are unique in an agency
	"branchRecNo":                      {"person", "p", "branch_id", false, nil},               // person_search_branch
	"advisorProfileRecNo":              {"person", "p", "advisor_profile_id", false, nil},      // person_search_advisor
	"birthdayMonth":                    {"person", "p", "birthday_month", false, nil},          // person_search_birthday
	"actionItemAssignedToAppUserRecNo": {"person_action_item", "ai", "app_user_id", true, nil}, // person_action_item_search_user
	"branchRecName":                    {"person", "p", "branch_id", false, &domainLookup{"branch", "b", "name"}},
	"advisorProfileName":               {"person", "p", "advisor_profile_id", false, &domainLookup{"profile", "adv", "name"}},
	"actionItemAssignedToAppUserId":    {"person_action_item", "ai", "app_user_id", true, &domainLookup{"app_user", "au", "user_name"}},
}

// scopedIDs is the values of a person search's domain column that the
// caller's scope lets a row hold (ok: the scope narrows them): an
// OnlyBranch caller sees its branch's persons only, an OnlySelf caller its
// advisors' (buildSearch). Without it the walk of an agent's distinct
// branchRecNo (or branchRecName) waited for the other branches, which
// never come, and then grouped every row (0.43 s at a million persons).
func scopedIDs(sc wayfarer.Scope) func(dc domainColumn) (keep []int64, ok bool) {
	return func(dc domainColumn) ([]int64, bool) {
		switch {
		case dc.table == "person" && dc.column == "branch_id" && sc.OnlyBranch:
			if sc.BranchID != nil {
				return []int64{*sc.BranchID}, true
			}
			return nil, true
		case dc.table == "person" && dc.column == "advisor_profile_id" && sc.OnlySelf:
			return sc.AdvisorIDs, true
		}
		return nil, false
	}
}

// maxDomainValues is the most values columnDomain lists: past them a walk
// of distinctWalkRows rows would rarely meet them all.
const maxDomainValues = 64

// domainRules are what a search's own rules change in the values its
// columns can hold (none: a flat search). joined, where set, gives the
// conditions on a child table that the search joins (not left-joins) to
// its rows, and whether it does; scoped, where set, the values of a column
// that the caller's scope lets a row hold (scopedIDs); skipLookup: the
// search leaves its lookup columns null.
type domainRules struct {
	joined     func(table string) (Expr, bool)
	scoped     func(domainColumn) ([]int64, bool)
	skipLookup bool
}

// maxDomainRows is the most rows a domain of several columns (the product
// of their values) lists: past them a walk of distinctWalkRows rows would
// rarely meet them all.
const maxDomainRows = 256

// distinctDomainOf is the domain of a distinct search showing cols, nil
// unless each of them is a column of domains (a person search's
// personDomainColumns, a flat table's Domains): every combination of their
// values, a superset of the rows any search can hold (a combination no
// row holds is never met, and every row is grouped as before).
func (db *DB) distinctDomainOf(agencyID int64, cols []wayfarer.SearchColumn, domains map[string]domainColumn, rules domainRules) distinctDomain {
	var lists []func(ctx context.Context, handle *sql.DB) ([]any, error)
	for _, col := range cols {
		list := db.columnDomainOf(agencyID, col, domains, rules)
		if list == nil {
			return nil
		}
		lists = append(lists, list)
	}
	if len(lists) == 0 {
		return nil
	}
	return func(ctx context.Context, handle *sql.DB) ([][]any, error) {
		rows := [][]any{nil}
		for _, list := range lists {
			values, err := list(ctx, handle)
			if err != nil || values == nil || len(rows)*len(values) > maxDomainRows {
				return nil, err
			}
			var next [][]any
			for _, r := range rows {
				for _, v := range values {
					next = append(next, append(slices.Clip(r), v))
				}
			}
			rows = next
		}
		return rows, nil
	}
}

// columnDomainOf lists the values col can hold in a row of a search under
// rules, nil when col is not a column of domains.
func (db *DB) columnDomainOf(agencyID int64, col wayfarer.SearchColumn, domains map[string]domainColumn, rules domainRules) func(ctx context.Context, handle *sql.DB) ([]any, error) {
	dc, ok := domains[col.Name]
	if !ok {
		return nil
	}
	if col.Lookup && rules.skipLookup {
		return func(context.Context, *sql.DB) ([]any, error) { return []any{nil}, nil }
	}
	var where Expr
	if dc.child && rules.joined != nil {
		if where, ok = rules.joined(dc.table); ok {
			dc.child = false // every row holds one of the table's
		}
	}
	listed := col
	if dc.lookup != nil {
		listed = wayfarer.SearchColumn{Name: col.Name, Type: wayfarer.ColLong} // the recNos the rows name
	}
	return func(ctx context.Context, handle *sql.DB) ([]any, error) {
		values, err := db.columnDomain(ctx, handle, agencyID, dc, where, listed)
		if err != nil || values == nil {
			return values, err
		}
		if rules.scoped != nil {
			if keep, ok := rules.scoped(dc); ok {
				seen := []any{} // none is an answer too; a scoped row always names one
				for _, v := range values {
					if n, ok := v.(int64); ok && slices.Contains(keep, n) {
						seen = append(seen, v)
					}
				}
				values = seen
			}
		}
		if dc.lookup != nil {
			return db.lookupDomain(ctx, handle, agencyID, *dc.lookup, values, col)
		}
		return values, nil
	}
}

// lookupDomain is the values lookup shows for the rows of a domain whose
// values are ids (recNos, nil among them where a row can name none),
// converted as col's; nil among them where a row shows none.
func (db *DB) lookupDomain(ctx context.Context, handle *sql.DB, agencyID int64, lookup domainLookup, ids []any, col wayfarer.SearchColumn) ([]any, error) {
	var list []byte
	named := 0
	values := []any{}
	for _, v := range ids {
		n, ok := v.(int64)
		if !ok {
			values = append(values, nil)
			continue
		}
		list = strconv.AppendInt(append(list, ','), n, 10)
		named++
	}
	if named == 0 {
		return values, nil
	}
	list[0] = '['
	found := 0
	q := "SELECT l." + lookup.column + " FROM " + lookup.table + " l WHERE l.agency_id = ? AND l.rec_no IN (" + db.Dialect.candidateIDs + ")"
	err := db.readSteps(ctx, handle, []ReadStep{{SQL: db.q(q), Args: []any{agencyID, string(append(list, ']'))}, Row: func(r RowScanner) error {
		var raw any
		if err := r.Scan(&raw); err != nil {
			return err
		}
		v, err := searchValue(col, raw)
		values, found = append(values, v), found+1
		return err
	}}})
	if found < named { // an id without its row: the search's left join shows null
		values = append(values, nil)
	}
	return values, err
}

// personSearchJoins is distinctDomainOf's joined for person search c: its
// card and action item filters join the cards and action items
// (searchJoins).
func personSearchJoins(d Dialect, c *wayfarer.SearchCriteria) func(table string) (Expr, bool) {
	return func(table string) (Expr, bool) {
		switch {
		case table == "card" && c.FiltersCards():
			return And(cardConds(d, c)...), true
		case table == "person_action_item" && c.FiltersActionItems():
			return And(actionItemConds(d, c)...), true
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

// coversDomain reports whether rows hold every row of domain.
func coversDomain(rows []wayfarer.SearchRow, domain [][]any) bool {
	seen := make(map[string]bool, len(domain))
	var key []byte
	for _, r := range rows {
		key = key[:0]
		for _, v := range r {
			key = appendValueKey(key, v)
		}
		seen[string(key)] = true
	}
	for _, d := range domain {
		key = key[:0]
		for _, v := range d {
			key = appendValueKey(key, v)
		}
		if !seen[string(key)] {
			return false
		}
	}
	return true
}
