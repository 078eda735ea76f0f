package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// A bounded walk: a person search whose commValue filter passes many
// communications walks the persons in name order and tests each one's
// communications, which finds a page soon when the matches are spread over
// the alphabet ("son": 500 persons tested for 50). When they gather late
// in it, the walk tests most of the table first: "jensen" is mostly the
// Jensens' e-mail addresses, and the walk tested 380,000 persons (SQLite
// 0.8-1.1 s at a million, PostgreSQL 1.3-1.7 s) before the first; "smith"
// took 1.6-5 s. Starting from the matching communications instead costs
// about 4 µs each on SQLite (jensen's 12,808: 54 ms), too much for a
// common fragment whose page the walk finds at once ("john": 15 ms walked,
// 89 ms from its 23,036 matches).
//
// So such a search first walks at most walkBudget persons, rounded up to
// the end of the last name it stops in: its statement plus "first order
// key <= the key of the walkBudget-th person". A full page from that walk
// is the page: every person before its last row was tested. Otherwise the
// search runs again starting from the matching communications, when at
// most commListLimit pass (fromCommMatches): a late fragment costs the
// bounded walk (30-60 ms) and its matches, not the table.
//
// A search showing a child group (rows of a person's cards, tags or action
// items) walks the same way: its order starts with the person's, so its
// rows up to a person are a prefix of its rows. Walked as before,
// unbounded: a distinct search (its own walk, search_distinct.go, comes
// first; past it, every row is grouped), or one without a page size.
// Started from the matches at once: a page past the budget
// (startingRow + rowCount > walkBudget), or a walk that would meet persons
// without a last name (their key is null, which "<=" cannot bound).
// Finding the walk's end tests the search's other conditions on up to
// walkBudget persons; when fewer pass them, the plain walk runs after it,
// over those only.
//
// Which searches (walksCommonComms): on SQLite those whose filter its
// probes sized up as common. PostgreSQL's planner chooses between the
// walk and the matches from its guess of how many pass, so a search walks
// boundedly when that guess is one the planner walks for, or when the
// probe of a one-piece fragment found it common whatever the guess; the
// walk then tests the filter as a subplan, so that the planner walks.
const walkBudget = 10000

// walkEstimateFrom is the planner's guess of matching communications from
// which a PostgreSQL search walks boundedly: below it the planner starts
// from the matches (it did for "ryan.jensen", guessed 77, and for
// "jensen" when guessed 77; guessed 7,749 after another ANALYZE, it walked).
const walkEstimateFrom = 2000

// commListLimit is the most matching communications a search starts from
// after a bounded walk (at about 4 µs each on SQLite, 0.2 s; on
// PostgreSQL, which lists them first, about 400 KB of recNos).
const commListLimit = 50000

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
// would walk the persons testing a commValue filter that passes many
// communications: the bounded walk's case. SQLite sized the filter up
// (searchOptions); on PostgreSQL it is a positive Contains searched by its
// trigram pieces that the planner guesses passes walkEstimateFrom
// communications or more (it then walks the names: with a lower guess it
// starts from the matches itself), or that probeContains found common
// whatever the guess (the guess goes in opt.commGuess), or one that no
// trigram index serves.
func (db *DB) walksCommonComms(ctx context.Context, handle *sql.DB, sc wayfarer.Scope, c *wayfarer.SearchCriteria, opt *searchOptions) (bool, error) {
	if c.Distinct || pageLimit(&c.BaseCriteria) == nil || opt.commCandidates != "" {
		return false, nil
	}
	switch {
	case db.Dialect.probeChildren:
		return opt.commMatch != "" && !opt.few[commFilterKey], nil
	case db.Dialect.sparseTrigrams:
		p := c.CommValue
		if p.Cond != wayfarer.StrContains || len(p.Values) == 0 {
			return false, nil
		}
		for _, v := range p.Values {
			if len(trigramPieces(v)) == 0 {
				// No trigram index serves it (a fragment of two
				// letters): the planner's guess is a default, and with
				// a small page it walked every person for a fragment
				// nobody has ("qz", rowCount 10: past the 5 s limit at a
				// million). Bounded, the walk falls back on the list of
				// the matches (one read of the communications, 1.1 s).
				return true, nil
			}
		}
		var err error
		opt.commGuess, err = db.commEstimate(ctx, handle, sc.AgencyID, c)
		if err != nil || db.walkBudget.Load() != nil {
			return true, err // tests: every such search walks
		}
		if opt.commMany {
			// Sized up as common: the planner would start from the
			// matches if it guessed few ("john", 23,036 guessed 77: 160
			// ms that way, 31 walking).
			return opt.commGuess <= commListLimit, nil
		}
		// Guessed past commListLimit, a walk that fell short would walk
		// again: the walk as before, at once ("son" from row 9,000: 218 ms,
		// 375 with a bounded walk first).
		return opt.commGuess >= walkEstimateFrom && opt.commGuess <= commListLimit, err
	}
	return false, nil
}

