package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Table aliases of the search query: p person, pcl/c card link and card,
// pt/t person tag and tag, ai/au action item and its user, b branch, adv
// advisor profile. Correlated subqueries use their own aliases.

// searchColumnSQL is the SQL expression of each column. summaryCount has
// none: it is counted separately and filled in.
func searchColumnSQL(d Dialect, name string) string {
	switch name {
	case "recNo":
		return "p.rec_no"
	case "tagRecNo":
		return "t.rec_no"
	case "tagName":
		return "t.name"
	case "tagValue":
		return "pt.value"
	case "tags":
		return "(SELECT string_agg(t2.name || CASE WHEN pt2.value IS NULL OR pt2.value = '' THEN '' ELSE '=' || pt2.value END, '; ' ORDER BY " +
			d.Fold("t2.name") + ", pt2.rec_no) FROM person_tag pt2 JOIN tag t2 ON t2.agency_id = pt2.agency_id AND t2.rec_no = pt2.tag_id" +
			" WHERE pt2.agency_id = p.agency_id AND pt2.person_id = p.rec_no)"
	case "createDateTime":
		return "p.create_date_time"
	case "lastModifiedDateTime":
		return "p.last_modified_date_time"
	case "name":
		return "CASE WHEN COALESCE(p.last_name, '') = '' AND COALESCE(p.first_name, '') = '' AND COALESCE(p.middle_name, '') = '' THEN NULL" +
			" ELSE COALESCE(p.last_name, '') || '/' || COALESCE(p.first_name, '') ||" +
			" CASE WHEN COALESCE(p.middle_name, '') = '' THEN '' WHEN COALESCE(p.first_name, '') = '' THEN p.middle_name ELSE ' ' || p.middle_name END END"
	case "uniqueId":
		return "p.unique_id"
	case "firstName":
		return "p.first_name"
	case "middleName":
		return "p.middle_name"
	case "lastName":
		return "p.last_name"
	case "primaryPhone":
		return primaryCommSQL(d, "value", 1)
	case "primaryPhoneMarketingPermission":
		return primaryCommSQL(d, "permit_marketing", 1)
	case "primaryEmail":
		return primaryCommSQL(d, "value", 2)
	case "primaryEmailMarketingPermission":
		return primaryCommSQL(d, "permit_marketing", 2)
	case "birthdayDay":
		return "p.birthday_day"
	case "birthdayMonth":
		return "p.birthday_month"
	case "birthdayYear":
		return "p.birthday_year"
	case "birthdayNote":
		return "p.birthday_note"
	case "remarks":
		return "p.remarks"
	case "cardType":
		return "c.type"
	case "cardSubType":
		return "c.sub_type"
	case "cardNumber":
		return "c.card_number"
	case "cardExpDate":
		return "c.expiration_date"
	case "cardDescription":
		return "c.description"
	case "cardRecNo":
		return "c.rec_no"
	case "nameOnCard":
		return "c.name_on_card"
	case "branchRecNo":
		return "p.branch_id"
	case "branchRecName":
		return "b.name"
	case "advisorProfileRecNo":
		return "p.advisor_profile_id"
	case "advisorProfileName":
		return "adv.name"
	case "activeStatus":
		return "p.active_status"
	case "actionRecNo":
		return "ai.rec_no"
	case "actionItemTriggerIndex":
		return "ai.trigger_index"
	case "actionItemDate":
		return "ai.action_date"
	case "actionItemTriggerFixedDate":
		return "ai.trigger_fixed_date"
	case "actionItemDescription":
		return "ai.description"
	case "actionItemCompleted":
		return "ai.completed"
	case "actionItemAssignedToAppUserRecNo":
		return "ai.app_user_id"
	case "actionItemAssignedToAppUserId":
		return "au.user_name"
	case "associatedProfileNames":
		return "(SELECT string_agg(pr.name, '; ' ORDER BY " + d.Fold("pr.name") + ", pr.rec_no) FROM profile_person pp" +
			" JOIN profile pr ON pr.agency_id = pp.agency_id AND pr.rec_no = pp.profile_id" +
			" WHERE pp.agency_id = p.agency_id AND pp.person_id = p.rec_no)"
	}
	return ""
}

