package http_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// TestProfileSearch: the devportal's example, both kinds, each kind's
// reach, the person filters, bad input byte for byte, 204s, both engines.
func TestProfileSearch(t *testing.T) {
	lookupServers(t, func(t *testing.T, s *testserver.Server, fx *lookupFixture) {
		admin := lookupLogin(t, s, "admin")
		search := func(auth []string, body any) *testserver.Response {
			return s.Do(t, "POST", "/profileSearch", body, auth...)
		}

		// The devportal's example, profileType as one number and
		// activeStatus as a boolean; the answer's keys and types.
		rows := rowsOf(t, search(admin, `{"profileType":1,"activeStatus":true,"profileName":{"value":["Able"],"compareCondition":5},"includeCols":["recNo","name"]}`))
		if got := column(rows, "name"); !slices.Equal(got, []string{"Able Family", "Abler/Ken"}) {
			t.Fatalf("example: %v", rows)
		}
		for _, r := range rows {
			if _, ok := r["recNo"].(float64); !ok || len(r) != 2 {
				t.Errorf("example row: %v", r)
			}
		}

		// Both kinds, OTHER's never; default columns.
		rows = rowsOf(t, search(admin, nil))
		if got := column(rows, "name"); !slices.Equal(got, []string{"Able Family", "Abler/Ken", "Alice Advisor", "Hana Harbor", "Harbor Corp"}) {
			t.Errorf("all: %v", got)
		}
		if r := rows[2]; r["profileType"] != 3.0 || r["activeStatus"] != 1.0 || len(r) != 4 {
			t.Errorf("an advisor's default columns: %v", r)
		}
		rows = rowsOf(t, search(admin, `{"profileType":[3],"includeCols":["name","clientBranchName","createDateTime"]}`))
		if got := column(rows, "name"); !slices.Equal(got, []string{"Alice Advisor", "Hana Harbor"}) || rows[0]["createDateTime"] == nil {
			t.Errorf("advisors: %v", rows)
		}
		if _, ok := rows[0]["clientBranchName"]; ok {
			t.Errorf("an advisor has no client branch: %v", rows[0])
		}
		rows = rowsOf(t, search(admin, fmt.Sprintf(`{"clientBranchRecNo":{"value":[%d]},"includeCols":["name","clientBranchName"]}`, fx.branch["Harbor"])))
		if len(rows) != 1 || rows[0]["name"] != "Harbor Corp" || rows[0]["clientBranchName"] != "Harbor" {
			t.Errorf("clientBranchRecNo: %v", rows)
		}
		rows = rowsOf(t, search(admin, `{"activeStatus":[0,2]}`))
		if got := column(rows, "name"); !slices.Equal(got, []string{"Harbor Corp"}) {
			t.Errorf("inactive: %v", got)
		}
		rows = rowsOf(t, search(admin, `{"personLastName":{"value":["ABLER"]}}`))
		if got := column(rows, "name"); !slices.Equal(got, []string{"Harbor Corp"}) {
			t.Errorf("personLastName: %v", got)
		}
		rows = rowsOf(t, search(admin, fmt.Sprintf(`{"personRecNo":{"value":[%d]}}`, fx.other["person"])))
		if got := column(rows, "name"); !slices.Equal(got, []string{"Harbor Corp"}) {
			t.Errorf("personRecNo: %v", got)
		}
		rows = rowsOf(t, search(admin, `{"tags":[{"recNo":7,"checked":false}],"profileType":[1],"includeCols":["summaryCount","name"]}`))
		if len(rows) != 3 || rows[0]["summaryCount"] != 3.0 {
			t.Errorf("without a tag (no profile has tags): %v", rows)
		}

		// 204: nothing found; kinds Wayfarer does not keep; a tag asked for.
		wantEmpty(t, search(admin, `{"profileName":{"value":["Nobody"]}}`))
		wantEmpty(t, search(admin, `{"profileType":[2,4]}`))
		wantEmpty(t, search(admin, `{"tags":[{"recNo":7}]}`))
		wantEmpty(t, search(admin, fmt.Sprintf(`{"recNo":{"value":[%d,%d]}}`, fx.other["advisor"], fx.other["client"])))

		// Reach: harbor is OnlySelf and OnlyBranch in both areas: its own
		// advisor, and the Harbor client linked to a person Hana advises.
		rows = rowsOf(t, search(lookupLogin(t, s, "harbor"), nil))
		if got := column(rows, "name"); !slices.Equal(got, []string{"Hana Harbor", "Harbor Corp"}) {
			t.Errorf("OnlySelf+OnlyBranch: %v", got)
		}
		for user, want := range map[string][]string{
			"branchonly": {"Hana Harbor", "Harbor Corp"}, // OnlyBranch: Harbor's advisors and clients
			"selfonly":   {"Alice Advisor"},              // OnlySelf: its advisor; no client has a person Alice advises
		} {
			if got := column(rowsOf(t, search(lookupLogin(t, s, user), nil)), "name"); !slices.Equal(got, want) {
				t.Errorf("%s: %v, want %v", user, got, want)
			}
		}
		wantEmpty(t, search(lookupLogin(t, s, "nobranch"), nil))
		wantError(t, search(lookupLogin(t, s, "none"), nil), 403, 600, "AdvisorProfile select")

		// Bad input; the recorded errors byte for byte.
		for body, want := range map[string]string{
			`{"includeCols":["recNo","BOGUS"]}`:    `{"resultCode":405,"resultDescription":"Invalid column: BOGUS","method":"Param"}`,
			`{"tags":[{"value":{"value":["x"]}}]}`: `{"resultCode":404,"resultDescription":"Missing or blank required parameter: The RecNo field is required.","method":"Param"}`,
		} {
			if r := search(admin, body); r.Status != 400 || string(r.Body) != want {
				t.Errorf("%s: %d %s", body, r.Status, r.Body)
			}
		}
		wantError(t, search(admin, `{"profileType":"client"}`), 400, 406, "profileType")
		wantError(t, search(admin, `{"activeStatus":"yes"}`), 400, 406, "activeStatus")
		wantError(t, search(admin, `{"profileNmae":{"value":["A"]}}`), 400, 406, "did you mean profileName?")
		wantError(t, search(admin, `{"commType":[1]}`), 400, 408, "commType")
		wantError(t, search(admin, `{"profileName":{"value":["`+strings.Repeat("n", 257)+`"]}}`), 400, 407, "longer than the column's 256")
		wantError(t, search(admin, `{"personLastName":{"value":["`+strings.Repeat("n", 65)+`"]}}`), 400, 407, "longer than the column's 64")
	})
}
