package sqlstore

import "github.com/wayfarerhq/wayfarer/internal/wayfarer"

// appUserSearch (docs/lookups.md) through the search kit. The columns name
// no password hash, lock, failed-login count or token: the SQL of the
// catalog's columns is all there is.

var appUserColumns = map[string]string{
	"recNo":                "au.rec_no",
	"createDateTime":       "au.create_date_time",
	"lastModifiedDateTime": "au.last_modified_date_time",
	"id":                   "au.user_name",
	"userType":             "au.type",
	"branch_recNo":         "au.branch_id",
	"branchName":           "ab.name",
	"name":                 "au.name",
	"email":                "au.email",
	"enabled":              "au.enabled",
}

// appUserAdvisors is a user's links to advisors.
const appUserAdvisors = "EXISTS (SELECT 1 FROM app_user_advisor ua WHERE ua.agency_id = au.agency_id AND ua.app_user_id = au.rec_no AND "

var appUserFilters = map[string]func(Dialect, wayfarer.SearchFilter) Expr{
	"advisorProfileRecNo": func(d Dialect, f wayfarer.SearchFilter) Expr {
		return Wrap(appUserAdvisors, FilterCond(d, "ua.profile_id", f), ")")
	},
}

// appUserScope: OnlyBranch keeps the users of the session's branch,
// OnlySelf the users linked to one of the session's advisors.
func appUserScope(_ Dialect, reach wayfarer.SearchReach) Expr {
	sc, _ := reach(wayfarer.AreaAppUser)
	conds := scopeConds(sc, "au.branch_id", "")
	if sc.OnlySelf {
		conds = append(conds, Wrap(appUserAdvisors, In("ua.profile_id", sc.AdvisorIDs), ")"))
	}
	return And(conds...)
}

func init() {
	registerFlatTable(wayfarer.AppUserSearchCatalog.Name, &flatTable{
		From: "app_user au", Alias: "au",
		Joins:   []string{"LEFT JOIN branch ab ON ab.agency_id = au.agency_id AND ab.rec_no = au.branch_id"},
		Columns: appUserColumns, Filters: appUserFilters, Scope: appUserScope,
		Created: "au.create_date_time", Modified: "au.last_modified_date_time",
		Order: []string{"au.user_name_key", "au.rec_no"},
	})
}