// primaryCommSQL reads a field of the person's primary communication of a
// type: the first (lowest recNo) one marked primary.
func primaryCommSQL(d Dialect, field string, typ int) string {
	return "(SELECT cm." + field + " FROM communication cm WHERE cm.agency_id = p.agency_id AND cm.person_id = p.rec_no" +
		" AND cm.type = " + strconv.Itoa(typ) + " AND cm.is_primary = " + d.BoolLit(true) + " ORDER BY cm.rec_no LIMIT 1)"
}

// StringCond is a StringSearchParam on a text column (see
// wayfarer.StringParam for the semantics: negative conditions are the
// complement of the positive ones, nulls included).
func StringCond(d Dialect, col string, p wayfarer.StringParam) Expr {
	pos, neg := p.Cond.Negated()
	var e Expr
	switch pos {
	case wayfarer.StrIgnore:
		return Expr{}
	case wayfarer.StrBlank:
		e = E("(" + col + " IS NULL OR " + col + " = '')")
		if neg {
			return E("(" + col + " IS NOT NULL AND " + col + " <> '')")
		}
		return e
	case wayfarer.StrEqual, wayfarer.StrIn:
		e = FoldEquals(d, col, p.Values)
	case wayfarer.StrStartingWith:
		var es []Expr
		for _, v := range p.Values {
			es = append(es, FoldPrefix(d, col, v))
		}
		e = Or(es...)
	case wayfarer.StrContains:
		var es []Expr
		for _, v := range p.Values {
			es = append(es, FoldContains(col, v))
		}
		e = Or(es...)
	default:
		panic("sqlstore: unknown string condition " + strconv.Itoa(int(p.Cond)))
	}
	if neg {
		return Or(E(col+" IS NULL"), Not(e))
	}
	return e
}

// NumCond is a NumSearchParam on a numeric column.
func NumCond(col string, p wayfarer.NumParam) Expr {
	switch p.Cond {
	case wayfarer.NumEqual:
		return In(col, p.Values)
	case wayfarer.NumNotEqual:
		return Or(E(col+" IS NULL"), Not(In(col, p.Values)))
	case wayfarer.NumBlank:
		return E(col + " IS NULL")
	case wayfarer.NumNotBlank:
		return E(col + " IS NOT NULL")
	}
	return Expr{}
}

// DateCond bounds a DATE column by an inclusive range of days. Comparing
// with "YYYY-MM-DD" and the day after works whether a date is stored as a
// date, as that text, or as a timestamp text starting with it.
func DateCond(col string, r wayfarer.DateRange) Expr {
	var es []Expr
	if r.From != "" {
		es = append(es, E(col+" >= ?", r.From))
	}
	if r.To != "" {
		t, err := time.Parse(time.DateOnly, r.To)
		if err == nil {
			es = append(es, E(col+" < ?", t.AddDate(0, 0, 1).Format(time.DateOnly)))
		}
	}
	return join(" AND ", es)
}

// TimeCond bounds a timestamp column by a half-open range.
func TimeCond(col string, r wayfarer.TimeRange) Expr {
	var es []Expr
	if r.From != nil {
		es = append(es, E(col+" >= ?", r.From.UTC()))
	}
	if r.Before != nil {
		es = append(es, E(col+" < ?", r.Before.UTC()))
	}
	return join(" AND ", es)
}

// birthdayCond is the birthday range; see wayfarer.BirthdayRange.
func birthdayCond(b wayfarer.BirthdayRange) Expr {
	wrapped := func(col string, lo, hi int) Expr {
		if lo <= hi {
			return E(col+" BETWEEN ? AND ?", lo, hi)
		}
		return E("("+col+" >= ? OR "+col+" <= ?)", lo, hi)
	}
	switch {
	case !b.Active():
		return Expr{}
	case b.HasMonths() && b.HasDays():
		ml, mh := b.Months()
		kl, kh := b.Keys()
		// The months alone let an index on (month, day) narrow the scan.
		// Whether they wrap follows the dates: (2, 14) to (2, 6) is all
		// of the year but a week, every month included.
		months := E("p.birthday_month BETWEEN ? AND ?", ml, mh)
		if kl > kh {
			months = E("(p.birthday_month >= ? OR p.birthday_month <= ?)", ml, mh)
		}
		return And(months, E("p.birthday_day IS NOT NULL"), wrapped("(p.birthday_month * 100 + p.birthday_day)", kl, kh))
	case b.HasMonths():
		ml, mh := b.Months()
		return wrapped("p.birthday_month", ml, mh)
	default:
		dl, dh := b.Days()
		return wrapped("p.birthday_day", dl, dh)
	}
}