// fromCommMatches is opt for search c starting from the communications
// that pass its filter, when at most commListLimit do (a page past the
// budget, or a walk that fell short): on SQLite the filter's IN form
// through the trigram index; on PostgreSQL, whose planner would walk the
// IN form as it walks EXISTS, the list of their persons. With more,
// starting from them would cost more than the walk it replaces can ("son"
// from row 9,000: 98,234 candidates), and opt is returned as it was: the
// walk as before.
func (db *DB) fromCommMatches(ctx context.Context, handle *sql.DB, sc wayfarer.Scope, c *wayfarer.SearchCriteria, opt searchOptions) (searchOptions, error) {
	list := newCandidateList(db.listLimit())
	if db.Dialect.probeChildren {
		n, err := db.countTrigramMatches(ctx, handle, opt.commMatch, list.limit+1)
		if err != nil || n > list.limit {
			return opt, err
		}
		return opt.fromComms(), nil
	}
	ids, err := db.listCommPersons(ctx, handle, sc.AgencyID, c, list)
	opt.commPersons = ids
	return opt, err
}

// listLimit is commListLimit, or the DB's override in tests.
func (db *DB) listLimit() int {
	if n := db.commListLimit.Load(); n != nil {
		return *n
	}
	return commListLimit
}

// countTrigramMatches counts the rows of SQLite's trigram index matching
// the FTS5 query match, up to limit.
func (db *DB) countTrigramMatches(ctx context.Context, handle *sql.DB, match string, limit int) (int, error) {
	st, release, err := db.prepared(ctx, handle, "SELECT count(*) FROM (SELECT 1 FROM communication_trigram WHERE communication_trigram MATCH ? LIMIT ?)")
	if err != nil {
		return 0, fmt.Errorf("person search: trigram count: %w", err)
	}
	defer release()
	var n int
	if err := st.QueryRowContext(ctx, match, limit).Scan(&n); err != nil {
		return 0, fmt.Errorf("person search: trigram count: %w", err)
	}
	return n, nil
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
	others := c.WithoutCommFilters()
	others.TopRows, others.RowCount, others.StartingRow, others.SkipLookup = 0, 1, budget-1, true
	// The persons alone, without the rows of a shown child group: the
	// budget counts persons, and the joins would cost more than the walk.
	others.Columns = slices.DeleteFunc(slices.Clone(c.Columns), func(col wayfarer.SearchColumn) bool { return col.Group != wayfarer.GroupPerson })
	if n := len(searchOrder(d, others)); len(opt.after) > n {
		opt.after = opt.after[:n] // from the continuation's person on
	}
	opt.keys = false
	sel := db.buildSearch(sc, others, opt).rows
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
	var nulls bool
	// readSteps: on PostgreSQL in a read-only transaction with the
	// request's settings, as every read of a search.
	err = db.readSteps(ctx, handle, []ReadStep{{SQL: query, Args: args, Row: func(r RowScanner) error {
		found = true
		return r.Scan(&end, &nulls)
	}}})
	if err != nil {
		return nil, false, fmt.Errorf("person search: walk end: %w", err)
	}
	if !found {
		return nil, false, nil
	}
	if nulls {
		end = nil
	}
	return normalizeKey(end), true, nil
}
