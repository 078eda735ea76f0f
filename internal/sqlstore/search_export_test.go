package sqlstore

import "wayfarer/internal/wayfarer"

// BuildSearchForTest exposes the rendered search statement to the tests.
func BuildSearchForTest(db *DB, sc wayfarer.Scope, c *wayfarer.SearchCriteria) (string, []any) {
	q := db.buildSearch(sc, c, searchOptions{})
	return q.rows.Build(db.Dialect)
}