func cardConds(d Dialect, c *wayfarer.SearchCriteria) []Expr {
	var es []Expr
	if len(c.CardType) > 0 {
		es = append(es, In("c.type", c.CardType))
	}
	es = append(es, NumCond("c.sub_type", c.CardSubType), DateCond("c.expiration_date", c.CardExpiration))
	return es
}

func actionItemConds(d Dialect, c *wayfarer.SearchCriteria) []Expr {
	var es []Expr
	if c.ActionItemCompleted != nil {
		if *c.ActionItemCompleted {
			es = append(es, E("ai.completed IS NOT NULL"))
		} else {
			es = append(es, E("ai.completed IS NULL"))
		}
	}
	es = append(es, DateCond("ai.action_date", c.ActionItemDate), NumCond("ai.app_user_id", c.ActionItemAssignedTo))
	return es
}

func commConds(d Dialect, c *wayfarer.SearchCriteria) []Expr {
	var es []Expr
	if len(c.CommType) > 0 {
		es = append(es, In("cm.type", c.CommType))
	}
	return append(es, StringCond(d, "cm.value", c.CommValue), StringCond(d, "cm.country_domain", c.CommValueCountryDomain),
		StringCond(d, "cm.city_area", c.CommValueCityArea), StringCond(d, "cm.user_specific", c.CommValueUserSpecific))
}

const (
	cardJoin     = "person_card_link pcl JOIN card c ON c.agency_id = pcl.agency_id AND c.rec_no = pcl.card_id"
	cardJoinOn   = "pcl.agency_id = p.agency_id AND pcl.person_id = p.rec_no"
	tagJoin      = "person_tag pt JOIN tag t ON t.agency_id = pt.agency_id AND t.rec_no = pt.tag_id"
	tagJoinOn    = "pt.agency_id = p.agency_id AND pt.person_id = p.rec_no"
	actionItemOn = "ai.agency_id = p.agency_id AND ai.person_id = p.rec_no"
)

// searchOptions are choices made before building the statement.
type searchOptions struct {
	// commMatch is an FTS5 query for communication_trigram (SQLite) whose
	// few matches hold every communication that can pass the commValue
	// filter; empty: test the communications person by person.
	commMatch string
	// few holds the keys of the child filters (childFilter.key) that few
	// rows pass: they run in the IN form.
	few map[string]bool
}

// searchWhere is every condition on the persons: agency, scope, filters.
func searchWhere(d Dialect, sc wayfarer.Scope, c *wayfarer.SearchCriteria, opt searchOptions) []Expr {
	w := []Expr{E("p.agency_id = ?", sc.AgencyID)}
	if sc.OnlySelf {
		w = append(w, In("p.advisor_profile_id", sc.AdvisorIDs)) // no advisors: false
	}
	if sc.OnlyBranch {
		if sc.BranchID == nil {
			w = append(w, exprFalse)
		} else {
			w = append(w, E("p.branch_id = ?", *sc.BranchID))
		}
	}
	w = append(w,
		NumCond("p.rec_no", c.RecNo),
		StringCond(d, "p.last_name", c.LastName),
		StringCond(d, "p.first_name", c.FirstName),
		StringCond(d, "p.middle_name", c.MiddleName),
		NumCond("p.advisor_profile_id", c.AdvisorProfileRecNo),
		NumCond("p.birthday_month", c.BirthdayMonth),
		birthdayCond(c.Birthday),
		TimeCond("p.create_date_time", c.Created),
		TimeCond("p.last_modified_date_time", c.Modified),
	)
	if c.UniqueID != "" {
		w = append(w, E("p.unique_id = ?", c.UniqueID))
	}
	if len(c.ActiveStatus) > 0 {
		w = append(w, In("p.active_status", c.ActiveStatus))
	}
	permit := func(v *bool, typ int) {
		if v == nil {
			return
		}
		sub := primaryCommSQL(d, "permit_marketing", typ)
		if *v {
			w = append(w, E(sub+" = "+d.BoolLit(true)))
		} else {
			w = append(w, E("COALESCE("+sub+", "+d.BoolLit(false)+") = "+d.BoolLit(false)))
		}
	}
	permit(c.EmailPermitMarketing, 2)
	permit(c.PhonePermitMarketing, 1)
	if c.FiltersComms() && opt.commMatch != "" {
		// Few candidates in the trigram index: start from them. The
		// subquery is uncorrelated, so it runs once.
		conds := And(commConds(d, c)...)
		w = append(w, Expr{SQL: "p.rec_no IN (SELECT cm.person_id FROM communication cm WHERE cm.agency_id = ? AND " +
			"cm.rec_no IN (SELECT rowid FROM communication_trigram WHERE communication_trigram MATCH ?) AND " + conds.SQL + ")",
			Args: append([]any{sc.AgencyID, opt.commMatch}, conds.Args...)})
	}
	if c.ProfileRecNo.Active() {
		const from = "EXISTS (SELECT 1 FROM profile_person pp WHERE pp.agency_id = p.agency_id AND pp.person_id = p.rec_no"
		switch c.ProfileRecNo.Cond {
		case wayfarer.NumNotEqual:
			w = append(w, Wrap("NOT "+from+" AND ", In("pp.profile_id", c.ProfileRecNo.Values), ")"))
		case wayfarer.NumBlank:
			w = append(w, E("NOT "+from+")"))
		case wayfarer.NumNotBlank:
			w = append(w, E(from+")"))
		}
	}
	for _, f := range childFilters(d, c, opt) {
		w = append(w, f.cond(sc.AgencyID, opt.few[f.key]))
	}
	return w
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
}

