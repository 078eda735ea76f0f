package sqlstore

import "github.com/wayfarerhq/wayfarer/internal/wayfarer"

// profileSearch (docs/lookups.md) through the search kit: advisor profiles
// (type 1) and client profiles (type 2) of the profile table, numbered as
// the reference numbers them (profileType: Client 1, Advisor 3).

var profileColumns = map[string]string{
	"recNo":                "pr.rec_no",
	"createDateTime":       "pr.create_date_time",
	"lastModifiedDateTime": "pr.last_modified_date_time",
	"name":                 "pr.name",
	"profileType":          "CASE pr.type WHEN 1 THEN 3 WHEN 2 THEN 1 END",
	"clientBranchRecNo":    "CASE WHEN pr.type = 2 THEN pr.branch_id END",
	"clientBranchName":     "CASE WHEN pr.type = 2 THEN pb.name END",
	"activeStatus":         "pr.active_status",
}

// profilePersons is a profile's linked persons, for the person filters: a
// profile passes when one of its persons passes.
const profilePersons = "EXISTS (SELECT 1 FROM profile_person pp JOIN person p ON p.agency_id = pp.agency_id AND p.rec_no = pp.person_id" +
	" WHERE pp.agency_id = pr.agency_id AND pp.profile_id = pr.rec_no AND "

func profilePersonFilter(col string) func(Dialect, wayfarer.SearchFilter) Expr {
	return func(d Dialect, f wayfarer.SearchFilter) Expr { return Wrap(profilePersons, FilterCond(d, col, f), ")") }
}

var profileFilters = map[string]func(Dialect, wayfarer.SearchFilter) Expr{
	"personRecNo":     profilePersonFilter("p.rec_no"),
	"personFirstName": profilePersonFilter("p.first_name"),
	"personLastName":  profilePersonFilter("p.last_name"),
	// Wayfarer keeps no tags on profiles: a profile has none of them.
	"tags": func(_ Dialect, f wayfarer.SearchFilter) Expr {
		if f.Bool != nil && *f.Bool {
			return exprFalse
		}
		return Expr{}
	},
}

// profileScope: each kind the session may select, within its reach in
// that kind's area. OnlySelf keeps the session's own advisors, and the
// client profiles linked to a person one of them advises.
func profileScope(_ Dialect, reach wayfarer.SearchReach) Expr {
	var kinds []Expr
	if sc, ok := reach(wayfarer.AreaAdvisorProfile); ok {
		conds := append([]Expr{E("pr.type = ?", wayfarer.ProfileAdvisor)}, scopeConds(sc, "pr.branch_id", "pr.rec_no")...)
		kinds = append(kinds, And(conds...))
	}
	if sc, ok := reach(wayfarer.AreaClientProfile); ok {
		conds := append([]Expr{E("pr.type = ?", wayfarer.ProfileClient)}, scopeConds(sc, "pr.branch_id", "")...)
		if sc.OnlySelf {
			conds = append(conds, Wrap(profilePersons, In("p.advisor_profile_id", sc.AdvisorIDs), ")"))
		}
		kinds = append(kinds, And(conds...))
	}
	return Or(kinds...)
}

func init() {
	registerFlatTable(wayfarer.ProfileSearchCatalog.Name, &flatTable{
		From: "profile pr", Alias: "pr",
		Joins:   []string{"LEFT JOIN branch pb ON pb.agency_id = pr.agency_id AND pb.rec_no = pr.branch_id"},
		Columns: profileColumns, Filters: profileFilters, Scope: profileScope,
		Created: "pr.create_date_time", Modified: "pr.last_modified_date_time",
		Order: []string{"lower(pr.name)", "pr.rec_no"},
	})
}
