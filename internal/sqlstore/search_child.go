package sqlstore

// Filters on a person's child rows, and how SQLite sizes them up first.

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

const (
	cardOn       = "c.agency_id = pcl.agency_id AND c.rec_no = pcl.card_id"
	cardJoin     = "person_card_link pcl JOIN card c ON " + cardOn
	cardJoinOn   = "pcl.agency_id = p.agency_id AND pcl.person_id = p.rec_no"
	tagOn        = "t.agency_id = pt.agency_id AND t.rec_no = pt.tag_id"
	tagJoinOn    = "pt.agency_id = p.agency_id AND pt.person_id = p.rec_no"
	actionItemOn = "ai.agency_id = p.agency_id AND ai.person_id = p.rec_no"
)

// searchOptions are choices made before building the statement.
type searchOptions struct {
	// commCandidates is a JSON array of the rowids of communication_trigram
	// (SQLite) that hold every communication that can pass the commValue
	// filter, few of them; empty: test the communications person by person.
	commCandidates string
	// commMatch is the FTS5 query of the trigram index for the commValue
	// filter when it offered too many candidates: the filter's probe then
	// walks those candidates rather than every value of the agency.
	commMatch string
	// few holds the keys of the child filters (childFilter.key) that few
	// rows pass: they run in the IN form.
	few map[string]bool
	// leads holds, for a filter of few (few), the condition (its index in
	// childFilter.conds) that alone passes few rows: the IN form seeks by
	// it, the others tested on its rows (sizeChildFilter).
	leads map[string]int
	// keys selects the order keys after the columns (search_keyset.go);
	// after, when set, starts after the row with these keys.
	keys  bool
	after []any
	// walkTo, when set, ends the walk of a bounded walk (search_walk.go):
	// the rows statement keeps the persons whose first order key is at
	// most walkTo.
	walkTo any
	// commPersons is a JSON array of the recNos of the persons with a
	// communication passing the communication filter (PostgreSQL, after a
	// bounded walk, or a StartingWith sized up): the search starts from
	// them and does not test the filter again.
	commPersons string
	// commMany: PostgreSQL's probe (probeContains) found more than
	// trigramLimit communications passing the commValue filter.
	commMany bool
	// commGuess is the planner's guess of the communications passing the
	// commValue filter (PostgreSQL, when sized up for a bounded walk).
	commGuess float64
	// commScanned: the communication filter, which no index serves, was
	// sized up by listing its matches (scanComms): few, they are
	// commCandidates; else it is common, and not sized up again.
	commScanned bool
	// scopeSized: the caller's scope was sized up (SQLite,
	// search_scope.go): the rows statement tests it in the form chosen
	// (few[scopeFilterKey]).
	scopeSized bool
}

// fromComms is opt with the commValue filter in the IN form: the search
// starts from the communications that pass it (search_walk.go).
func (opt searchOptions) fromComms() searchOptions {
	few := map[string]bool{commFilterKey: true}
	for k, v := range opt.few {
		few[k] = v
	}
	opt.few = few
	return opt
}

// childFilter is a filter on one kind of a person's child rows: the person
// passes when one of its rows in from passes every condition (none, when
// negated). It runs in one of two forms, as searchOptions decides:
//
//   - EXISTS, a correlated test per person: cheap when persons are walked in
//     result order and many pass, as a page then stops after a few probes.
//   - p.rec_no IN (the persons of the passing rows), computed once: cheap
//     when few rows pass, since SQLite then starts from those persons instead
//     of walking all of them (as EXISTS, a filter matching nobody took 8 s at
//     a million persons).
type childFilter struct {
	key    string // names the filter in searchOptions.few
	from   string // the child table(s), aliased
	agency string // the child's agency_id column
	person string // the child's person_id column
	conds  []Expr // on the child rows only, never on p
	// negated: NOT EXISTS, never sized up (few rows passing says nothing
	// of the persons without one).
	negated bool
	// joined: the group is shown, and its inner join already filters
	// (searchJoins).
	joined bool
	// sizeFrom and sizeAgency, when set, are the one table of from that
	// conds test, and its agency_id: sizing up counts its rows and skips
	// the join (a card belongs to one person).
	sizeFrom, sizeAgency string
	// sizeMatch, when set, is an FTS5 query of the trigram index match
	// whose matches hold every row that can pass: sizing up walks those
	// matches, not every row of the agency, which for a sparse substring
	// read far into the value index ("son": 326 ms against 3 ms), and so
	// does the IN form.
	sizeMatch string
	match     trigramIndex
	// subplan: the EXISTS form ends with OFFSET 0, which keeps PostgreSQL
	// from making it a semi-join (Dialect.subplansAfter).
	subplan bool
	// outer is the searched row's key the IN form selects by; "" is the
	// person's, p.rec_no (the search kit's tables: search_flat_indexed.go).
	outer string
	// seeks, aligned with conds where set, tells the conditions an index
	// seeks alone (sizeChildFilter).
	seeks []bool
}

