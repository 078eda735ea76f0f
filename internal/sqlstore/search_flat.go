package sqlstore

// The search kit's SQL: one builder for every search over a flat table
// (wayfarer.FlatSearchStore). A search registers a flatTable under its
// catalog's name; the builder adds the agency filter (always), the
// table's scope hook, one condition per filter (from the generic
// conditions of the person search: StringCond, NumCond, In, TimeCond,
// DateCond),
// the inherited createDateTime/modifiedDateTime ranges, the order and the
// page, and runs it as the person search runs (runSearch).

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// flatTable is how a flat search reads its table.
type flatTable struct {
	// From is the table and its alias, e.g. "branch b"; Alias is that alias.
	From, Alias string
	// Joins are added to every statement, e.g. lookups of names; each must
	// keep one row per row of the table (LEFT JOIN on a unique key).
	Joins []string
	// Columns is the SQL of each catalog column (summaryCount has none:
	// it is counted). A column without SQL selects NULL.
	Columns map[string]string
	// Filters is the SQL of filter-only keys, and of columns whose filter
	// is not the generic condition on the column's SQL.
	Filters map[string]func(d Dialect, f wayfarer.SearchFilter) Expr
	// Scope is the reach hook: the rows the session may see beyond the
	// agency filter (nil: every row of the agency).
	Scope func(d Dialect, reach wayfarer.SearchReach) Expr
	// Created and Modified are the columns of the inherited
	// createDateTime/modifiedDateTime ranges ("": the table has none, and
	// a range finds nothing).
	Created, Modified string
	// Order is the order keys; the last must be unique (the rec_no).
	Order []string
	// Indexed names the filter keys (and "modifiedDateTime",
	// "createDateTime" for the inherited ranges) an index of the table
	// starts from: sized up on SQLite first (search_flat_indexed.go). A
	// text key's index holds the folded text, lower(col) (foldIndexed).
	Indexed map[string]bool
	// Trigrams names the SQLite trigram index (an FTS5 table whose rowid
	// is the table's rec_no) of a text column, which a Contains of three
	// characters or more is sized up through (search_flat_indexed.go).
	Trigrams map[string]string
	// Domains are the columns whose values an index lists, for a distinct
	// search of one of them (search_distinct_domain.go).
	Domains map[string]domainColumn
}

// flatTables holds every flat search's table, by catalog name.
var flatTables = map[string]*flatTable{}

// registerFlatTable makes a table searchable; it runs at package init.
func registerFlatTable(name string, t *flatTable) {
	if _, dup := flatTables[name]; dup {
		panic("sqlstore: flat table " + name + " registered twice")
	}
	for _, j := range t.Joins {
		joinAlias(j) // its shape, checked as the program starts
	}
	flatTables[name] = t
}

// SearchFlat runs a flat search within the session's reach.
// Its database work is bounded by the query time limit (timeout.go).
func (db *DB) SearchFlat(ctx context.Context, cat *wayfarer.SearchCatalog, reach wayfarer.SearchReach, c *wayfarer.FlatCriteria) (_ *wayfarer.SearchResult, err error) {
	t, ok := flatTables[cat.Name]
	if !ok {
		return nil, fmt.Errorf("flat search: no table for %q", cat.Name)
	}
	if res := pastTopRows(&c.BaseCriteria); res != nil {
		return res, nil
	}
	ctx, end := db.bound(ctx)
	defer end(&err)
	handle := db.Reader(c.ReadOnlyIntent)
	conds, err := t.conds(db.Dialect, c)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cat.Method, err)
	}
	sc, _ := reach(cat.Areas[0])
	forms, err := db.flatForms(ctx, handle, t, sc.AgencyID, conds)
	if err != nil {
		return nil, err
	}
	if c.Distinct {
		walk := *c
		plain := func(b wayfarer.BaseCriteria) searchQuery {
			walk.BaseCriteria = b
			return t.query(db.Dialect, cat, reach, &walk, conds, forms)
		}
		if res, err := db.walkDistinct(ctx, handle, cat.Method, &c.BaseCriteria, 0, -1, plain, db.distinctDomainOf(sc.AgencyID, c.Columns, t.Domains, domainRules{})); err != nil || res != nil {
			return res, err
		}
	}
	q := t.query(db.Dialect, cat, reach, c, conds, forms)
	return db.runSearch(ctx, handle, cat.Method, q, &c.BaseCriteria, nil)
}

