package sqlstore

import "github.com/wayfarerhq/wayfarer/internal/wayfarer"

// The branch look-ups (docs/lookups.md): branchSearch and GET /branch,
// through the search kit (search_flat.go).

var branchColumns = map[string]string{
	"recNo":                "b.rec_no",
	"createDateTime":       "b.create_date_time",
	"lastModifiedDateTime": "b.last_modified_date_time",
	"name":                 "b.name",
	"description":          "b.description",
	"phone":                "b.phone",
	"email":                "b.email",
	"activeStatus":         "b.active_status",
	"logoData":             "''",
	// Kept by the reference, not by Wayfarer: always null.
	"arcBspNo": "CAST(NULL AS INTEGER)",
}

// branchScope: a user without AllBranches reaches its own branch only.
func branchScope(_ Dialect, reach wayfarer.SearchReach) Expr {
	sc, _ := reach(wayfarer.AreaBranch)
	return ScopeCond(sc, "b.rec_no", "")
}

func init() {
	for _, name := range []string{wayfarer.BranchSearchCatalog.Name, wayfarer.BranchRecordCatalog.Name} {
		registerFlatTable(name, &flatTable{
			From: "branch b", Alias: "b", Columns: branchColumns, Scope: branchScope,
			Created: "b.create_date_time", Modified: "b.last_modified_date_time",
			Order: []string{"lower(b.name)", "b.rec_no"},
		})
	}
}
