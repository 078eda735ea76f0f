package sqlstore

// The person search: the statement and its run.

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"sync"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// searchWhere is every condition on the persons: agency, scope (next to
// it: buildSearch), filters.
func searchWhere(d Dialect, sc wayfarer.Scope, c *wayfarer.SearchCriteria, opt searchOptions) []Expr {
	w := append([]Expr{E("p.agency_id = ?", sc.AgencyID)}, scopeConds(sc, "p.branch_id", "p.advisor_profile_id")...)
	w = append(w, NumCond("p.rec_no", c.RecNo))
	// A name's substring the trigram index serves is a person filter.
	if nameTrigramMatch(d, "last_name", c.LastName) == "" {
		w = append(w, StringCond(d, "p.last_name", c.LastName))
	}
	if nameTrigramMatch(d, "middle_name", c.MiddleName) == "" {
		w = append(w, StringCond(d, "p.middle_name", c.MiddleName))
	}
	for _, f := range personFilters(d, c) {
		w = append(w, f.where(d, sc.AgencyID, opt))
	}
	if c.UniqueID != "" {
		w = append(w, E("p.unique_id = ?", c.UniqueID))
	}
	if len(c.ActiveStatus) > 0 {
		w = append(w, In("p.active_status", c.ActiveStatus))
	}
	permit := func(v *bool, typ int) {
		if v == nil {
			return
		}
		sub := primaryCommSQL(d, "permit_marketing", typ)
		if *v {
			w = append(w, E(sub+" = "+d.BoolLit(true)))
		} else {
			w = append(w, E("COALESCE("+sub+", "+d.BoolLit(false)+") = "+d.BoolLit(false)))
		}
	}
	permit(c.EmailPermitMarketing, 2)
	permit(c.PhonePermitMarketing, 1)
	if c.FiltersComms() && opt.commCandidates != "" {
		// Few candidates in the trigram index: start from them. The
		// subquery is uncorrelated, so it runs once.
		conds := And(commConds(d, c)...)
		w = append(w, Expr{SQL: "p.rec_no IN (SELECT cm.person_id FROM communication cm WHERE cm.agency_id = ? AND " +
			"cm.rec_no IN (" + d.candidateIDs + ") AND " + conds.SQL + ")",
			Args: append([]any{sc.AgencyID, opt.commCandidates}, conds.Args...)})
	}
	if c.FiltersComms() && opt.commPersons != "" {
		w = append(w, E("p.rec_no IN ("+d.candidateIDs+")", opt.commPersons))
	}
	if c.ProfileRecNo.Active() {
		const from = "EXISTS (SELECT 1 FROM profile_person pp WHERE pp.agency_id = p.agency_id AND pp.person_id = p.rec_no"
		switch c.ProfileRecNo.Cond {
		case wayfarer.NumNotEqual:
			w = append(w, Wrap("NOT "+from+" AND ", In("pp.profile_id", c.ProfileRecNo.Values), ")"))
		case wayfarer.NumBlank:
			w = append(w, E("NOT "+from+")"))
		case wayfarer.NumNotBlank:
			w = append(w, E(from+d.perPersonExists+")"))
		}
	}
	for _, f := range childFilters(d, sc, c, opt) {
		w = append(w, f.cond(d, sc.AgencyID, opt.few[f.key]))
	}
	return w
}

// searchOrder is the stable order: name (last, first, case-insensitive),
// recNo, then the shown children by recNo. Nulls sort first on both engines
// (ascending order's default on SQLite), so the ORDER BY adds NullsFirst to
// every key but recNo, which is never null and matches the indexes as is.
// A card's recNo is read from its link (pcl.card_id, equal to c.rec_no on
// every row): the link's key holds it in order within a person, so SQLite
// orders a person's cards without a sort of its own, and a deep page skips
// its rows without reading a card (search_deep.go).
func searchOrder(d Dialect, c *wayfarer.SearchCriteria) []string {
	keys := []string{d.Fold("p.last_name"), d.Fold("p.first_name"), "p.rec_no"}
	if c.ShowsGroup(wayfarer.GroupCard) {
		keys = append(keys, "pcl.card_id")
	}
	if c.ShowsGroup(wayfarer.GroupTag) {
		keys = append(keys, "pt.rec_no")
	}
	if c.ShowsGroup(wayfarer.GroupActionItem) {
		keys = append(keys, "ai.rec_no")
	}
	return keys
}

func orderKey(d Dialect, key string) string {
	if key == "p.rec_no" || key == "rec_no" {
		return key
	}
	return key + d.NullsFirst()
}