// ledBy is f's conditions with every one but conds[lead] unindexed (unary
// +): SQLite then reads the rows through conds[lead]'s index.
func (f childFilter) ledBy(lead int) []Expr {
	out := make([]Expr, len(f.conds))
	for i, c := range f.conds {
		if out[i] = c; i != lead && !c.IsZero() {
			out[i] = unindexed(c)
		}
	}
	return out
}

// childFilters are the filters on child rows that can run in either form.
// Those of a shown group are enforced by the join; they are listed for the
// IN form only, which lets a search of few matches start from them.
func childFilters(d Dialect, sc wayfarer.Scope, c *wayfarer.SearchCriteria, opt searchOptions) []childFilter {
	var fs []childFilter
	if c.FiltersComms() && opt.commCandidates == "" && opt.commPersons == "" {
		// A bounded walk tests each person in name order; on PostgreSQL
		// as a subplan, or a planner that guessed few matches would start
		// from them (search_walk.go). A StartingWith is sized up and
		// listed through the value index, whose range holds exactly its
		// rows, not through its trigrams' matches: "1 5", which nobody's
		// value starts with and every phone number holds, read a million
		// matches twice (1.6 s at a million persons).
		sizeMatch := opt.commMatch
		if c.CommValue.Cond == wayfarer.StrStartingWith {
			sizeMatch = ""
		}
		fs = append(fs, childFilter{key: commFilterKey, from: "communication cm", agency: "cm.agency_id", person: "cm.person_id",
			conds: commConds(d, c), sizeMatch: sizeMatch, match: commTrigrams, subplan: opt.walkTo != nil && d.subplansAfter > 0})
	}
	if c.FiltersCards() {
		conds, seeks := cardCondsSeeking(c)
		f := childFilter{key: "card", from: cardJoin, agency: "pcl.agency_id", person: "pcl.person_id",
			conds: conds, seeks: seeks, sizeFrom: "card c", sizeAgency: "c.agency_id", joined: c.ShowsGroup(wayfarer.GroupCard)}
		if lead, ok := opt.leads[f.key]; ok {
			f.conds = f.ledBy(lead)
		}
		fs = append(fs, f)
	}
	if c.FiltersActionItems() {
		fs = append(fs, childFilter{key: "actionItem", from: "person_action_item ai", agency: "ai.agency_id", person: "ai.person_id",
			conds: actionItemConds(d, c), joined: c.ShowsGroup(wayfarer.GroupActionItem)})
	}
	if c.ProfileRecNo.Active() && c.ProfileRecNo.Cond == wayfarer.NumEqual {
		fs = append(fs, childFilter{key: "profile", from: "profile_person pp", agency: "pp.agency_id", person: "pp.person_id",
			conds: []Expr{In("pp.profile_id", c.ProfileRecNo.Values)}})
	}
	for i, m := range c.Marketing {
		a := "pm" + strconv.Itoa(i)
		var es []Expr
		if m.ElementRecNo != nil {
			es = append(es, E(a+".marketing_element_id = ?", *m.ElementRecNo))
		}
		if m.Affiliation != nil {
			es = append(es, E(a+".affiliation_id = ?", *m.Affiliation))
		}
		if m.ElementID != nil {
			me := "me" + strconv.Itoa(i)
			es = append(es, Wrap("EXISTS (SELECT 1 FROM marketing_element "+me+" WHERE "+me+".agency_id = "+a+".agency_id AND "+
				me+".rec_no = "+a+".marketing_element_id AND ", FoldEquals(d, me+".code", []string{*m.ElementID}), ")"))
		}
		fs = append(fs, childFilter{key: a, from: "person_marketing " + a, agency: a + ".agency_id", person: a + ".person_id",
			conds: es, negated: !m.Checked, subplan: d.subplansAfter > 0 && i >= d.subplansAfter})
	}
	for i, tg := range c.Tags {
		a, ta := "ptg"+strconv.Itoa(i), "tg"+strconv.Itoa(i)
		var es []Expr
		if tg.TagRecNo != nil {
			es = append(es, E(a+".tag_id = ?", *tg.TagRecNo))
		}
		if tg.TagName != nil {
			es = append(es, FoldEquals(d, ta+".name", []string{*tg.TagName}))
		}
		es = append(es, StringCond(d, a+".value", tg.Value))
		from := "person_tag " + a + " JOIN tag " + ta + " ON " + ta + ".agency_id = " + a + ".agency_id AND " + ta + ".rec_no = " + a + ".tag_id"
		fs = append(fs, childFilter{key: a, from: from, agency: a + ".agency_id", person: a + ".person_id",
			conds: es, negated: !tg.Checked, subplan: d.subplansAfter > 0 && len(c.Marketing)+i >= d.subplansAfter})
	}
	if f, ok := personActivityFilter(d, sc, c); ok {
		fs = append(fs, f)
	}
	return fs
}

