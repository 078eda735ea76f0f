package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// A bounded walk: a person search on SQLite whose commValue filter passes
// many communications (more than childProbeLimit) walks the persons in
// name order and tests each one's communications, which finds a page soon
// when the matches are spread over the alphabet ("son": 500 persons tested
// for 50). When they gather late in it, the walk tests most of the table
// first: "jensen" is mostly the Jensens' e-mail addresses, and the walk
// tested 380,000 persons (0.8-1.1 s at a million) before the first;
// "smith" took 1.6-5 s. Starting from the matching communications instead
// costs about 4 µs each (jensen's 12,808: 54 ms), too much for a common
// fragment whose page the walk finds at once ("john": 15 ms walked, 89 ms
// from its 23,036 matches).
//
// So such a search first walks at most walkBudget persons, rounded up to
// the end of the last name it stops in: its statement plus "first order
// key <= the key of the walkBudget-th person". A full page from that walk
// is the page: every person before its last row was tested. Otherwise the
// search runs again starting from the matching communications (the
// filter's IN form through the trigram index): a late fragment costs the
// bounded walk (30-40 ms) and its matches, not the table.
//
// Walked as before, unbounded: a search shown with a child group or
// distinct (its rows are not persons), or without a page size. Started
// from the matches at once: a page past the budget (startingRow + rowCount
// > walkBudget), or a walk that would meet persons without a last name
// (their key is null, which "<=" cannot bound). Finding the walk's end
// tests the search's other conditions on up to walkBudget persons; when
// fewer pass them, the plain walk runs after it, over those only.
// PostgreSQL plans the filter from its statistics as a semi-join, starting
// from the matches when it expects few (docs/search.md).
const walkBudget = 10000

// WalkOutcome is how a bounded walk ended (tests observe it).
type WalkOutcome string

const (
	WalkPage     WalkOutcome = "page"     // the walk found the page
	WalkAll      WalkOutcome = "all"      // fewer persons than the budget: walked them all
	WalkShort    WalkOutcome = "short"    // no full page: from the matches
	WalkPastPage WalkOutcome = "pastPage" // the page lies past the budget: from the matches
	WalkNulls    WalkOutcome = "nulls"    // persons without a last name: from the matches
)

func (db *DB) sawWalk(o WalkOutcome) {
	if f := db.walkSeen.Load(); f != nil {
		(*f)(o)
	}
}

// walksCommonComms reports whether search c, with the options sized up,
// would walk the persons testing a commValue filter that the trigram index
// finds many communications for: the bounded walk's case.
func (db *DB) walksCommonComms(c *wayfarer.SearchCriteria, opt searchOptions) bool {
	return db.Dialect.probeChildren && opt.commMatch != "" && opt.commCandidates == "" && !opt.few[commFilterKey] &&
		!c.Distinct && !c.ShowsGroup(wayfarer.GroupCard) && !c.ShowsGroup(wayfarer.GroupTag) && !c.ShowsGroup(wayfarer.GroupActionItem) &&
		pageLimit(&c.BaseCriteria) != nil
}

// boundedWalk runs search c as a bounded walk (see above): its answer, or
// nil when the search must start from the matching communications.
func (db *DB) boundedWalk(ctx context.Context, handle *sql.DB, sc wayfarer.Scope, c *wayfarer.SearchCriteria, opt searchOptions, cont *continuationKeys) (*wayfarer.SearchResult, error) {
	budget := int64(walkBudget)
	if n := db.walkBudget.Load(); n != nil {
		budget = *n
	}
	limit := *pageLimit(&c.BaseCriteria)
	if c.StartingRow+limit > budget {
		db.sawWalk(WalkPastPage)
		return nil, nil
	}
	end, found, err := db.walkEnd(ctx, handle, sc, c, opt, budget)
	switch {
	case err != nil:
		return nil, err
	case !found: // fewer persons left than the budget: the walk is bounded
		db.sawWalk(WalkAll)
		return db.runSearch(ctx, handle, "person search", db.searchStatement(sc, c, opt), &c.BaseCriteria, cont)
	case end == nil:
		db.sawWalk(WalkNulls)
		return nil, nil
	}
	opt.walkTo = end
	res, err := db.runSearch(ctx, handle, "person search", db.searchStatement(sc, c, opt), &c.BaseCriteria, cont)
	if err != nil {
		return nil, err
	}
	if int64(len(res.Rows)) < limit {
		db.sawWalk(WalkShort)
		return nil, nil
	}
	db.sawWalk(WalkPage)
	return res, nil
}

// walkEnd is the first order key of the budget-th person the walk would
// test: of those passing the search's other conditions, in search order,
// from where the search starts (after its continuation's row). found is
// false when fewer are left. end is nil when the walk could meet a person
// without a last name (it starts at the first person, or at one without,
// and such a person passes the other conditions).
func (db *DB) walkEnd(ctx context.Context, handle *sql.DB, sc wayfarer.Scope, c *wayfarer.SearchCriteria, opt searchOptions, budget int64) (end any, found bool, err error) {
	d := db.Dialect
	others := *c
	others.CommType, others.CommValue, others.CommValueCountryDomain, others.CommValueCityArea, others.CommValueUserSpecific =
		nil, wayfarer.StringParam{}, wayfarer.StringParam{}, wayfarer.StringParam{}, wayfarer.StringParam{}
	others.TopRows, others.RowCount, others.StartingRow, others.SkipLookup = 0, 1, budget-1, true
	opt.keys = false
	sel := db.buildSearch(sc, &others, opt).rows
	first := searchOrder(d, c)[0]
	sel.Columns = []Expr{E(first)}
	if opt.after == nil || opt.after[0] == nil {
		// A person without a last name sorts first; the walk cannot be
		// bounded if it would meet one.
		nulls := sel
		nulls.Columns, nulls.OrderBy, nulls.Limit, nulls.Offset = []Expr{E("1")}, nil, nil, 0
		nulls.Where = append(append([]Expr{}, nulls.Where...), E(first+" IS NULL"))
		sel.Columns = append(sel.Columns, Wrap("EXISTS (", nulls.Expr(), ")"))
	} else {
		sel.Columns = append(sel.Columns, E(d.BoolLit(false)))
	}
	query, args := sel.Build(d)
	st, release, err := db.prepared(ctx, handle, query)
	if err != nil {
		return nil, false, fmt.Errorf("person search: walk end: %w", err)
	}
	defer release()
	var nulls bool
	switch err := st.QueryRowContext(ctx, args...).Scan(&end, &nulls); err {
	case nil:
	case sql.ErrNoRows:
		return nil, false, nil
	default:
		return nil, false, fmt.Errorf("person search: walk end: %w", err)
	}
	if nulls {
		end = nil
	}
	return normalizeKey(end), true, nil
}