// searchQuery is the query for the search's rows and, when distinct, the
// grouped form. The selected expressions are named s0, s1, ... in
// c.Columns order (summaryCount selects a NULL placeholder).
type searchQuery struct {
	rows  Select
	count Expr
	// generic: its plan cannot depend on its values (genericPlanned), so
	// an engine that caches plans may plan it once.
	generic bool
}

func (db *DB) buildSearch(sc wayfarer.Scope, c *wayfarer.SearchCriteria, opt searchOptions) searchQuery {
	d := db.Dialect
	var cols []Expr
	for i, col := range c.Columns {
		if col.Extended != nil {
			cols = append(cols, extendedColumnExpr(d, col, i))
			continue
		}
		expr := searchColumnSQL(d, col.Name)
		if expr == "" || (col.Lookup && c.SkipLookup) {
			expr = "NULL"
		}
		cols = append(cols, E(expr+" AS s"+strconv.Itoa(i)))
	}
	base := Select{
		Columns: cols,
		From:    E("person p"),
		Joins:   searchJoins(d, c, opt),
		Where:   searchWhere(d, sc, c, opt),
	}
	q := pagedQuery(d, base, searchOrder(d, c), personKeys, orderKey, &c.BaseCriteria, opt.keys, opt.after)
	if !c.Distinct { // a count of rows, not of values
		cnt := base
		cnt.Columns, cnt.Joins = []Expr{E("COUNT(*)")}, rowJoins(d, c, opt, false)
		q.count = cnt.Expr()
	}
	if opt.scopeSized && !c.Distinct { // the count keeps the engine's choice
		q.rows.Where = sizedScope(d, sc, c, opt, q.rows.Where)
	}
	return q
}

// personKeys is how many of searchOrder's keys name the row's person: the
// rest order a person's rows among themselves.
const personKeys = 3

// pagedQuery orders and pages a search's base statement, whose selected
// expressions are named s0, s1, ... in c.Columns order, by order (its keys
// rendered by key: the last is unique, so the order is total); with
// distinct, it groups the rows on every shown column and orders the groups
// by the first record that produced them (the first `producer` keys of
// order name a row's record: the person of a person search's rows) and
// then by the columns (search_distinct.go). keys adds the order keys after
// the columns, and after starts after the row with those keys (a continued
// search, search_keyset.go; without distinct only).
func pagedQuery(d Dialect, base Select, order []string, producer int, key func(Dialect, string) string, c *wayfarer.BaseCriteria, keys bool, after []any) searchQuery {
	limit := pageLimit(c)

	if !c.Distinct {
		rows := base
		for _, k := range order {
			rows.OrderBy = append(rows.OrderBy, E(key(d, k)))
		}
		rows.Limit, rows.Offset = limit, c.StartingRow
		if keys {
			rows.Columns = append(append([]Expr{}, rows.Columns...), keyColumns(order)...)
		}
		if after != nil {
			rows.Where = append(append([]Expr{}, rows.Where...), afterKeys(d, order, after))
		}
		cnt := base
		cnt.Columns = []Expr{E("COUNT(*)")}
		return searchQuery{rows: rows, count: cnt.Expr()}
	}

	inner := base
	var outerCols, group, outerOrder []Expr
	inner.Columns = append(inner.Columns, E(producerKey(d, order[:producer])+" AS r0"))
	outerOrder = append(outerOrder, E("MIN(r0)"+d.NullsFirst()))
	for i, col := range c.Columns {
		s := "s" + strconv.Itoa(i)
		outerCols = append(outerCols, E(s))
		group = append(group, E(s))
		if col.Type == wayfarer.ColString {
			s += d.codePoints
		}
		outerOrder = append(outerOrder, E(s+d.NullsFirst()))
	}
	sub := Wrap("(", inner.Expr(), ") q")
	rows := Select{Columns: outerCols, From: sub, GroupBy: group, OrderBy: outerOrder, Limit: limit, Offset: c.StartingRow}
	cnt := Select{Columns: []Expr{E("COUNT(*)")},
		From: Wrap("(", (&Select{Columns: outerCols, From: sub, GroupBy: group}).Expr(), ") g")}
	return searchQuery{rows: rows, count: cnt.Expr()}
}

// pageLimit is the most rows of a page: topRows caps the whole result,
// startingRow and rowCount pick the page within it; nil when unbounded.
func pageLimit(c *wayfarer.BaseCriteria) *int64 {
	var limit *int64
	if c.TopRows > 0 {
		l := max(c.TopRows-c.StartingRow, 0)
		limit = &l
	}
	if c.RowCount > 0 && (limit == nil || c.RowCount < *limit) {
		l := c.RowCount
		limit = &l
	}
	return limit
}