// query builds the statement of a flat search.
func (t *flatTable) query(d Dialect, cat *wayfarer.SearchCatalog, reach wayfarer.SearchReach, c *wayfarer.FlatCriteria, conds []flatCond, forms flatForms) searchQuery {
	sc, _ := reach(cat.Areas[0])
	base := Select{From: E(t.From), Where: []Expr{E(t.Alias+".agency_id = ?", sc.AgencyID)}}
	for i, col := range c.Columns {
		expr := t.Columns[col.Name]
		if expr == "" {
			expr = "NULL"
		}
		base.Columns = append(base.Columns, E(expr+" AS s"+strconv.Itoa(i)))
	}
	if t.Scope != nil {
		base.Where = append(base.Where, t.Scope(d, reach))
	}
	base.Where = append(base.Where, NumCond(t.Alias+".rec_no", c.RecNo))
	for _, fc := range conds {
		base.Where = append(base.Where, forms.where(d, t, sc.AgencyID, fc))
	}
	// Only the lookups the statement uses: each keeps one row per row, so
	// one it does not refer to changes nothing but the time. SQLite joined
	// them all for every activity of a summaryCount (11 s at 800,000
	// activities, against 0.35 without them).
	var where []string
	for _, w := range base.Where {
		where = append(where, w.SQL)
	}
	var all []string
	for _, col := range base.Columns {
		all = append(all, col.SQL)
	}
	base.Joins = usedJoins(t.Joins, append(all, where...))
	q := pagedQuery(d, base, t.Order, len(t.Order), flatOrderKey(t.Order), &c.BaseCriteria, false, nil)
	if !c.Distinct {
		cnt := base
		cnt.Columns, cnt.Joins = []Expr{E("COUNT(*)")}, usedJoins(t.Joins, where)
		q.count = cnt.Expr()
	}
	return q
}

// usedJoins is the joins (each "LEFT JOIN table alias ON ...") whose alias
// texts refer to, and those the ON clauses of these refer to, in order.
func usedJoins(joins []string, texts []string) []Expr {
	used := make([]bool, len(joins))
	for changed := true; changed; {
		changed = false
		for i, j := range joins {
			if used[i] {
				continue
			}
			alias := joinAlias(j)
			refs := slices.ContainsFunc(texts, func(t string) bool { return refersTo(t, alias) })
			for k := range joins {
				refs = refs || used[k] && refersTo(joins[k], alias)
			}
			if refs {
				used[i], changed = true, true
			}
		}
	}
	var out []Expr
	for i, j := range joins {
		if used[i] {
			out = append(out, E(j))
		}
	}
	return out
}

// joinAlias is the alias of "LEFT JOIN table alias ON ...".
func joinAlias(join string) string {
	f := strings.Fields(join)
	if len(f) < 5 || f[4] != "ON" {
		panic("sqlstore: a flat table's join must read LEFT JOIN table alias ON ...: " + join)
	}
	return f[3]
}

// refersTo reports whether sqlText refers to alias (replaceAlias's rule).
func refersTo(sqlText, alias string) bool {
	pat := alias + "."
	for i := range len(sqlText) {
		if aliasAt(sqlText, i, pat) {
			return true
		}
	}
	return false
}

// filter is the condition of one filter: the table's own SQL for its key,
// or the generic condition on the column's SQL.
func (t *flatTable) filter(d Dialect, f wayfarer.SearchFilter) (Expr, error) {
	if fn, ok := t.Filters[f.Key]; ok {
		return fn(d, f), nil
	}
	col, ok := t.Columns[f.Key]
	if !ok {
		return Expr{}, fmt.Errorf("no SQL for the filter %s (%s)", f.Path, f.Key)
	}
	return FilterCond(d, col, f), nil
}

// FilterCond is the generic condition of a filter on an expression: the
// test the filter holds, with the person search's semantics.
func FilterCond(d Dialect, col string, f wayfarer.SearchFilter) Expr {
	switch {
	case f.Str.Active():
		return StringCond(d, col, f.Str)
	case f.Num.Active():
		return NumCond(col, f.Num)
	case len(f.In) > 0:
		return In(col, f.In)
	case f.Bool != nil:
		return E("COALESCE(" + col + ", " + d.BoolLit(false) + ") = " + d.BoolLit(*f.Bool))
	case f.Time.Active():
		return TimeCond(col, f.Time)
	case f.Date.Active():
		return DateCond(col, f.Date)
	}
	return Expr{}
}

// flatOrderKey sorts nulls first on both engines, as the person search
// does, except for the last key (the unique rec_no, never null).
func flatOrderKey(order []string) func(Dialect, string) string {
	return func(d Dialect, key string) string {
		if len(order) > 0 && key == order[len(order)-1] {
			return key
		}
		return key + d.NullsFirst()
	}
}

// scopeConds is a table's table's reach in one area, for rows whose branch
// and advisor are the given columns ("" when the table has none): as the
// person search's scope, OnlySelf keeps the rows of the user's advisors,
// OnlyBranch those of the user's branch; a user without advisors or
// without a branch sees none.
func scopeConds(sc wayfarer.Scope, branchCol, advisorCol string) []Expr {
	var es []Expr
	if sc.OnlySelf && advisorCol != "" {
		es = append(es, In(advisorCol, sc.AdvisorIDs)) // no advisors: false
	}
	if sc.OnlyBranch && branchCol != "" {
		if sc.BranchID == nil {
			es = append(es, exprFalse)
		} else {
			es = append(es, E(branchCol+" = ?", *sc.BranchID))
		}
	}
	return es
}

// ScopeCond is scopeConds as one condition, for a table's scope hook.
func ScopeCond(sc wayfarer.Scope, branchCol, advisorCol string) Expr {
	return And(scopeConds(sc, branchCol, advisorCol)...)
}