// childFilters are the filters on child rows that can run in either form.
// Those of a shown group are enforced by the join; they are listed for the
// IN form only, which lets a search of few matches start from them.
func childFilters(d Dialect, c *wayfarer.SearchCriteria, opt searchOptions) []childFilter {
	var fs []childFilter
	if c.FiltersComms() && opt.commMatch == "" {
		fs = append(fs, childFilter{key: "comm", from: "communication cm", agency: "cm.agency_id", person: "cm.person_id",
			conds: commConds(d, c)})
	}
	if c.FiltersCards() {
		fs = append(fs, childFilter{key: "card", from: cardJoin, agency: "pcl.agency_id", person: "pcl.person_id",
			conds: cardConds(d, c), sizeFrom: "card c", sizeAgency: "c.agency_id", joined: c.ShowsGroup(wayfarer.GroupCard)})
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
			conds: es, negated: !m.Checked})
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
			conds: es, negated: !tg.Checked})
	}
	return fs
}

// cond is the filter's condition on p, in the IN form when few rows pass.
func (f childFilter) cond(agencyID int64, few bool) Expr {
	switch {
	case few:
		return Wrap("p.rec_no IN (SELECT "+f.person+" FROM "+f.from+" WHERE ", f.where(f.agency, agencyID), ")")
	case f.joined:
		return Expr{}
	}
	prefix := "EXISTS (SELECT 1 FROM " + f.from + " WHERE " + f.agency + " = p.agency_id AND " + f.person + " = p.rec_no AND "
	if f.negated {
		prefix = "NOT " + prefix
	}
	return Wrap(prefix, And(f.conds...), ")")
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
	return join("", []Expr{E("SELECT count(*) FROM (SELECT 1 FROM " + from + " WHERE "), f.where(agency, agencyID), E(" LIMIT ?)", limit)})
}

// searchJoins joins the shown child groups and the lookups.
func searchJoins(d Dialect, c *wayfarer.SearchCriteria) []Expr {
	var js []Expr
	if c.ShowsGroup(wayfarer.GroupCard) {
		if c.FiltersCards() {
			js = append(js, Wrap("JOIN person_card_link pcl ON "+cardJoinOn+" JOIN card c ON c.agency_id = pcl.agency_id AND c.rec_no = pcl.card_id AND ",
				And(cardConds(d, c)...), ""))
		} else {
			js = append(js, E("LEFT JOIN ("+cardJoin+") ON "+cardJoinOn))
		}
	}
	if c.ShowsGroup(wayfarer.GroupTag) {
		js = append(js, E("LEFT JOIN ("+tagJoin+") ON "+tagJoinOn))
	}
	if c.ShowsGroup(wayfarer.GroupActionItem) {
		if c.FiltersActionItems() {
			js = append(js, Wrap("JOIN person_action_item ai ON "+actionItemOn+" AND ", And(actionItemConds(d, c)...), ""))
		} else {
			js = append(js, E("LEFT JOIN person_action_item ai ON "+actionItemOn))
		}
	}
	if c.SkipLookup {
		return js
	}
	if c.HasColumn("branchRecName") {
		js = append(js, E("LEFT JOIN branch b ON b.agency_id = p.agency_id AND b.rec_no = p.branch_id"))
	}
	if c.HasColumn("advisorProfileName") {
		js = append(js, E("LEFT JOIN profile adv ON adv.agency_id = p.agency_id AND adv.rec_no = p.advisor_profile_id"))
	}
	if c.HasColumn("actionItemAssignedToAppUserId") {
		js = append(js, E("LEFT JOIN app_user au ON au.agency_id = ai.agency_id AND au.rec_no = ai.app_user_id"))
	}
	return js
}

