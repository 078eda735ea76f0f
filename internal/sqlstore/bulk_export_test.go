package sqlstore

// SetTrigramBuiltForTest has f run whenever a bulk load's scratch build of
// the trigram index ends, before its copy is taken.
func SetTrigramBuiltForTest(f func()) (restore func()) {
	old := trigramBuilt
	trigramBuilt = f
	return func() { trigramBuilt = old }
}
