package sqlstore

import (
	"context"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// BuildSearchForTest exposes the rendered search statement to the tests.
func BuildSearchForTest(db *DB, sc wayfarer.Scope, c *wayfarer.SearchCriteria) (string, []any) {
	q := db.buildSearch(sc, c, searchOptions{})
	return q.rows.Build(db.Dialect)
}

// SearchSQLForTest is the statement SearchPersons would run, the probes'
// choices included.
func SearchSQLForTest(ctx context.Context, db *DB, sc wayfarer.Scope, c *wayfarer.SearchCriteria) (string, []any, error) {
	opt, err := db.searchOptions(ctx, db.Primary(), sc, c)
	if err != nil {
		return "", nil, err
	}
	q := db.searchStatement(sc, c, opt)
	query, args := q.rows.Build(db.Dialect)
	return query, args, nil
}

// SetChildProbeLimitForTest moves, for db only, the limit under which a
// child filter runs in the IN form.
func SetChildProbeLimitForTest(db *DB, n int) (restore func()) {
	old := db.probeLimit.Swap(&n)
	return func() { db.probeLimit.Store(old) }
}

// SetDistinctWalkForTest moves, for db only, the most rows a distinct
// search walks before it groups them all (0: it always groups).
func SetDistinctWalkForTest(db *DB, n int64) (restore func()) {
	old := db.distinctRows.Swap(&n)
	return func() { db.distinctRows.Store(old) }
}

// DistinctWalkedForTest is how many distinct searches of db a walk of
// their rows answered (the others grouped them all).
func DistinctWalkedForTest(db *DB) int64 { return db.distinctWalked.Load() }

// DistinctReadForTest is how many rows the walks of db's distinct searches
// read.
func DistinctReadForTest(db *DB) int64 { return db.distinctRead.Load() }

// SetTrigramLimitForTest moves, for db only, the most trigram candidates a
// search starts from.
func SetTrigramLimitForTest(db *DB, n int) (restore func()) {
	old := db.trigramLimit.Swap(&n)
	return func() { db.trigramLimit.Store(old) }
}

// SettingsForTest is ctx carrying the settings of a request's transaction:
// kind "search" a search's planned for its values, "generic" one planned
// once (genericPlanned), "" any other request's.
func SettingsForTest(db *DB, ctx context.Context, kind string) context.Context {
	if kind != "" {
		return db.withSearchSettings(ctx, kind == "generic")
	}
	return db.withRequestSettings(ctx)
}

// GenericPlannedForTest reports whether person search c within sc is
// planned once (genericPlanned).
func GenericPlannedForTest(sc wayfarer.Scope, c *wayfarer.SearchCriteria) bool {
	return genericPlanned(sc, c)
}

// ReadStepsForTest runs steps as one read on the primary (readSteps).
func ReadStepsForTest(ctx context.Context, db *DB, steps []ReadStep) error {
	return db.readSteps(ctx, db.primary, steps)
}

// SetAfterPipelinedCommitForTest runs fn once the COMMIT sent with a save's
// last write was answered (PostgreSQL), before database/sql ends its side.
func SetAfterPipelinedCommitForTest(fn func()) (restore func()) {
	old := afterPipelinedCommit
	afterPipelinedCommit = fn
	return func() { afterPipelinedCommit = old }
}

// SetDeepPageFromForTest moves, for db only, the startingRow from which a
// person search takes the deep page form.
func SetDeepPageFromForTest(db *DB, n int64) (restore func()) {
	old := db.deepPageFrom.Swap(&n)
	return func() { db.deepPageFrom.Store(old) }
}

// SetWalkBudgetForTest moves, for db only, the most persons a bounded walk
// tests (search_walk.go), and calls seen (if not nil) with how each one
// ended. On PostgreSQL every search with a Contains of trigram pieces then
// walks, whatever the planner's guess.
func SetWalkBudgetForTest(db *DB, n int64, seen func(WalkOutcome)) (restore func()) {
	old := db.walkBudget.Swap(&n)
	restoreSeen := SetWalkObserverForTest(db, seen)
	return func() { db.walkBudget.Store(old); restoreSeen() }
}

// SetWalkObserverForTest calls seen (if not nil) with how each bounded
// walk on db ends.
func SetWalkObserverForTest(db *DB, seen func(WalkOutcome)) (restore func()) {
	var see *func(WalkOutcome)
	if seen != nil {
		see = &seen
	}
	old := db.walkSeen.Swap(see)
	return func() { db.walkSeen.Store(old) }
}

// SetCommListLimitForTest moves, for db only, the most matching
// communications a search starts from after a bounded walk.
func SetCommListLimitForTest(db *DB, n int) (restore func()) {
	old := db.commListLimit.Swap(&n)
	return func() { db.commListLimit.Store(old) }
}

// ExplainSearchForTest is SQLite's plan (EXPLAIN QUERY PLAN, one detail
// line each) of the statement SearchPersons would run.
func ExplainSearchForTest(ctx context.Context, db *DB, sc wayfarer.Scope, c *wayfarer.SearchCriteria) ([]string, error) {
	q, args, err := SearchSQLForTest(ctx, db, sc, c)
	if err != nil {
		return nil, err
	}
	rows, err := db.primary.QueryContext(ctx, "EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, notUsed int64
		var detail string
		if err := rows.Scan(&id, &parent, &notUsed, &detail); err != nil {
			return nil, err
		}
		plan = append(plan, detail)
	}
	return plan, rows.Err()
}

// FlatSQLForTest is the statement SearchFlat would run for a search of
// catalog cat, its probes' choices included.
func FlatSQLForTest(ctx context.Context, db *DB, cat *wayfarer.SearchCatalog, reach wayfarer.SearchReach, c *wayfarer.FlatCriteria) (string, error) {
	t := flatTables[cat.Name]
	conds, err := t.conds(db.Dialect, c)
	if err != nil {
		return "", err
	}
	sc, _ := reach(cat.Areas[0])
	forms, err := db.flatForms(ctx, db.primary, t, sc.AgencyID, conds)
	if err != nil {
		return "", err
	}
	q := t.query(db.Dialect, cat, reach, c, conds, forms)
	query, _ := q.rows.Build(db.Dialect)
	return query, nil
}
