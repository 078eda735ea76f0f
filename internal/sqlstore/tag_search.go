package sqlstore

import (
	"strconv"
	"strings"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// POST /tagSearch through the search kit (search_flat.go). Tags are
// agency-wide: no scope hook beyond the agency.

var tagSearchColumns = map[string]string{
	"recNo":                "tg.rec_no",
	"createDateTime":       "tg.create_date_time",
	"lastModifiedDateTime": "tg.last_modified_date_time",
	"name":                 "tg.name",
	"referenced":           "EXISTS (SELECT 1 FROM person_tag ptr WHERE ptr.agency_id = tg.agency_id AND ptr.tag_id = tg.rec_no)",
	"activeStatus":         "tg.active_status",
	"valueFreeFlow":        "tg.value_free_flow",
	"valueRequired":        "tg.value_required",
	"valueList":            "tg.value_list",
	"description":          "tg.description",
	"areaFlags":            "tg.area_flags",
	"requirement":          "tg.requirement",
	"availableForUseIn":    availableForUseInSQL(),
}

// availableForUseInSQL names the set area flags, joined by ", "; "All" for 0.
func availableForUseInSQL() string {
	var parts []string
	for i, name := range wayfarer.TagAreaNames {
		parts = append(parts, "CASE WHEN (tg.area_flags & "+strconv.Itoa(1<<i)+") <> 0 THEN '"+name+", ' ELSE '' END")
	}
	return "CASE WHEN tg.area_flags = 0 THEN 'All' ELSE rtrim(" + strings.Join(parts, " || ") + ", ', ') END"
}

// tagAreaFilter: a flag matches tags whose areaFlags hold it or are 0
// (All); 0 matches tags of areaFlags 0 only.
func tagAreaFilter(_ Dialect, f wayfarer.SearchFilter) Expr {
	var any []Expr
	for _, v := range f.In {
		if v == 0 {
			any = append(any, E("tg.area_flags = 0"))
		} else {
			any = append(any, E("(tg.area_flags = 0 OR (tg.area_flags & ?) <> 0)", v))
		}
	}
	return Or(any...)
}

func init() {
	registerFlatTable(wayfarer.TagSearchCatalog.Name, &flatTable{
		From: "tag tg", Alias: "tg", Columns: tagSearchColumns,
		Filters: map[string]func(Dialect, wayfarer.SearchFilter) Expr{"areaFlags": tagAreaFilter},
		Created: "tg.create_date_time", Modified: "tg.last_modified_date_time",
		Order: []string{"lower(tg.name)", "tg.rec_no"},
	})
}
