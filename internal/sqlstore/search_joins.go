package sqlstore

import "github.com/wayfarerhq/wayfarer/internal/wayfarer"

// searchJoins joins the shown child groups and the lookups. A group's two
// tables are left-joined one after the other, not as "LEFT JOIN (link JOIN
// row)": SQLite materialized that pair for the whole database, every
// card link of every agency, before the first row (a card column made a
// page of "john" take 1.6 s instead of 30 ms at a million persons). The
// rows are the same: a link's card and a person tag's tag always exist
// (foreign keys).
//
// A filter on a shown group joins it (not left-joins). SQLite then started
// from the group's rows that pass, when many pass too, and sorted them
// all: a card type shown and filtered read every card link (1.3 s at a
// million persons), an expiry from next year every such card (6.9 s, past
// the 5 s limit). When many pass (searchOptions sized them up), the join
// keeps the persons first (Dialect.orderedJoin), walked in result order
// as the EXISTS form walks them, and the page stops after a few (7 ms);
// when few pass, the IN form starts from their persons.
func searchJoins(d Dialect, c *wayfarer.SearchCriteria, opt searchOptions) []Expr {
	return append(rowJoins(d, c, opt, true), lookupJoins(c)...)
}

// rowJoins are the joins that make a person search's rows: a shown group's
// links and children (its filter's conditions on them), the card and tag
// of each link with values; without values, only what a count of the rows
// needs: an unfiltered group's links. SQLite read every link's card for
// a count of card rows (4.5 s against 1.7 at a million persons).
func rowJoins(d Dialect, c *wayfarer.SearchCriteria, opt searchOptions, values bool) []Expr {
	inner := func(key string) string {
		if d.orderedJoin != "" && !opt.few[key] {
			return d.orderedJoin
		}
		return "JOIN"
	}
	var js []Expr
	if c.ShowsGroup(wayfarer.GroupCard) {
		switch {
		case c.FiltersCards():
			j := inner("card")
			js = append(js, Wrap(j+" person_card_link pcl ON "+cardJoinOn+" "+j+" card c ON c.agency_id = pcl.agency_id AND c.rec_no = pcl.card_id AND ",
				And(cardConds(d, c)...), ""))
		case values:
			js = append(js, E("LEFT JOIN person_card_link pcl ON "+cardJoinOn+" LEFT JOIN card c ON "+cardOn))
		default:
			js = append(js, E("LEFT JOIN person_card_link pcl ON "+cardJoinOn))
		}
	}
	if c.ShowsGroup(wayfarer.GroupTag) {
		if values {
			js = append(js, E("LEFT JOIN person_tag pt ON "+tagJoinOn+" LEFT JOIN tag t ON "+tagOn))
		} else {
			js = append(js, E("LEFT JOIN person_tag pt ON "+tagJoinOn))
		}
	}
	if c.ShowsGroup(wayfarer.GroupActionItem) {
		if c.FiltersActionItems() {
			js = append(js, Wrap(inner("actionItem")+" person_action_item ai ON "+actionItemOn+" AND ", And(actionItemConds(d, c)...), ""))
		} else {
			js = append(js, E("LEFT JOIN person_action_item ai ON "+actionItemOn))
		}
	}
	return js
}

// lookupJoins are the joins of search c's lookup columns (names of
// another table's rows): none with skipLookup.
func lookupJoins(c *wayfarer.SearchCriteria) []Expr {
	var js []Expr
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
