package http_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// TestBranchSearch: the devportal's example, columns, filters, paging,
// scope (OnlyBranch, other agency), permissions, bad input and 204s, on
// both engines.
func TestBranchSearch(t *testing.T) {
	lookupServers(t, func(t *testing.T, s *testserver.Server, fx *lookupFixture) {
		admin := lookupLogin(t, s, "admin")
		search := func(auth []string, body any) *testserver.Response {
			return s.Do(t, "POST", "/branchSearch", body, auth...)
		}

		// The devportal's example: names starting with P; its answer's keys
		// and JSON types.
		rows := rowsOf(t, search(admin, `{"name":{"compareCondition":5,"value":["P"]}}`))
		if len(rows) != 1 || rows[0]["name"] != "Pier" {
			t.Fatalf("example: %v", rows)
		}
		for key, want := range map[string]string{"recNo": "float64", "createDateTime": "string", "lastModifiedDateTime": "string", "name": "string"} {
			if got := fmt.Sprintf("%T", rows[0][key]); got != want {
				t.Errorf("example %s: %s, want %s (%v)", key, got, want, rows[0])
			}
		}
		if len(rows[0]) != 4 {
			t.Errorf("example keys: %v", rows[0])
		}

		// Every branch of LKUP, by name; OTHER's never.
		rows = rowsOf(t, search(admin, nil))
		if got := column(rows, "name"); !slices.Equal(got, []string{"Harbor", "Main", "Pier"}) {
			t.Errorf("all: %v", got)
		}
		rows = rowsOf(t, search(admin, `{"includeCols":["recNo","NAME","description","activeStatus","arcBspNo","summaryCount"],"activeStatus":[0]}`))
		if len(rows) != 1 || rows[0]["description"] != "By the sea" || rows[0]["activeStatus"] != 0.0 || rows[0]["summaryCount"] != 1.0 {
			t.Errorf("inactive: %v", rows)
		}
		if _, ok := rows[0]["arcBspNo"]; ok {
			t.Errorf("arcBspNo is null, left out: %v", rows[0])
		}
		rows = rowsOf(t, search(admin, `{"includeCols":["name","summaryCount"],"startingRow":1,"rowCount":1}`))
		if len(rows) != 1 || rows[0]["name"] != "Main" || rows[0]["summaryCount"] != 3.0 {
			t.Errorf("page: %v", rows)
		}
		rows = rowsOf(t, search(admin, fmt.Sprintf(`{"recNo":{"value":[%d,%d]},"name":{"compareCondition":8,"value":["pier"]}}`,
			fx.branch["Pier"], fx.branch["Main"])))
		if got := column(rows, "name"); !slices.Equal(got, []string{"Main"}) {
			t.Errorf("recNo and NotIn: %v", got)
		}
		rows = rowsOf(t, search(admin, `{"includeCols":["activeStatus"],"distinct":true}`))
		if got := column(rows, "activeStatus"); !slices.Equal(got, []string{"1", "0"}) { // groups in the order of their first row (Harbor)
			t.Errorf("distinct: %v", got)
		}
		rows = rowsOf(t, search(admin, `{"createDateTimeFrom":{"date":"2000-01-01"},"includeCols":["recNo"]}`))
		if len(rows) != 3 {
			t.Errorf("created since 2000: %v", rows)
		}
		r := search(admin, `{"includeCols":["recNo"],"reportFormat":true,"reportName":"branches"}`)
		if r.Status != 200 || !strings.HasPrefix(string(r.Body), "recNo\n") || strings.Count(string(r.Body), "\n") != 4 {
			t.Errorf("CSV: %d %q", r.Status, r.Body)
		}

		// Nothing found, a page past the end: 204, no body.
		wantEmpty(t, search(admin, `{"name":{"value":["Nowhere"]}}`))
		wantEmpty(t, search(admin, `{"startingRow":3}`))
		wantEmpty(t, search(admin, `{"createDateTimeTo":{"date":"2000-01-01"}}`))
		// arcBspNo is not kept: always null.
		wantEmpty(t, search(admin, `{"arcBspNo":{"value":[5]}}`))
		if rows := rowsOf(t, search(admin, `{"arcBspNo":{"compareCondition":3}}`)); len(rows) != 3 {
			t.Errorf("arcBspNo Blank: %v", rows)
		}

		// Scope: OnlyBranch sees its own branch; no branch, none; no
		// permission, 403.
		rows = rowsOf(t, search(lookupLogin(t, s, "harbor"), nil))
		if got := column(rows, "name"); !slices.Equal(got, []string{"Harbor"}) {
			t.Errorf("OnlyBranch: %v", got)
		}
		if got := column(rowsOf(t, search(lookupLogin(t, s, "branchonly"), nil)), "name"); !slices.Equal(got, []string{"Harbor"}) {
			t.Errorf("OnlyBranch (AllUsers): %v", got)
		}
		// OnlySelf does not apply to branches (a branch has no advisor).
		if got := column(rowsOf(t, search(lookupLogin(t, s, "selfonly"), nil)), "name"); len(got) != 3 {
			t.Errorf("OnlySelf (AllBranches): %v", got)
		}
		wantEmpty(t, search(lookupLogin(t, s, "nobranch"), nil))
		wantError(t, search(lookupLogin(t, s, "none"), `{"includeCols":["BOGUS"]}`), 403, 600, "Branch select")
		wantError(t, search(lookupLogin(t, s, "harbor"), `{"reportFormat":true}`), 403, 600, "Branch export")
		wantEmpty(t, search(admin, fmt.Sprintf(`{"recNo":{"value":[%d]}}`, fx.other["branch"])))

		// Bad input, byte for byte where the reference recorded it.
		r = search(admin, `{"includeCols":["BOGUS"]}`)
		if r.Status != 400 || string(r.Body) != `{"resultCode":405,"resultDescription":"Invalid column: BOGUS","method":"Param"}` {
			t.Errorf("BOGUS: %d %s", r.Status, r.Body)
		}
		wantError(t, search(admin, `{"name":"P"}`), 400, 406, "name")
		wantError(t, search(admin, `{"nmae":{"value":["P"]}}`), 400, 406, "did you mean name?")
		wantError(t, search(admin, `{"tags":[{"recNo":1}]}`), 400, 408, "tags")
		wantError(t, search(admin, `{"name":{"compareCondition":5,"value":["`+strings.Repeat("x", 65)+`"]}}`), 400, 407, "longer than the column's 64")
		wantError(t, search(admin, `{"name":{"compareCondition":11,"value":["P"]}}`), 400, 407, "outside 0..10")
		wantError(t, search(admin, `{"rowCount":-1}`), 400, 407, "rowCount")
		many := strings.Repeat("1,", 1000) + "1"
		wantError(t, search(admin, `{"activeStatus":[`+many+`]}`), 400, 407, "one filter compares")
	})
}

