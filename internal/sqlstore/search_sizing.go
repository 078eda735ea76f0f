package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Sizing a search up before its statement (searchOptions): what the
// indexes offer for its filters, counted up to a bound, decides the form
// of each filter (search_child.go has the forms).

// trigramLimit is the most candidate communications for which a search
// starts from the trigram index. Beyond it the matches are common, and
// walking the persons in result order finds a page of them sooner.
const trigramLimit = 2000

// childProbeLimit is the most rows a child filter may pass to run in the
// IN form (childFilter). Listing and sorting persons costs about 10 µs each
// on SQLite; beyond a few thousand, walking the persons in result order finds
// a page sooner. A variable so that tests can move it.
var childProbeLimit = 2000

// searchOptions sizes up, on SQLite, what the indexes offer: the trigram
// candidates of a positive commValue filter, and the rows passing each child
// filter. PostgreSQL plans the child filters itself (its semi-joins start
// from the smaller side), so there the statement keeps their EXISTS form;
// only a commValue Contains is sized up first (probeContains).
func (db *DB) searchOptions(ctx context.Context, handle *sql.DB, sc wayfarer.Scope, c *wayfarer.SearchCriteria) (searchOptions, error) {
	var opt searchOptions
	if db.Dialect.sparseTrigrams {
		candidates, many, err := db.probeContains(ctx, handle, sc.AgencyID, c)
		if err != nil {
			return opt, err
		}
		opt.commCandidates, opt.commMany = candidates, many
		if opt.commPersons, err = db.probeStartingWith(ctx, handle, sc.AgencyID, c); err != nil {
			return opt, err
		}
	}
	if db.Dialect.probeTrigrams {
		match, candidates, err := db.probeTrigrams(ctx, handle, c)
		if err != nil {
			return opt, err
		}
		opt.commCandidates = candidates
		if candidates == "" {
			opt.commMatch = match
		}
	}
	if db.Dialect.probeTrigrams && c.FiltersComms() && opt.commMatch == "" && opt.commCandidates == "" && !commSeeks(c) {
		candidates, err := db.scanComms(ctx, handle, sc.AgencyID, c)
		if err != nil {
			return opt, err
		}
		opt.commCandidates, opt.commScanned = candidates, true
	}
	if err := db.sizeScope(ctx, handle, sc, &opt); err != nil {
		return opt, err
	}
	if db.Dialect.probeChildren {
		probed := childFilters(db.Dialect, sc, c, opt)
		for _, f := range personFilters(db.Dialect, c) {
			if f.indexed {
				probed = append(probed, f.child())
			}
		}
		limit := db.childLimitFor(c)
		for _, f := range probed {
			if f.negated || f.key == commFilterKey && opt.commScanned {
				continue
			}
			few, lead, err := db.sizeChildFilter(ctx, handle, f, sc.AgencyID, limit)
			if err != nil {
				return opt, err
			}
			if few {
				if opt.few == nil {
					opt.few = map[string]bool{}
				}
				opt.few[f.key] = true
				if lead >= 0 {
					if opt.leads == nil {
						opt.leads = map[string]int{}
					}
					opt.leads[f.key] = lead
				}
			}
		}
	}
	return opt, nil
}

// childLimit is childProbeLimit, or the DB's override in tests.
func (db *DB) childLimit() int {
	if n := db.probeLimit.Load(); n != nil {
		return *n
	}
	return childProbeLimit
}

// maxChildProbe bounds childLimitFor: counting a child filter's rows up to
// it costs a few milliseconds of index entries, and an answer holds at
// most 100,000 rows (wayfarer.SearchService.MaxRows).
const maxChildProbe = 100001

// childLimitFor is the most rows a child filter of search c may pass to run
// in the IN form: childLimit, or as many rows as its page reaches when
// more (a large page, or the whole answer, which the service asks for as
// 100,001 rows). A filter passing fewer persons than the page reaches
// leaves it short, so walking the persons in result order tests every one
// of them (a card filter passing 35,000 of a million persons, a whole
// answer: 4.5 s on SQLite, against 0.3 s starting from them). Not for
// distinct, whose walk reads small pages of the same statement first. A
// test's override of childLimit replaces both bounds.
func (db *DB) childLimitFor(c *wayfarer.SearchCriteria) int {
	limit := db.childLimit()
	if c.Distinct || db.probeLimit.Load() != nil {
		return limit
	}
	if l := pageLimit(&c.BaseCriteria); l != nil {
		return int(max(int64(limit), min(c.StartingRow+*l, maxChildProbe)))
	}
	return max(limit, maxChildProbe)
}

// sizeChildFilter reports whether at most limit rows pass f and, when one
// of several conditions an index seeks (f.seeks) passes so few alone, its
// index in f.conds (else -1): each such condition is sized up alone first.
// SQLite keeps no histograms (statistics.go), so for a filter of several
// conditions it picked the index by their columns' average rows: for a
// subType no card has beside an expiry from 2028 it read the expiry's
// index, half the cards, to count none (0.95 s) and again for the IN form;
// the subType's index finds none at once. The IN form then seeks by that
// condition (ledBy).
func (db *DB) sizeChildFilter(ctx context.Context, handle *sql.DB, f childFilter, agencyID int64, limit int) (few bool, lead int, err error) {
	var seeking []int
	for i, s := range f.seeks {
		if s && !f.conds[i].IsZero() {
			seeking = append(seeking, i)
		}
	}
	if len(seeking) > 1 {
		for _, i := range seeking {
			alone := f
			alone.conds = []Expr{f.conds[i]}
			if few, err := db.fewChildren(ctx, handle, alone, agencyID, limit); err != nil || few {
				return few, i, err
			}
		}
	}
	few, err = db.fewChildren(ctx, handle, f, agencyID, limit)
	return few, -1, err
}

// fewChildren reports whether at most limit rows pass f. The count stops
// at the limit, so a broad filter answers after that many rows.
func (db *DB) fewChildren(ctx context.Context, handle *sql.DB, f childFilter, agencyID int64, limit int) (bool, error) {
	q := f.probe(agencyID, limit+1)
	st, release, err := db.prepared(ctx, handle, q.SQL)
	if err != nil {
		return false, fmt.Errorf("search: %s probe: %w", f.key, err)
	}
	defer release()
	var n int
	if err := st.QueryRowContext(ctx, q.Args...).Scan(&n); err != nil {
		return false, fmt.Errorf("search: %s probe: %w", f.key, err)
	}
	return n <= limit, nil
}
