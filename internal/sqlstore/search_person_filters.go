package sqlstore

import "github.com/wayfarerhq/wayfarer/internal/wayfarer"

// personFilter is a filter on the person's own columns that one of the
// person indexes serves (first name, advisor, birthday, creation and
// change times; a name's substring through the names' trigram index).
// SQLite chooses between walking the persons in name order,
// testing each, and starting from the filter's index, then sorting, by
// its statistics alone, which cannot see the values (the store drops its
// value histograms: statistics.go), and it chose wrongly both ways at a
// million persons: a creation-time range that nobody passes walked every
// person (3.4 s), and birthdayMonth 12, an index scan of 83,000 persons and
// their sort, took 268 ms where the walk finds a page in 600. So on SQLite
// such a filter is sized up first, through its index, as a child filter is:
//
//   - few persons pass it (childProbeLimit): the search starts from them,
//     p.rec_no IN (their recNos), and sorts them;
//   - more: its condition is written +(...), which no index serves, so the
//     persons are walked in name order and each is tested.
//
// PostgreSQL plans these filters with its statistics of the values; there
// the condition stays as it is.
type personFilter struct {
	key  string
	cond Expr // on the person p
	// indexed: an index can start from the condition (equality, a range,
	// a prefix, a name's substring through the trigram index); never a
	// negated one, whose probe would read every person to find nobody.
	indexed bool
	// match, when set, is an FTS5 query of person_trigram whose matches
	// hold every person that can pass (a name Contains, SQLite): sizing
	// up and the IN form read those matches (nameTrigramMatch).
	match string
}

// personFilters are the search's filters on the person's first name,
// advisor, birthday and times, and a substring of a name where the
// trigram index serves it (nameTrigramMatch; searchWhere leaves those
// names' conditions to this list).
func personFilters(d Dialect, c *wayfarer.SearchCriteria) []personFilter {
	var fs []personFilter
	add := func(key string, e Expr, indexed bool) {
		if e.SQL != "" {
			fs = append(fs, personFilter{key: "person." + key, cond: e, indexed: indexed})
		}
	}
	trigram := func(key, column string, p wayfarer.StringParam) bool {
		m := nameTrigramMatch(d, column, p)
		if m != "" {
			fs = append(fs, personFilter{key: "person." + key, cond: StringCond(d, "p."+column, p), indexed: true, match: m})
		}
		return m != ""
	}
	trigram("lastName", "last_name", c.LastName)
	trigram("middleName", "middle_name", c.MiddleName)
	if !trigram("firstName", "first_name", c.FirstName) {
		pos, neg := c.FirstName.Cond.Negated()
		add("firstName", StringCond(d, "p.first_name", c.FirstName),
			!neg && (pos == wayfarer.StrEqual || pos == wayfarer.StrIn || pos == wayfarer.StrStartingWith))
	}
	add("advisor", NumCond("p.advisor_profile_id", c.AdvisorProfileRecNo), c.AdvisorProfileRecNo.Cond != wayfarer.NumNotEqual)
	add("birthdayMonth", NumCond("p.birthday_month", c.BirthdayMonth), c.BirthdayMonth.Cond != wayfarer.NumNotEqual)
	add("birthday", birthdayCond(c.Birthday), true) // a day range alone too: SQLite skips through the months
	add("created", TimeCond("p.create_date_time", c.Created), true)
	add("modified", TimeCond("p.last_modified_date_time", c.Modified), true)
	return fs
}

// nameTrigramMatch is the FTS5 query of person_trigram (SQLite) whose
// matches hold every person passing p on the name column: a positive
// Contains of values of three characters or more. "" where the index
// cannot serve p (PostgreSQL plans its pg_trgm indexes itself): then the
// name's condition stays where it was.
func nameTrigramMatch(d Dialect, column string, p wayfarer.StringParam) string {
	if !d.probeTrigrams || p.Cond != wayfarer.StrContains {
		return ""
	}
	q := trigramQuery(p)
	if q == "" {
		return ""
	}
	return "{" + column + "} : (" + q + ")"
}

// personTrigrams is SQLite's trigram index of the persons' names
// (migration 00023), as a person filter's child form reads it. Sized up
// on its matches alone: a name's matches are its passing persons but for
// other agencies' and a fragment's trigrams apart, and reading each
// person cost a common fragment 4.4 ms against 1.1 at a million ("ann";
// too many either way, it walks as before).
var personTrigrams = trigramIndex{table: personTrigramTable,
	rows: personTrigramTable + " ct JOIN person fp ON fp.rec_no = ct.rowid", countAlone: true}

// personTrigramTable is SQLite's trigram index of the persons' names
// (migration 00023).
const personTrigramTable = "person_trigram"

// child is f as a child filter of the person on itself, for its probe and
// its IN form.
func (f personFilter) child() childFilter {
	cf := childFilter{key: f.key, from: "person fp", agency: "fp.agency_id", person: "fp.rec_no",
		conds: []Expr{{SQL: replaceAlias(f.cond.SQL, "p", "fp"), Args: f.cond.Args}}}
	if f.match != "" {
		cf.sizeMatch, cf.match = f.match, personTrigrams
	}
	return cf
}

// where is f's condition in the search: as it is where the engine plans
// it itself, else in the form its probe chose (above).
func (f personFilter) where(d Dialect, agencyID int64, opt searchOptions) Expr {
	switch {
	case !d.probeChildren || !f.indexed:
		return f.cond
	case opt.few[f.key]:
		return f.child().cond(d, agencyID, true)
	}
	return unindexed(f.cond)
}

// unindexed is e written so that no index serves it on SQLite (a unary
// plus): the rows are walked in the search's order and each is tested.
func unindexed(e Expr) Expr { return Wrap("+(", e, ")") }
