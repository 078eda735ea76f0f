package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// A communication filter that no index serves on SQLite (a substring
// shorter than a trigram, userSpecific, a substring of a number's parts,
// a negated condition) can only be sized up by reading the agency's
// communications until enough pass. Counted as a child filter is, such a
// filter read them twice when few passed, once to count and again to list
// the persons (userSpecific "x", nobody: 1.9 s at a million persons), and
// SQLite read them in value order through the value index, where a common
// fragment's matches came late ("an": every phone number first, 749 ms
// against 13 in person order). So the probe lists the matching
// communications itself (commsToScan): few, the search starts from
// them (commCandidates, as with the trigram index's candidates); more,
// the persons are walked and each tested, as before.

// commSeeks reports whether an index can start from one of the search's
// communication conditions: a type, or a value, country domain or city
// area that is whole, a prefix or blank.
func commSeeks(c *wayfarer.SearchCriteria) bool {
	seeks := func(p wayfarer.StringParam) bool {
		pos, neg := p.Cond.Negated()
		return !neg && (pos == wayfarer.StrEqual || pos == wayfarer.StrIn || pos == wayfarer.StrStartingWith || pos == wayfarer.StrBlank)
	}
	return len(c.CommType) > 0 || seeks(c.CommValue) || seeks(c.CommValueCountryDomain) || seeks(c.CommValueCityArea)
}

// commsToScan is the communications as scanComms reads them: a filter on
// the value alone in person order (SQLite's index on agency, person and
// value holds the value); one on other columns in the table's order,
// which SQLite picks itself (the same index read each row again: 2.7 s
// against 0.8 for userSpecific at a million persons).
func commsToScan(c *wayfarer.SearchCriteria) string {
	if len(c.CommType) == 0 && !c.CommValueCountryDomain.Active() && !c.CommValueCityArea.Active() && !c.CommValueUserSpecific.Active() {
		return "communication cm INDEXED BY communication_person"
	}
	return "communication cm"
}

// scanComms lists the communications passing the search's communication
// filter, as a JSON array of their recNos, when there are at most a child
// filter's probe limit of them (childProbeLimit); else "".
func (db *DB) scanComms(ctx context.Context, handle *sql.DB, agencyID int64, c *wayfarer.SearchCriteria) (string, error) {
	list := newCandidateList(db.childLimit())
	q := join("", []Expr{E("SELECT cm.rec_no FROM " + commsToScan(c) + " WHERE "),
		And(append([]Expr{E("cm.agency_id = ?", agencyID)}, commConds(db.Dialect, c)...)...), E(" LIMIT ?", list.limit+1)})
	if err := db.collect(ctx, handle, q, list); err != nil {
		return "", fmt.Errorf("person search: communication probe: %w", err)
	}
	return list.json(), nil
}