// SearchPersons runs a person search within the scope.
// Its database work is bounded by the query time limit (timeout.go).
func (db *DB) SearchPersons(ctx context.Context, sc wayfarer.Scope, c *wayfarer.SearchCriteria) (_ *wayfarer.SearchResult, err error) {
	if res := pastTopRows(&c.BaseCriteria); res != nil {
		return res, nil
	}
	ctx, end := db.bound(ctx)
	defer end(&err)
	handle := db.Reader(c.ReadOnlyIntent)
	if err := db.checkExtendedColumns(ctx, handle, sc.AgencyID, c.Columns); err != nil {
		return nil, err
	}
	opt, err := db.searchOptions(ctx, handle, sc, c)
	if err != nil {
		return nil, err
	}
	var cont *continuationKeys
	if c.Continues() {
		cont = &continuationKeys{fingerprint: sync.OnceValue(func() [16]byte { return db.searchFingerprint(sc, c) }), n: len(searchOrder(db.Dialect, c))}
		opt.keys = true
		if c.Continuation != "" {
			if opt.after, err = decodeContinuation(c.Continuation, cont.fingerprint(), cont.n); err != nil {
				return nil, err
			}
		}
	}
	if c.Distinct {
		if res, err := db.distinctWalk(ctx, handle, sc, c, opt); err != nil || res != nil {
			return res, err
		}
	}
	walks, err := db.walksCommonComms(ctx, handle, sc, c, &opt)
	if err != nil {
		return nil, err
	}
	if walks {
		res, err := db.boundedWalk(ctx, handle, sc, c, opt, cont)
		if err != nil || res != nil {
			return res, err
		}
		if opt, err = db.fromCommMatches(ctx, handle, sc, c, opt); err != nil {
			return nil, err
		}
	}
	q := db.searchStatement(sc, c, opt)
	q.generic = db.Dialect.genericPlansValue != "" && genericPlanned(sc, c) // only an engine that caches plans asks
	return db.runSearch(ctx, handle, "person search", q, &c.BaseCriteria, cont)
}

// searchStatement is the statement a person search runs: buildSearch's,
// in the deep page form where it applies (search_deep.go). The
// continuation's fingerprint builds the search anew, without the form:
// the same search either way.
func (db *DB) searchStatement(sc wayfarer.Scope, c *wayfarer.SearchCriteria, opt searchOptions) searchQuery {
	q := db.buildSearch(sc, c, opt)
	if opt.walkTo != nil { // the rows only: a count counts every match
		q.rows.Where = append(append([]Expr{}, q.rows.Where...), E(searchOrder(db.Dialect, c)[0]+" <= ?", opt.walkTo))
	}
	if db.deepPage(c, q.rows) {
		q.rows = deepPageRows(db.Dialect, q.rows, searchOrder(db.Dialect, c)[personKeys:])
	}
	return q
}

// continuationKeys are what a page of a continued search (a person search
// with a continuation, search_keyset.go) reads beyond its columns: n order
// keys per row, and the search's fingerprint the continuation is bound to.
type continuationKeys struct {
	// fingerprint builds the search once more without its paging, at
	// most once: only to read a continuation or to write one for a full
	// page.
	fingerprint func() [16]byte
	n           int
}

// pastTopRows is the empty answer of a page that starts at or past topRows.
func pastTopRows(c *wayfarer.BaseCriteria) *wayfarer.SearchResult {
	if c.TopRows <= 0 || c.StartingRow < c.TopRows {
		return nil
	}
	res := &wayfarer.SearchResult{Columns: c.Columns, Total: -1}
	if c.HasColumn("summaryCount") {
		res.Total = 0 // no row to carry it
	}
	return res
}

// runSearch runs a search's statement (prepared once, through the
// statement cache) and, when summaryCount is asked, its count in the same
// snapshot, filling summaryCount in every row. ctx is already bounded.
// With cont, each row also reads its order keys, and a full page answers
// the continuation after its last row. Without a count, on an engine with
// a read pipeline (PostgreSQL), the transaction, its settings and the
// statement go as one round trip (searchPipelined).
func (db *DB) runSearch(ctx context.Context, handle *sql.DB, what string, q searchQuery, c *wayfarer.BaseCriteria, cont *continuationKeys) (*wayfarer.SearchResult, error) {
	res := &wayfarer.SearchResult{Columns: c.Columns, Total: -1}
	nk := 0
	if cont != nil {
		nk = cont.n
	}
	sr := newSearchRows(c.Columns, nk, res)
	if err := db.readSearch(ctx, handle, what, q, c, sr); err != nil {
		return nil, err
	}
	if cont != nil && int64(len(res.Rows)) == c.RowCount {
		res.Continuation = encodeContinuation(cont.fingerprint(), sr.keys())
	}
	return res, nil
}