// searchOrder is the stable order: name (last, first, case-insensitive),
// recNo, then the shown children by recNo. Nulls sort first on both engines
// (ascending order's default on SQLite), so the ORDER BY adds NullsFirst to
// every key but recNo, which is never null and matches the indexes as is.
func searchOrder(d Dialect, c *wayfarer.SearchCriteria) []string {
	keys := []string{d.Fold("p.last_name"), d.Fold("p.first_name"), "p.rec_no"}
	if c.ShowsGroup(wayfarer.GroupCard) {
		keys = append(keys, "c.rec_no")
	}
	if c.ShowsGroup(wayfarer.GroupTag) {
		keys = append(keys, "pt.rec_no")
	}
	if c.ShowsGroup(wayfarer.GroupActionItem) {
		keys = append(keys, "ai.rec_no")
	}
	return keys
}

func orderKey(d Dialect, key string) string {
	if key == "p.rec_no" {
		return key
	}
	return key + d.NullsFirst()
}

// searchQuery is the query for the search's rows and, when distinct, the
// grouped form. The selected expressions are named s0, s1, ... in
// c.Columns order (summaryCount selects a NULL placeholder).
type searchQuery struct {
	rows  Select
	count Expr
}

func (db *DB) buildSearch(sc wayfarer.Scope, c *wayfarer.SearchCriteria, opt searchOptions) searchQuery {
	d := db.Dialect
	var cols []Expr
	for i, col := range c.Columns {
		expr := searchColumnSQL(d, col.Name)
		if expr == "" || (col.Lookup && c.SkipLookup) {
			expr = "NULL"
		}
		cols = append(cols, E(expr+" AS s"+strconv.Itoa(i)))
	}
	base := Select{
		Columns: cols,
		From:    E("person p"),
		Joins:   searchJoins(d, c),
		Where:   searchWhere(d, sc, c, opt),
	}
	order := searchOrder(d, c)

	// Paging: topRows caps the whole result, startingRow and rowCount pick
	// the page within it.
	var limit *int64
	if c.TopRows > 0 {
		l := max(c.TopRows-c.StartingRow, 0)
		limit = &l
	}
	if c.RowCount > 0 && (limit == nil || c.RowCount < *limit) {
		l := c.RowCount
		limit = &l
	}

	if !c.Distinct {
		rows := base
		for _, k := range order {
			rows.OrderBy = append(rows.OrderBy, E(orderKey(d, k)))
		}
		rows.Limit, rows.Offset = limit, c.StartingRow
		cnt := base
		cnt.Columns = []Expr{E("COUNT(*)")}
		return searchQuery{rows: rows, count: cnt.Expr()}
	}

	// distinct: group the rows on every shown column; order the groups by
	// their first person and then by the columns, so the order is total.
	inner := base
	var outerCols, group, outerOrder []Expr
	for i, k := range order {
		inner.Columns = append(inner.Columns, E(k+" AS k"+strconv.Itoa(i)))
		outerOrder = append(outerOrder, E("MIN(k"+strconv.Itoa(i)+")"+d.NullsFirst()))
	}
	for i, col := range c.Columns {
		s := "s" + strconv.Itoa(i)
		outerCols = append(outerCols, E(s))
		group = append(group, E(s))
		if col.Type == wayfarer.ColString {
			s += d.codePoints
		}
		outerOrder = append(outerOrder, E(s+d.NullsFirst()))
	}
	sub := Wrap("(", inner.Expr(), ") q")
	rows := Select{Columns: outerCols, From: sub, GroupBy: group, OrderBy: outerOrder, Limit: limit, Offset: c.StartingRow}
	cnt := Select{Columns: []Expr{E("COUNT(*)")},
		From: Wrap("(", (&Select{Columns: outerCols, From: sub, GroupBy: group}).Expr(), ") g")}
	return searchQuery{rows: rows, count: cnt.Expr()}
}

