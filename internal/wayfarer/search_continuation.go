package wayfarer

// A search's continuation (docs/search.md, "Walking every person"): an
// opaque value a full page of a paged search answers beside its rows (the
// HTTP layer puts it in a header), which the next request of the same
// search sends back to start after that page's last row. The store makes
// and reads it; the core only says when it may be used.

// InvalidContinuation is the answer to a continuation the store cannot use.
func InvalidContinuation(reason string) error {
	return searchValueError("continuation", "%s", reason)
}

// Continues reports whether c may carry or answer a continuation: a page
// (rowCount) of a search without distinct, topRows and reportFormat.
func (c *SearchCriteria) Continues() bool {
	return c.RowCount > 0 && c.TopRows == 0 && !c.Distinct && !c.ReportFormat
}

// checkContinuation refuses a continuation where it cannot apply.
func checkContinuation(c *SearchCriteria) error {
	if c.Continuation == "" {
		return nil
	}
	if len(c.Continuation) > 2048 {
		return InvalidContinuation("not a continuation this server gave")
	}
	if c.StartingRow > 0 {
		return InvalidContinuation("a continuation replaces startingRow; send one or the other")
	}
	if !c.Continues() {
		return InvalidContinuation("only a page (rowCount) of a search without distinct, topRows and reportFormat continues")
	}
	return nil
}
