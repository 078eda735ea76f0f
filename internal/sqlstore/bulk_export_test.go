package sqlstore

import "context"

// SetTrigramBuiltForTest has f run whenever a bulk load's scratch build of
// the trigram index ends, before its copy is taken.
func SetTrigramBuiltForTest(f func()) (restore func()) {
	old := trigramBuilt
	trigramBuilt = f
	return func() { trigramBuilt = old }
}

// DeferIndexesForTest drops what a bulk load builds afterwards, as a load
// that deferred its indexes does first.
func DeferIndexesForTest(db *DB) error {
	return deferIndexes(context.Background(), db.primary, db.Dialect)
}
