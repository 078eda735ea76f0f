package sqlstore

import (
	"reflect"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// PostgreSQL plans a search's statement for its values on every run
// (pgSearchPlans: a search's best plan depends on them, and the generic
// plan it would switch to cannot see them), and planning was 60 % of its
// own work for a name search (BENCHMARKS.md). A search by last name alone
// has one best plan whatever the name: the name index walked from the
// prefix, in the result order, until the page is full; for it the planning
// is spent for nothing. genericPlanned names such searches, whose
// statement is then planned once per connection (Dialect.
// genericPlansValue): query a at a million persons 0.27-0.30 → 0.19-0.22
// ms direct, and 3,744-3,823 → 5,785-5,859 a second over HTTP at 16
// clients.
//
// The rule is narrow on purpose: any other filter (a first name, a
// recNo list, a child's value, a range) or a restricted scope (an agent's
// own persons: a few among many sharing the prefix, which a custom plan
// may find through the advisor's index) can make another plan the best,
// and so keeps the custom plans. Whatever the criteria gain later counts
// as such a filter: the test compares the criteria with the last name,
// the columns and the paging taken out against the zero criteria.

// genericPlanned reports whether person search c within sc has one best
// plan whatever its values: a last name (Equal or StartingWith, one
// value) is its only filter, the scope is the agency's, and it asks
// neither a count nor distinct rows.
func genericPlanned(sc wayfarer.Scope, c *wayfarer.SearchCriteria) bool {
	if sc.OnlySelf || sc.OnlyBranch || len(c.LastName.Values) != 1 ||
		(c.LastName.Cond != wayfarer.StrEqual && c.LastName.Cond != wayfarer.StrStartingWith) ||
		c.Distinct || c.HasColumn("summaryCount") || c.RecNo.Active() || c.Created.Active() || c.Modified.Active() {
		return false
	}
	rest := *c
	rest.BaseCriteria = wayfarer.BaseCriteria{} // columns, paging and format; its filters are tested above
	rest.LastName = wayfarer.StringParam{}
	rest.SkipLookup, rest.Priority, rest.Continuation = false, 0, ""
	rest.ActivityScope = wayfarer.Scope{} // the person activity filter's, nil here
	return reflect.DeepEqual(rest, wayfarer.SearchCriteria{})
}