// TestLoadBranch: GET /branch/{recNo} answers the devportal's shape; a
// branch out of reach is 204.
func TestLoadBranch(t *testing.T) {
	lookupServers(t, func(t *testing.T, s *testserver.Server, fx *lookupFixture) {
		admin := lookupLogin(t, s, "admin")
		get := func(auth []string, id any) *testserver.Response {
			return s.Do(t, "GET", fmt.Sprintf("/branch/%v", id), nil, auth...)
		}
		rows := rowsOf(t, get(admin, fx.branch["Pier"]))
		if len(rows) != 1 {
			t.Fatalf("rows: %v", rows)
		}
		b := rows[0]
		if b["recNo"] != float64(fx.branch["Pier"]) || b["name"] != "Pier" || b["email"] != "pier@example.com" || b["logoData"] != "" ||
			b["description"] != "By the sea" || b["activeStatus"] != 0.0 || b["phone"] != "+1 555 0142" {
			t.Errorf("Pier: %v", b)
		}
		if _, ok := rows[0]["createDateTime"]; ok {
			t.Errorf("a branch record has no createDateTime (devportal Branch): %v", b)
		}
		wantEmpty(t, get(admin, 999999))
		wantEmpty(t, get(admin, "abc"))
		wantEmpty(t, get(admin, fx.other["branch"]))
		harbor := lookupLogin(t, s, "harbor")
		wantEmpty(t, get(harbor, fx.branch["Main"]))
		if rows := rowsOf(t, get(harbor, fx.branch["Harbor"])); rows[0]["name"] != "Harbor" {
			t.Errorf("own branch: %v", rows)
		}
		wantError(t, get(lookupLogin(t, s, "none"), fx.branch["Main"]), 403, 600, "Branch read")
		if r := s.Do(t, "GET", fmt.Sprintf("/v1.8.1/branch/%d", fx.branch["Main"]), nil, admin...); r.Status != 200 {
			t.Errorf("1.8.1: %d %s", r.Status, r.Body)
		}
	})
}