// SearchPersons runs a person search within the scope.
func (db *DB) SearchPersons(ctx context.Context, sc wayfarer.Scope, c *wayfarer.SearchCriteria) (*wayfarer.SearchResult, error) {
	res := &wayfarer.SearchResult{Columns: c.Columns, Total: -1}
	if c.TopRows > 0 && c.StartingRow >= c.TopRows {
		if c.HasColumn("summaryCount") {
			res.Total = 0 // no row to carry it
		}
		return res, nil
	}
	handle := db.Reader(c.ReadOnlyIntent)
	opt, err := db.searchOptions(ctx, handle, sc, c)
	if err != nil {
		return nil, err
	}
	q := db.buildSearch(sc, c, opt)
	needCount := c.HasColumn("summaryCount")
	query, args := q.rows.Build(db.Dialect)
	st, release, err := preparedStmts.get(ctx, handle, query)
	if err != nil {
		return nil, fmt.Errorf("person search: %w", err)
	}
	defer release()
	var tx *sql.Tx
	if needCount {
		// One snapshot for the rows and their count.
		opts := &sql.TxOptions{ReadOnly: true, Isolation: db.Dialect.snapshot}
		if tx, err = handle.BeginTx(ctx, opts); err != nil {
			return nil, err
		}
		defer tx.Rollback()
		st = tx.StmtContext(ctx, st)
	}
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("person search: %w", err)
	}
	defer rows.Close()
	n := len(c.Columns)
	raw := make([]any, n)
	dest := make([]any, n)
	for i := range raw {
		dest[i] = &raw[i]
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, fmt.Errorf("person search: %w", err)
		}
		row := make(wayfarer.SearchRow, n)
		for i, col := range c.Columns {
			v, err := searchValue(col, raw[i])
			if err != nil {
				return nil, fmt.Errorf("person search: column %s: %w", col.Name, err)
			}
			row[i] = v
		}
		res.Rows = append(res.Rows, row)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("person search: %w", err)
	}
	rows.Close()
	if needCount && len(res.Rows) > 0 {
		cq := db.Dialect.Rebind(q.count.SQL)
		if err := tx.QueryRowContext(ctx, cq, q.count.Args...).Scan(&res.Total); err != nil {
			return nil, fmt.Errorf("person search count: %w", err)
		}
		if c.TopRows > 0 && res.Total > c.TopRows {
			res.Total = c.TopRows
		}
		idx := 0
		for i, col := range c.Columns {
			if col.Name == "summaryCount" {
				idx = i
			}
		}
		for _, r := range res.Rows {
			r[idx] = res.Total
		}
	}
	return res, nil
}

// searchValue converts a scanned value to the column's wire type.
func searchValue(col wayfarer.SearchColumn, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	if b, ok := v.([]byte); ok {
		v = string(b)
	}
	switch col.Type {
	case wayfarer.ColLong, wayfarer.ColInt, wayfarer.ColShort:
		switch x := v.(type) {
		case int64:
			return x, nil
		case int32:
			return int64(x), nil
		case string:
			return strconv.ParseInt(x, 10, 64)
		}
	case wayfarer.ColBool:
		switch x := v.(type) {
		case bool:
			return x, nil
		case int64:
			return x != 0, nil
		}
	case wayfarer.ColString:
		if s, ok := v.(string); ok {
			return s, nil
		}
		return fmt.Sprint(v), nil
	case wayfarer.ColDate:
		switch x := v.(type) {
		case time.Time:
			return x.Format(time.DateOnly), nil
		case string:
			if len(x) >= 10 {
				return x[:10], nil
			}
			return x, nil
		}
	case wayfarer.ColDateTimeOffset:
		switch x := v.(type) {
		case time.Time:
			return x.UTC(), nil
		case string:
			for _, l := range []string{"2006-01-02 15:04:05.999999999-07:00", time.RFC3339Nano, "2006-01-02 15:04:05.999999999"} {
				if t, err := time.Parse(l, x); err == nil {
					return t.UTC(), nil
				}
			}
		}
	}
	return nil, fmt.Errorf("unexpected %T", v)
}

