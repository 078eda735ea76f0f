package http_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// TestTagSearch: the devportal's TagSearch columns and parameters through
// the search kit, scope (agency-wide tags, another agency), permissions,
// bad input and 204s, on both engines.
func TestTagSearch(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		wantResult(t, admin.do("POST", "/tag", `{"name":"Seat preference","requirement":2,"areaFlags":2,"description":"Aisle or window",
			"valueFreeFlow":false,"valueList":"aisle\nwindow"}`), 200, 0, "")
		budget := int64(wantResult(t, admin.do("POST", "/tag", `{"name":"Budget","requirement":1,"areaFlags":9,"activeStatus":false}`), 200, 0, "")["recNo"].(float64))
		admin.create(kenJSON(r)) // holds VIP
		search := func(c personClient, body any) *testserver.Response { return c.do("POST", "/tagSearch", body) }

		// Default columns, every tag of the agency by name.
		rows := rowsOf(t, search(admin, nil))
		if got := column(rows, "name"); !slices.Equal(got, []string{"Budget", "Dietary", "Seat preference", "VIP"}) {
			t.Fatalf("all: %v", got)
		}
		for key, want := range map[string]string{"recNo": "float64", "name": "string", "activeStatus": "bool",
			"requirement": "float64", "areaFlags": "float64"} {
			if got := fmt.Sprintf("%T", rows[0][key]); got != want {
				t.Errorf("%s: %s, want %s (%v)", key, got, want, rows[0])
			}
		}

		// Every column the devportal lists, with its JSON type.
		all := `"recNo","summaryCount","createDateTime","lastModifiedDateTime","name","referenced","activeStatus","valueFreeFlow",
			"valueRequired","valueList","description","areaFlags","requirement","availableForUseIn"`
		rows = rowsOf(t, search(admin, `{"includeCols":[`+all+`],"name":{"compareCondition":1,"value":["seat preference"]}}`))
		if len(rows) != 1 {
			t.Fatalf("%v", rows)
		}
		seat := rows[0]
		for key, want := range map[string]any{"summaryCount": 1.0, "referenced": false, "activeStatus": true, "valueFreeFlow": false,
			"valueRequired": false, "valueList": "aisle\nwindow", "description": "Aisle or window", "areaFlags": 2.0,
			"requirement": 2.0, "availableForUseIn": "Traveler"} {
			if seat[key] != want {
				t.Errorf("%s: %v, want %v (%v)", key, seat[key], want, seat)
			}
		}
		for _, key := range []string{"createDateTime", "lastModifiedDateTime"} {
			if _, ok := seat[key].(string); !ok {
				t.Errorf("%s: %v", key, seat)
			}
		}
		rows = rowsOf(t, search(admin, `{"includeCols":["name","referenced","availableForUseIn"],"name":{"compareCondition":7,"value":["VIP,Budget"]}}`))
		if len(rows) != 2 || rows[0]["availableForUseIn"] != "Client, Advisor" || rows[1]["referenced"] != true || rows[1]["availableForUseIn"] != "All" {
			t.Errorf("referenced, availableForUseIn: %v", rows)
		}

		// Filters: activeStatus, areaFlags (a flag finds tags holding it and
		// tags for All; 0 finds the All tags only), recNo, paging, CSV.
		if got := column(rowsOf(t, search(admin, `{"activeStatus":false}`)), "name"); !slices.Equal(got, []string{"Budget"}) {
			t.Errorf("inactive: %v", got)
		}
		if got := column(rowsOf(t, search(admin, `{"areaFlags":[2]}`)), "name"); !slices.Equal(got, []string{"Dietary", "Seat preference", "VIP"}) {
			t.Errorf("Traveler: %v", got)
		}
		if got := column(rowsOf(t, search(admin, `{"areaFlags":[8,2]}`)), "name"); len(got) != 4 {
			t.Errorf("Advisor or Traveler: %v", got)
		}
		if got := column(rowsOf(t, search(admin, `{"areaFlags":[0]}`)), "name"); !slices.Equal(got, []string{"Dietary", "VIP"}) {
			t.Errorf("All: %v", got)
		}
		if got := column(rowsOf(t, search(admin, fmt.Sprintf(`{"recNo":{"value":[%d]}}`, budget))), "name"); !slices.Equal(got, []string{"Budget"}) {
			t.Errorf("recNo: %v", got)
		}
		rows = rowsOf(t, search(admin, `{"includeCols":["name","summaryCount"],"startingRow":1,"rowCount":2}`))
		if got := column(rows, "name"); !slices.Equal(got, []string{"Dietary", "Seat preference"}) || rows[0]["summaryCount"] != 4.0 {
			t.Errorf("page: %v", rows)
		}
		csv := search(admin, `{"includeCols":["name","availableForUseIn"],"reportFormat":true}`)
		if csv.Status != 200 || !strings.HasPrefix(string(csv.Body), "name,availableForUseIn\n") || !strings.Contains(string(csv.Body), `Budget,"Client, Advisor"`) {
			t.Errorf("CSV: %d %q", csv.Status, csv.Body)
		}
		wantEmpty(t, search(admin, `{"name":{"value":["Nothing like it"]}}`))
		wantEmpty(t, search(admin, `{"startingRow":4}`))

		// Scope: tags are agency-wide, so OnlySelf/OnlyBranch users see
		// them all; another agency sees none of them; no Select, 403.
		if got := column(rowsOf(t, search(clientFor(t, s, "agent"), nil)), "name"); len(got) != 4 {
			t.Errorf("agent: %v", got)
		}
		other := personClient{t, s, testserver.Bearer(s.Login(t, "OTHER", "admin", "demo-admin"))}
		wantEmpty(t, search(other, fmt.Sprintf(`{"recNo":{"value":[%d,%d]}}`, budget, r.vip)))
		wantError(t, search(clientFor(t, s, "viewer"), `{"includeCols":["BOGUS"]}`), 403, 600, "Tag select")
		wantError(t, search(clientFor(t, s, "agent"), `{"reportFormat":true}`), 403, 600, "Tag export")

		// Bad input.
		bogus := search(admin, `{"includeCols":["BOGUS"]}`)
		if bogus.Status != 400 || string(bogus.Body) != `{"resultCode":405,"resultDescription":"Invalid column: BOGUS","method":"Param"}` {
			t.Errorf("BOGUS: %d %s", bogus.Status, bogus.Body)
		}
		wantError(t, search(admin, `{"name":"VIP"}`), 400, 406, "name")
		wantError(t, search(admin, `{"activeStatus":1}`), 400, 406, "activeStatus")
		wantError(t, search(admin, `{"nmae":{"value":["V"]}}`), 400, 406, "did you mean name?")
		wantError(t, search(admin, `{"areaFlags":[4096]}`), 400, 407, "areaFlags[0]")
		wantError(t, search(admin, `{"areaFlags":["x"]}`), 400, 406, "areaFlags[0]")
		wantError(t, search(admin, `{"includeColsExtended":[{"type":"tag","recNo":1}]}`), 400, 408, "includeColsExtended")
		wantError(t, search(admin, `{"name":{"compareCondition":5,"value":["`+strings.Repeat("x", 65)+`"]}}`), 400, 407, "longer than the column's 64")
	})
}