// readSearch reads the statement's rows, and its count when summaryCount
// is asked, into sr (runSearch).
func (db *DB) readSearch(ctx context.Context, handle *sql.DB, what string, q searchQuery, c *wayfarer.BaseCriteria, sr *searchRows) error {
	query, args := q.rows.Build(db.Dialect)
	if !c.HasColumn("summaryCount") && db.readPipeline != nil && db.Dialect.requestSettings != "" {
		if err := db.searchPipelined(ctx, handle, query, args, q.generic, sr); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	}
	return db.searchInTx(ctx, handle, what, query, args, q, c, sr)
}

// searchRows turns a search's answer into rows of its columns, keeping the
// order keys of the last row read (a continuation's, after the columns),
// and passing each row's keys to eachKeys where set (search_distinct.go).
type searchRows struct {
	cols      []wayfarer.SearchColumn
	raw, dest []any
	res       *wayfarer.SearchResult
	eachKeys  func(keys []any)
}

func newSearchRows(cols []wayfarer.SearchColumn, keys int, res *wayfarer.SearchResult) *searchRows {
	sr := &searchRows{cols: cols, raw: make([]any, len(cols)+keys), res: res}
	sr.dest = make([]any, len(sr.raw))
	for i := range sr.raw {
		sr.dest[i] = &sr.raw[i]
	}
	return sr
}

// add reads one row.
func (sr *searchRows) add(r RowScanner) error {
	if err := r.Scan(sr.dest...); err != nil {
		return err
	}
	row := make(wayfarer.SearchRow, len(sr.cols))
	for i, col := range sr.cols {
		v, err := searchValue(col, sr.raw[i])
		if err != nil {
			return fmt.Errorf("column %s: %w", col.Name, err)
		}
		row[i] = v
	}
	sr.res.Rows = append(sr.res.Rows, row)
	if sr.eachKeys != nil {
		sr.eachKeys(sr.keys())
	}
	return nil
}

// keys are the order keys of the last row read.
func (sr *searchRows) keys() []any { return sr.raw[len(sr.cols):] }

// searchPipelined runs the statement in a read-only transaction with the
// search's settings (the request's, and its plans: pgSearchPlans), sent
// together with BEGIN and COMMIT (readSteps): one round trip instead of
// three (BENCHMARKS.md).
func (db *DB) searchPipelined(ctx context.Context, handle *sql.DB, query string, args []any, generic bool, sr *searchRows) error {
	steps := make([]ReadStep, 0, 2)
	if plans := db.searchPlansFor(generic); plans != "" {
		steps = append(steps, db.searchPlansStep(plans))
	}
	steps = append(steps, ReadStep{SQL: query, Args: args, Row: sr.add})
	return db.readSteps(ctx, handle, steps)
}

// searchInTx runs the statement through the statement cache, in a
// read-only transaction with the request's settings where the engine has
// any or a count is asked (one snapshot for the rows and their count).
func (db *DB) searchInTx(ctx context.Context, handle *sql.DB, what, query string, args []any, q searchQuery, c *wayfarer.BaseCriteria, sr *searchRows) error {
	st, release, err := preparedStmts.get(ctx, handle, query)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer release()
	needCount := c.HasColumn("summaryCount")
	var tx *sql.Tx
	if needCount || db.Dialect.requestSettings != "" {
		opts := &sql.TxOptions{ReadOnly: true, Isolation: db.Dialect.snapshot}
		ctx := db.withSearchSettings(ctx, q.generic)
		if tx, err = handle.BeginTx(ctx, opts); err != nil {
			return err
		}
		defer tx.Rollback()
		if err := db.limitTx(ctx, tx); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		st = tx.StmtContext(ctx, st)
	}
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := sr.add(rows); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	rows.Close()
	res := sr.res
	if needCount && len(res.Rows) > 0 {
		cq := db.Dialect.Rebind(q.count.SQL)
		if err := tx.QueryRowContext(ctx, cq, q.count.Args...).Scan(&res.Total); err != nil {
			return fmt.Errorf("%s count: %w", what, err)
		}
		if c.TopRows > 0 && res.Total > c.TopRows {
			res.Total = c.TopRows
		}
		idx := 0
		for i, col := range c.Columns {
			if col.Name == "summaryCount" {
				idx = i
			}
		}
		for _, r := range res.Rows {
			r[idx] = res.Total
		}
	}
	return nil
}