// trigramLimit is the most candidate communications for which a search
// starts from the trigram index. Beyond it the matches are common, and
// walking the persons in result order finds a page of them sooner.
const trigramLimit = 2000

// childProbeLimit is the most rows a child filter may pass to run in the
// IN form (childFilter). Listing and sorting persons costs about 10 µs each
// on SQLite; beyond a few thousand, walking the persons in result order finds
// a page sooner. A variable so that tests can move it.
var childProbeLimit = 2000

// searchOptions sizes up, on SQLite, what the indexes offer: the trigram
// candidates of a positive commValue filter, and the rows passing each child
// filter. PostgreSQL plans both itself (its semi-joins start from the
// smaller side), so there the statement keeps its EXISTS form.
func (db *DB) searchOptions(ctx context.Context, handle *sql.DB, sc wayfarer.Scope, c *wayfarer.SearchCriteria) (searchOptions, error) {
	var opt searchOptions
	if db.Dialect.probeTrigrams {
		match, err := db.probeTrigrams(ctx, handle, c)
		if err != nil {
			return opt, err
		}
		opt.commMatch = match
	}
	if db.Dialect.probeChildren {
		for _, f := range childFilters(db.Dialect, c, opt) {
			if f.negated {
				continue
			}
			few, err := db.fewChildren(ctx, handle, f, sc.AgencyID)
			if err != nil {
				return opt, err
			}
			if few {
				if opt.few == nil {
					opt.few = map[string]bool{}
				}
				opt.few[f.key] = true
			}
		}
	}
	return opt, nil
}

// fewChildren reports whether at most childProbeLimit rows pass f. The
// count stops at the limit, so a broad filter answers after that many rows.
func (db *DB) fewChildren(ctx context.Context, handle *sql.DB, f childFilter, agencyID int64) (bool, error) {
	q := f.probe(agencyID, childProbeLimit+1)
	st, release, err := db.prepared(ctx, handle, q.SQL)
	if err != nil {
		return false, fmt.Errorf("person search: %s probe: %w", f.key, err)
	}
	defer release()
	var n int
	if err := st.QueryRowContext(ctx, q.Args...).Scan(&n); err != nil {
		return false, fmt.Errorf("person search: %s probe: %w", f.key, err)
	}
	return n <= childProbeLimit, nil
}

// probeTrigrams returns the FTS5 query of a positive commValue filter when
// the trigram index offers few candidates for it, or "".
func (db *DB) probeTrigrams(ctx context.Context, handle *sql.DB, c *wayfarer.SearchCriteria) (string, error) {
	match := trigramQuery(c.CommValue)
	if match == "" {
		return "", nil
	}
	st, release, err := db.prepared(ctx, handle, "SELECT count(*) FROM (SELECT rowid FROM communication_trigram WHERE communication_trigram MATCH ? LIMIT ?)")
	if err != nil {
		return "", fmt.Errorf("person search: trigram probe: %w", err)
	}
	defer release()
	var n int
	if err := st.QueryRowContext(ctx, match, trigramLimit+1).Scan(&n); err != nil {
		return "", fmt.Errorf("person search: trigram probe: %w", err)
	}
	if n <= trigramLimit {
		return match, nil
	}
	return "", nil
}

// trigramQuery is the FTS5 query whose matches include every value the
// parameter's positive condition accepts: each value as a quoted phrase
// (a substring to the trigram tokenizer, case folded), OR-ed. It is empty
// when the index cannot help: a negative or blank condition, or a value
// shorter than a trigram.
func trigramQuery(p wayfarer.StringParam) string {
	switch p.Cond {
	case wayfarer.StrEqual, wayfarer.StrIn, wayfarer.StrStartingWith, wayfarer.StrContains:
	default:
		return ""
	}
	var phrases []string
	for _, v := range p.Values {
		if utf8.RuneCountInString(v) < 3 {
			return ""
		}
		phrases = append(phrases, `"`+strings.ReplaceAll(v, `"`, `""`)+`"`)
	}
	return strings.Join(phrases, " OR ")
}
