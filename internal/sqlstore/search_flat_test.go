package sqlstore_test

import (
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// TestSearchFlatKit: the builder keeps to the agency, refuses a catalog or
// a filter it has no SQL for (a programming error, never a wrong answer),
// and applies the scope hook.
func TestSearchFlatKit(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			db := openSearchDB(t, engine)
			ctx := t.Context()
			a := mustExec(t, db, "INSERT INTO agency (alias, name, status, max_password_age_days, created_at) VALUES ('A', 'A', 1, 0, CURRENT_TIMESTAMP)")
			b := mustExec(t, db, "INSERT INTO agency (alias, name, status, max_password_age_days, created_at) VALUES ('B', 'B', 1, 0, CURRENT_TIMESTAMP)")
			for _, n := range []string{"North", "South"} {
				if _, err := db.CreateBranch(ctx, a, n); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := db.CreateBranch(ctx, b, "North"); err != nil {
				t.Fatal(err)
			}
			cat := wayfarer.BranchSearchCatalog
			cols, _, _ := cat.Resolve([]string{"name", "summaryCount"})
			all := func(area wayfarer.Area) (wayfarer.Scope, bool) { return wayfarer.Scope{AgencyID: a}, true }
			c := &wayfarer.FlatCriteria{BaseCriteria: wayfarer.BaseCriteria{Columns: cols}}
			res, err := db.SearchFlat(ctx, cat, all, c)
			if err != nil || len(res.Rows) != 2 || res.Rows[0][0] != "North" || res.Rows[1][1] != int64(2) {
				t.Fatalf("agency A's branches: %+v %v", res, err)
			}
			none := func(area wayfarer.Area) (wayfarer.Scope, bool) {
				return wayfarer.Scope{AgencyID: a, OnlyBranch: true}, true
			}
			if res, err := db.SearchFlat(ctx, cat, none, c); err != nil || len(res.Rows) != 0 {
				t.Errorf("OnlyBranch without a branch: %+v %v", res, err)
			}
			bad := &wayfarer.FlatCriteria{BaseCriteria: c.BaseCriteria, Filters: []wayfarer.SearchFilter{{Key: "nope", Path: "nope", In: []int64{1}}}}
			if _, err := db.SearchFlat(ctx, cat, all, bad); err == nil || !strings.Contains(err.Error(), "no SQL for the filter nope") {
				t.Errorf("a filter without SQL: %v", err)
			}
			other := wayfarer.NewSearchCatalog("unregistered", "xSearch", []wayfarer.Area{wayfarer.AreaTag}, nil)
			if _, err := db.SearchFlat(ctx, other, all, c); err == nil || !strings.Contains(err.Error(), "no table") {
				t.Errorf("an unregistered catalog: %v", err)
			}
		})
	}
}
