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
// row holds is never met, and every row is grouped as before). Columns
// read from one column of the rows (a recNo and its lookup:
// `branchRecNo` and `branchRecName`) go together, each recNo with its
// name, not every recNo with every name.
func (db *DB) distinctDomainOf(agencyID int64, cols []wayfarer.SearchColumn, domains map[string]domainColumn, rules domainRules) distinctDomain {
	var factors []*domainFactor
	for i, col := range cols {
		dc, ok := domains[col.Name]
		if !ok {
			return nil
		}
		if col.Lookup && rules.skipLookup { // null on every row
			factors = append(factors, &domainFactor{cols: []int{i}, skipped: true})
			continue
		}
		k := slices.IndexFunc(factors, func(f *domainFactor) bool {
			return !f.skipped && f.dcs[0].table == dc.table && f.dcs[0].alias == dc.alias && f.dcs[0].column == dc.column
		})
		if k < 0 {
			factors = append(factors, &domainFactor{})
			k = len(factors) - 1
		}
		factors[k].cols, factors[k].dcs = append(factors[k].cols, i), append(factors[k].dcs, dc)
	}
	if len(factors) == 0 {
		return nil
	}
	return func(ctx context.Context, handle *sql.DB) ([][]any, error) {
		rows := [][]any{make([]any, len(cols))}
		for _, f := range factors {
			tuples, err := db.factorDomain(ctx, handle, agencyID, f, cols, rules)
			if err != nil || tuples == nil || len(rows)*len(tuples) > maxDomainRows {
				return nil, err
			}
			var next [][]any
			for _, r := range rows {
				for _, t := range tuples {
					row := slices.Clone(r)
					for j, i := range f.cols {
						row[i] = t[j]
					}
					next = append(next, row)
				}
			}
			rows = next
		}
		return rows, nil
	}
}

// domainFactor is the columns of a distinct search (their indexes in its
// columns, and each one's domainColumn) whose values one column of the
// rows lists: itself, or a lookup of it. skipped: a lookup the search
// leaves null.
type domainFactor struct {
	cols    []int
	dcs     []domainColumn
	skipped bool
}

// factorDomain lists the values f's columns can hold together in a row of
// a search under rules, one tuple (in f.cols order) per value of its
// domain column; nil when it lists too many.
func (db *DB) factorDomain(ctx context.Context, handle *sql.DB, agencyID int64, f *domainFactor, cols []wayfarer.SearchColumn, rules domainRules) ([][]any, error) {
	if f.skipped {
		return [][]any{{nil}}, nil
	}
	dc := f.dcs[0]
	var where Expr
	if dc.child && rules.joined != nil {
		var ok bool
		if where, ok = rules.joined(dc.table); ok {
			dc.child = false // every row holds one of the table's
		}
	}
	alone := len(f.cols) == 1 && dc.lookup == nil // its values are the column's
	listed := cols[f.cols[0]]
	if !alone {
		listed = wayfarer.SearchColumn{Name: listed.Name, Type: wayfarer.ColLong} // the recNos the rows name
	}
	values, err := db.columnDomain(ctx, handle, agencyID, dc, where, listed)
	if err != nil || values == nil {
		return nil, err
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
	tuples := make([][]any, len(values))
	for k, v := range values {
		tuples[k] = make([]any, len(f.cols))
		if alone {
			tuples[k][0] = v
		}
	}
	if alone {
		return tuples, nil
	}
	for j, i := range f.cols {
		col := cols[i]
		if f.dcs[j].lookup == nil {
			for k, v := range values {
				if tuples[k][j], err = searchValue(col, v); err != nil {
					return nil, err
				}
			}
			continue
		}
		names, err := db.lookupDomain(ctx, handle, agencyID, *f.dcs[j].lookup, values, col)
		if err != nil {
			return nil, err
		}
		for k, v := range values {
			if n, ok := v.(int64); ok {
				tuples[k][j] = names[n] // nil: no such row, as the search's left join shows
			}
		}
	}
	return tuples, nil
}

// lookupDomain is the values lookup shows for the ids among values
// (recNos; others, such as nil, are skipped), converted as col's, by id.
func (db *DB) lookupDomain(ctx context.Context, handle *sql.DB, agencyID int64, lookup domainLookup, values []any, col wayfarer.SearchColumn) (map[int64]any, error) {
	list := newCandidateList(len(values)) // never full
	for _, v := range values {
		if n, ok := v.(int64); ok {
			list.add(n)
		}
	}
	names := map[int64]any{}
	if list.n == 0 {
		return names, nil
	}
	q := "SELECT l.rec_no, l." + lookup.column + " FROM " + lookup.table + " l WHERE l.agency_id = ? AND l.rec_no IN (" + db.Dialect.candidateIDs + ")"
	err := db.readSteps(ctx, handle, []ReadStep{{SQL: db.q(q), Args: []any{agencyID, list.json()}, Row: func(r RowScanner) error {
		var id int64
		var raw any
		if err := r.Scan(&id, &raw); err != nil {
			return err
		}
		v, err := searchValue(col, raw)
		names[id] = v
		return err
	}}})
	return names, err
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