// trigramIndex is a SQLite trigram index (FTS5) of a child table, as a
// childFilter with sizeMatch reads it.
type trigramIndex struct {
	table string // the FTS5 table, aliased ct in rows
	rows  string // its matches joined to the filter's from (the IN form and the sizing)
	// countAlone: sizing counts the matches alone, which hold every
	// passing row (so at most the limit of them is few), without reading
	// a row for each; else it counts rows's rows passing the filter.
	countAlone bool
}

var (
	commTrigrams = trigramIndex{table: "communication_trigram",
		rows: "communication_trigram ct JOIN communication cm ON cm.rec_no = ct.rowid"}
	activityTrigrams = trigramIndex{table: activityTrigramTable,
		rows: activityTrigramTable + " ct JOIN activity a ON a.rec_no = ct.rowid"}
)

// activityTrigramTable is SQLite's trigram index of activity subjects
// (migration 00022).
const activityTrigramTable = "activity_trigram"

// commFilterKey is the commValue/commType filter's childFilter.key.
const commFilterKey = "comm"

// cond is the filter's condition on p, in the IN form when few rows pass.
// The IN form of a filter with sizeMatch reads the trigram index's matches,
// as its probe does, not every row of the agency.
func (f childFilter) cond(d Dialect, agencyID int64, few bool) Expr {
	switch {
	case few && f.sizeMatch != "":
		return join("", []Expr{E(f.outerKey()+" IN (SELECT "+f.person+" FROM "+f.match.rows+
			" WHERE "+f.match.table+" MATCH ? AND ", f.sizeMatch), f.where(f.agency, agencyID), E(")")})
	case few:
		return Wrap(f.outerKey()+" IN (SELECT "+f.person+" FROM "+f.from+" WHERE ", f.where(f.agency, agencyID), ")")
	case f.joined:
		return Expr{}
	}
	prefix := "EXISTS (SELECT 1 FROM " + f.from + " WHERE " + f.agency + " = p.agency_id AND " + f.person + " = p.rec_no AND "
	if f.negated {
		prefix = "NOT " + prefix
	}
	suffix := d.perPersonExists + ")"
	if f.subplan {
		suffix = " OFFSET 0)"
	}
	return Wrap(prefix, And(f.conds...), suffix)
}

// outerKey is the searched row's key the IN form selects by.
func (f childFilter) outerKey() string {
	if f.outer == "" {
		return "p.rec_no"
	}
	return f.outer
}

// where selects the passing rows of the agency (its agency_id column
// given), whoever their person.
func (f childFilter) where(agency string, agencyID int64) Expr {
	return And(append([]Expr{E(agency+" = ?", agencyID)}, f.conds...)...)
}

// probe counts the passing rows, up to limit: through an index on the
// conditions, a few thousand entries at most.
func (f childFilter) probe(agencyID int64, limit int) Expr {
	from, agency := f.from, f.agency
	if f.sizeFrom != "" {
		from, agency = f.sizeFrom, f.sizeAgency
	}
	if f.sizeMatch != "" && f.match.countAlone {
		return E("SELECT count(*) FROM (SELECT 1 FROM "+f.match.table+" WHERE "+f.match.table+" MATCH ? LIMIT ?)", f.sizeMatch, limit)
	}
	if f.sizeMatch != "" {
		return join("", []Expr{E("SELECT count(*) FROM (SELECT 1 FROM "+f.match.rows+
			" WHERE "+f.match.table+" MATCH ? AND ", f.sizeMatch), f.where(agency, agencyID), E(" LIMIT ?)", limit)})
	}
	return join("", []Expr{E("SELECT count(*) FROM (SELECT 1 FROM " + from + " WHERE "), f.where(agency, agencyID), E(" LIMIT ?)", limit)})
}

