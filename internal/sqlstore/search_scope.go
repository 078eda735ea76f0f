package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// The caller's scope in a person search (OnlySelf: its advisors' persons;
// OnlyBranch: its branch's) is a filter SQLite plans by its statistics
// alone, which know only the average advisor and branch, and it chose
// wrongly both ways at a million persons (four advisors): asked for one
// or two rows, an agent's search took the advisors' index and sorted
// every person of them (0.24–0.3 s against 2 ms walking the name index,
// which holds the advisor and the branch), and an agent with ten persons
// walked the whole name index for a page of 50 (90 ms against a sort of
// ten). With more advisors its statistics make it sort even for a page of
// 50: at a tenth of the persons per advisor, a hundred thousand persons
// for every page.
//
// So on SQLite the rows statement sizes up the scope as a person filter
// (search_person_filters.go): a scope of few persons (childProbeLimit)
// starts from them, p.rec_no IN (their recNos), and sorts them; a larger
// one is tested on each person of the walk in name order, from the name
// index. A count and a distinct search's grouping, which read every row
// in no order, keep the engine's choice. A scope's size changes slowly
// and its probe reads up to childProbeLimit persons (a few ms), so the
// answer is kept per scope for scopeSizeTTL: it chooses the statement's
// form, never its rows. PostgreSQL plans the scope with its statistics of
// the values.

// scopeFilterKey names the scope in searchOptions.few.
const scopeFilterKey = "person.scope"

// scopeSizeTTL is how long a scope's size is kept; scopeSizesMax bounds
// how many are (past it they are all dropped: one per scope in use).
const (
	scopeSizeTTL  = time.Minute
	scopeSizesMax = 4096
)

// scopeSizes holds the scopes' sizes (scopeFew).
type scopeSizes struct {
	mu sync.Mutex
	m  map[string]scopeSize
}

type scopeSize struct {
	few   bool
	until time.Time
}

// scopeFilter is the caller's scope as a person filter on p, of n
// conditions (searchWhere's, after the agency's); n is 0 where the caller
// sees the whole agency.
func scopeFilter(sc wayfarer.Scope) (f personFilter, n int) {
	conds := scopeConds(sc, "p.branch_id", "p.advisor_profile_id")
	return personFilter{key: scopeFilterKey, cond: And(conds...), indexed: true}, len(conds)
}

// scopeFew reports whether few persons are in scope sc (its probe, kept
// for scopeSizeTTL).
func (db *DB) scopeFew(ctx context.Context, handle *sql.DB, sc wayfarer.Scope, f personFilter) (bool, error) {
	branch := int64(-1)
	if sc.BranchID != nil {
		branch = *sc.BranchID
	}
	key := fmt.Sprint(sc.AgencyID, sc.OnlySelf, sc.AdvisorIDs, sc.OnlyBranch, branch, db.childLimit())
	now := time.Now()
	db.scopes.mu.Lock()
	s, ok := db.scopes.m[key]
	db.scopes.mu.Unlock()
	if ok && now.Before(s.until) {
		return s.few, nil
	}
	few, err := db.fewChildren(ctx, handle, f.child(), sc.AgencyID, db.childLimit())
	if err != nil {
		return false, err
	}
	db.scopes.mu.Lock()
	if db.scopes.m == nil || len(db.scopes.m) >= scopeSizesMax {
		db.scopes.m = map[string]scopeSize{}
	}
	db.scopes.m[key] = scopeSize{few: few, until: now.Add(scopeSizeTTL)}
	db.scopes.mu.Unlock()
	return few, nil
}

// sizeScope sizes up the caller's scope into opt (SQLite; above).
func (db *DB) sizeScope(ctx context.Context, handle *sql.DB, sc wayfarer.Scope, opt *searchOptions) error {
	if !db.Dialect.probeChildren {
		return nil
	}
	f, n := scopeFilter(sc)
	if n == 0 {
		return nil
	}
	few, err := db.scopeFew(ctx, handle, sc, f)
	if err != nil {
		return err
	}
	opt.scopeSized = true
	if few {
		if opt.few == nil {
			opt.few = map[string]bool{}
		}
		opt.few[scopeFilterKey] = true
	}
	return nil
}

// sizedScope is where, the rows statement's conditions (searchWhere's: the
// scope's after the agency's), with the sized-up scope in the form its
// size chose: few persons, the IN form; more, each condition apart with
// its column unindexed (written as one +(a AND b) it took an agent's
// offsets a fifth longer). There an advisor filter narrows the scope's
// advisors to those it names, as SQLite did itself from the plain
// conditions: one outside them passes nobody at once, not at the walk's
// end.
func sizedScope(d Dialect, sc wayfarer.Scope, c *wayfarer.SearchCriteria, opt searchOptions, where []Expr) []Expr {
	f, n := scopeFilter(sc)
	var form Expr
	if opt.few[scopeFilterKey] {
		form = f.child().cond(d, sc.AgencyID, true)
	} else {
		walked := sc
		if c.AdvisorProfileRecNo.Cond == wayfarer.NumEqual {
			walked.AdvisorIDs = slices.DeleteFunc(slices.Clone(sc.AdvisorIDs), func(id int64) bool {
				return !slices.Contains(c.AdvisorProfileRecNo.Values, id)
			})
		}
		form = And(scopeConds(walked, "+p.branch_id", "+p.advisor_profile_id")...)
	}
	return slices.Concat(where[:1], []Expr{form}, where[1+n:])
}
