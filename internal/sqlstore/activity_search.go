package sqlstore

// The activity search (search kit: search_flat.go) and the activity filter
// of the person search (personActivitySearchParams): one table description,
// so both read the same filters the same way.

import (
	"strings"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// activityTable reads activities as alias a; its filters refer to a alone,
// so that the person search can use them inside its own statement.
var activityTable = &flatTable{
	From: "activity a", Alias: "a",
	Joins: []string{
		"LEFT JOIN app_user u ON u.agency_id = a.agency_id AND u.rec_no = a.app_user_id",
		"LEFT JOIN person pn ON pn.agency_id = a.agency_id AND pn.rec_no = a.person_id",
	},
	Columns: map[string]string{
		"recNo": "a.rec_no",
		"tags": "(SELECT string_agg(t2.name || CASE WHEN at2.value IS NULL OR at2.value = '' THEN '' ELSE '=' || at2.value END, '; '" +
			" ORDER BY lower(t2.name), at2.rec_no) FROM activity_tag at2 JOIN tag t2 ON t2.agency_id = at2.agency_id AND t2.rec_no = at2.tag_id" +
			" WHERE at2.agency_id = a.agency_id AND at2.activity_id = a.rec_no)",
		"createDateTime":       "a.create_date_time",
		"lastModifiedDateTime": "a.last_modified_date_time",
		"type":                 "a.type",
		"appUser_recNo":        "a.app_user_id",
		"appUserId":            "u.user_name",
		"subject":              "a.subject",
		"priority":             "a.priority",
		"targetDateTime":       "a.target_date_time",
		"targetDate":           "a.target_date",
		"completionDateTime":   "a.completion_date_time",
		"personRecNo":          "a.person_id",
		"personName":           replaceAlias(personNameExpr, "p", "pn"),
		"remarks":              "a.remarks",
		// Kept by the reference, not by Wayfarer (activities link to
		// persons only): always null.
		"clientProfileRecNo": "CAST(NULL AS INTEGER)", "supplierProfileRecNo": "CAST(NULL AS INTEGER)", "tripRecNo": "CAST(NULL AS INTEGER)",
	},
	Trigrams: map[string]string{"subject": activityTrigramTable},
	Domains: map[string]domainColumn{
		"type":          {"activity", "a", "type", false, nil},        // activity_type
		"appUser_recNo": {"activity", "a", "app_user_id", false, nil}, // activity_user_date
	},
	Filters: map[string]func(d Dialect, f wayfarer.SearchFilter) Expr{
		wayfarer.ActivityFilterCompleted: func(_ Dialect, f wayfarer.SearchFilter) Expr {
			if *f.Bool {
				return E("a.completion_date_time IS NOT NULL")
			}
			return E("a.completion_date_time IS NULL")
		},
		wayfarer.ActivityFilterPerson: activityPersonCond,
		wayfarer.ActivityFilterTag:    activityTagCond,
	},
	Scope: func(d Dialect, reach wayfarer.SearchReach) Expr {
		sc, _ := reach(wayfarer.AreaActivity)
		return And(activityReach(d, "a", sc)[1:]...) // the agency: the kit's
	},
	Created: "a.create_date_time", Modified: "a.last_modified_date_time",
	Order: []string{"a.rec_no"},
	// activity_user_date, activity_date, activity_date_time, activity_modified,
	// activity_created, activity_type, activity_subject (lower(subject))
	Indexed: map[string]bool{"appUser_recNo": true, "targetDate": true, "targetDateTime": true, "modifiedDateTime": true,
		"createDateTime": true, "type": true, "subject": true},
}

// personNameExpr is the person search's name column over alias p.
var personNameExpr = searchColumnSQL(Dialect{}, "name")

func init() { registerFlatTable(wayfarer.ActivitySearchCatalog.Name, activityTable) }

// activityTagCond is one TagsSearchParams entry on the activity's tags.
func activityTagCond(d Dialect, f wayfarer.SearchFilter) Expr {
	tg := f.Tag
	es := []Expr{E("atf.tag_id = ?", *tg.TagRecNo)}
	if tg.TagName != nil {
		es = append(es, FoldEquals(d, "tgf.name", []string{*tg.TagName}))
	}
	es = append(es, StringCond(d, "atf.value", tg.Value))
	has := linkedRows(d, "a", "activity_tag atf JOIN tag tgf ON tgf.agency_id = atf.agency_id AND tgf.rec_no = atf.tag_id",
		"atf", "activity_id", And(es...))
	if !tg.Checked {
		return Not(has)
	}
	return has
}

// activityPersonCond is the personRecNo filter of the activity search, on
// the activity's one linked person (none: null), as on any number column:
// NotEqual passes an activity without a link.
func activityPersonCond(_ Dialect, f wayfarer.SearchFilter) Expr {
	return NumCond("a.person_id", f.Num)
}

// linkedRows is "row alias has a row of from (link: its alias, whose
// column col holds alias's rec_no) passing cond", in the form the dialect
// starts from (Dialect.linkedIn), correlated on the agency alone (IN) or
// also on the row (EXISTS). The link's column is never null, so NOT of
// either is the row without such a link. Without cond every link would
// pass, and the IN form would list every link of the agency (SQLite at
// 800,000 activities, "linked to any person" when a link table held the
// person: 168 ms, its negation past the 5 s limit): EXISTS tests each row
// by the link's key instead.
func linkedRows(d Dialect, alias, from, link, col string, cond Expr) Expr {
	where := E(link + ".agency_id = " + alias + ".agency_id")
	if d.linkedIn && cond.SQL != "" {
		return Wrap(alias+".rec_no IN (SELECT "+link+"."+col+" FROM "+from+" WHERE ", And(where, cond), ")")
	}
	return Wrap("EXISTS (SELECT 1 FROM "+from+" WHERE ", And(where, E(link+"."+col+" = "+alias+".rec_no"), cond), ")")
}

// personActivityFilter is personActivitySearchParams as a filter on the
// person's child rows (search_child.go): a link to an activity in the
// caller's reach that passes every activity filter. Sized up on SQLite like
// the others, so that "my open tasks due this week" starts from those few
// activities (index activity_user_date) instead of walking every person.
// The activity's person is the searched person, so the person scope sc
// holds for it (linkedActivityReach).
func personActivityFilter(d Dialect, sc wayfarer.Scope, c *wayfarer.SearchCriteria) (childFilter, bool) {
	a := c.PersonActivity
	if a == nil {
		return childFilter{}, false
	}
	// The activity's agency too (the link's is the filter's): a constant on
	// a lets SQLite start from the activity indexes.
	conds := linkedActivityReach(d, "a", c.ActivityScope, &sc)
	conds = append(conds, NumCond("a.rec_no", a.RecNo), TimeCond("a.create_date_time", a.Created), TimeCond("a.last_modified_date_time", a.Modified))
	var match string
	for _, f := range a.Filters {
		cond, err := activityTable.filter(d, f)
		if err != nil {
			cond = exprFalse // a key the table lacks: the decoder never makes one
		}
		conds = append(conds, cond)
		// Contains only: StartingWith seeks the folded subject's index.
		if f.Key == "subject" && f.Str.Cond == wayfarer.StrContains && match == "" && d.probeTrigrams {
			match = trigramQuery(f.Str) // SQLite's activity_trigram
		}
	}
	return childFilter{key: "activity", from: "activity a", agency: "a.agency_id", person: "a.person_id", conds: nonZero(conds),
		// Sized up on the activities alone (every condition is on a): at
		// most one person each, so no more persons than activities pass.
		sizeFrom: "activity a", sizeAgency: "a.agency_id",
		// A subject fragment: sized up, and when few pass listed, from
		// the trigram index's matches.
		sizeMatch: match, match: activityTrigrams}, true
}

// replaceAlias rewrites the table alias from in an SQL text to to: every
// "from." not preceded by a letter, digit, underscore or dot.
func replaceAlias(sqlText, from, to string) string {
	pat := from + "."
	var b []byte
	for i := 0; i < len(sqlText); i++ {
		if aliasAt(sqlText, i, pat) {
			b = append(b, to...)
			b = append(b, '.')
			i += len(pat) - 1
			continue
		}
		b = append(b, sqlText[i])
	}
	return string(b)
}

// aliasAt reports whether sqlText holds pat (an alias and its dot) at i,
// not preceded by a letter, digit, underscore or dot.
func aliasAt(sqlText string, i int, pat string) bool {
	return strings.HasPrefix(sqlText[i:], pat) && (i == 0 || !aliasChar(sqlText[i-1]))
}

func aliasChar(c byte) bool {
	return c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