// probeTrigrams returns the FTS5 query of a positive commValue filter
// ("" when the index cannot help) and the communications it offers as
// candidates, as a JSON array of their rowids, when there are at most
// trigramLimit of them; else "". The search
// then starts from exactly these rows (json_each) instead of asking the
// index a second time: at a million persons each ask cost 2-9 ms. Its
// filter on the value still runs, on the rows as the search reads them.
func (db *DB) probeTrigrams(ctx context.Context, handle *sql.DB, c *wayfarer.SearchCriteria) (match, candidates string, err error) {
	match = trigramQuery(c.CommValue)
	if match == "" {
		return "", "", nil
	}
	list := db.newCandidateList()
	q := E("SELECT rowid FROM communication_trigram WHERE communication_trigram MATCH ? LIMIT ?", match, list.limit+1)
	if err := db.collect(ctx, handle, q, list); err != nil {
		return match, "", fmt.Errorf("person search: trigram probe: %w", err)
	}
	return match, list.json(), nil
}

// collect adds the ids q selects (its first column) to list, until the
// list is full.
func (db *DB) collect(ctx context.Context, handle *sql.DB, q Expr, list *candidateList) error {
	st, release, err := db.prepared(ctx, handle, q.SQL)
	if err != nil {
		return err
	}
	defer release()
	rows, err := st.QueryContext(ctx, q.Args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() && !list.full() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return err
		}
		list.add(id)
	}
	return rows.Err()
}

// candidateList collects ids up to a limit (a probe's: trigramLimit, or
// the DB's override in tests) as a JSON array.
type candidateList struct {
	ids   []byte
	n     int
	limit int
}

// newCandidateList is an empty list of a probe's size.
func (db *DB) newCandidateList() *candidateList {
	limit := trigramLimit
	if n := db.trigramLimit.Load(); n != nil {
		limit = *n
	}
	return newCandidateList(limit)
}

// newCandidateList is an empty list of at most limit ids.
func newCandidateList(limit int) *candidateList {
	return &candidateList{ids: []byte{'['}, limit: limit}
}

// add appends id; past the limit the list is full and keeps nothing more.
func (l *candidateList) add(id int64) {
	if l.n++; l.n > l.limit {
		return
	}
	if l.n > 1 {
		l.ids = append(l.ids, ',')
	}
	l.ids = strconv.AppendInt(l.ids, id, 10)
}

// full reports whether more ids came than the limit.
func (l *candidateList) full() bool { return l.n > l.limit }

// json is the ids as a JSON array, "" when there were too many.
func (l *candidateList) json() string {
	if l.full() {
		return ""
	}
	return string(append(l.ids, ']'))
}

// trigramQuery is the FTS5 query whose matches include every value the
// parameter's positive condition accepts: for each value (OR-ed), its
// first, middle and last trigram (AND-ed). A value holds all of its
// trigrams, so the three are a superset of the matches; the search's own
// test on the value picks the matches from them. Three trigrams, not the
// value as a phrase of all of them: the index reads a doclist per trigram,
// and at a million persons the phrase "ryan.jensen" (nine trigrams) took
// 4-9 ms where its three took 1.6-3.1 ms for the same 125 rows. It is
// empty when the index cannot help: a negative or blank condition, or a
// value shorter than a trigram; and for whole values (Equal), which the
// value index finds at once where the trigrams of an e-mail address took
// 26 ms at a million persons ("com" is in every one).
func trigramQuery(p wayfarer.StringParam) string {
	switch p.Cond {
	case wayfarer.StrStartingWith, wayfarer.StrContains:
	default:
		return ""
	}
	var alts []string
	for _, v := range p.Values {
		r := []rune(v)
		if len(r) < 3 {
			return ""
		}
		var terms []string
		last := -1
		for _, at := range []int{0, (len(r) - 3) / 2, len(r) - 3} {
			if at == last {
				continue
			}
			last = at
			terms = append(terms, `"`+strings.ReplaceAll(string(r[at:at+3]), `"`, `""`)+`"`)
		}
		alts = append(alts, "("+strings.Join(terms, " AND ")+")")
	}
	return strings.Join(alts, " OR ")
}
