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
	q := db.buildSearch(sc, c, opt)
	query, args := q.rows.Build(db.Dialect)
	return query, args, nil
}

// SetChildProbeLimitForTest moves the limit under which a child filter runs
// in the IN form, until the returned function puts it back.
func SetChildProbeLimitForTest(n int) (restore func()) {
	old := childProbeLimit
	childProbeLimit = n
	return func() { childProbeLimit = old }
}
