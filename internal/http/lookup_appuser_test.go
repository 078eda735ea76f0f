package http_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// TestAppUserSearch: the picker's columns (never a secret), filters, reach,
// bad input and 204s, on both engines.
func TestAppUserSearch(t *testing.T) {
	lookupServers(t, func(t *testing.T, s *testserver.Server, fx *lookupFixture) {
		admin := lookupLogin(t, s, "admin")
		search := func(auth []string, body any) *testserver.Response {
			return s.Do(t, "POST", "/appUserSearch", body, auth...)
		}
		rows := rowsOf(t, search(admin, nil))
		if got := column(rows, "id"); !slices.Equal(got, []string{"admin", "branchonly", "harbor", "nobranch", "none", "selfonly"}) {
			t.Fatalf("all: %v", got)
		}
		a := rows[0]
		if a["recNo"] != float64(fx.user["admin"]) || a["name"] != "Ada Admin" || a["userType"] != 1.0 || a["enabled"] != true ||
			a["branch_recNo"] != float64(fx.branch["Main"]) || len(a) != 6 {
			t.Errorf("admin's row: %v", a)
		}
		// Every column at once holds no secret: no hash, no lock, no token.
		var cols []string
		for _, c := range []string{"recNo", "summaryCount", "createDateTime", "lastModifiedDateTime", "id", "userType", "branch_recNo",
			"branchName", "name", "mobilePhone", "email", "enabled", "locked", "lastLoginDateTime"} {
			cols = append(cols, `"`+c+`"`)
		}
		r := search(admin, `{"includeCols":[`+strings.Join(cols, ",")+`]}`)
		body := string(rowsBody(t, r))
		for _, secret := range []string{"argon2", "$", "locked", "lastLogin", "password", "token"} {
			if strings.Contains(body, secret) {
				t.Errorf("a secret in the rows (%q): %s", secret, body)
			}
		}
		if !strings.Contains(body, `"branchName":"Main"`) {
			t.Errorf("branchName: %s", body)
		}
		wantError(t, search(admin, `{"includeCols":["passwordHash"]}`), 400, 405, "Invalid column: passwordHash")

		for body, want := range map[string][]string{
			`{"name":{"compareCondition":5,"value":["h"]}}`:                           {"harbor"},
			`{"id":{"compareCondition":7,"value":["ADMIN, none"]}}`:                   {"admin", "none"},
			fmt.Sprintf(`{"branchRecNo":{"value":[%d]}}`, fx.branch["Main"]):          {"admin", "none", "selfonly"},
			`{"branchRecNo":{"compareCondition":3}}`:                                  {"nobranch"},
			fmt.Sprintf(`{"advisorProfileRecNo":%d}`, fx.advisor["Hana Harbor"]):      {"harbor"},
			`{"userType":{"value":[1]},"enabled":true,"name":{"compareCondition":4}}`: {"admin", "branchonly", "harbor", "none", "selfonly"},
		} {
			if got := column(rowsOf(t, search(admin, body)), "id"); !slices.Equal(got, want) {
				t.Errorf("%s: %v, want %v", body, got, want)
			}
		}
		wantEmpty(t, search(admin, `{"enabled":false}`))
		wantEmpty(t, search(admin, `{"userType":{"value":[3]}}`))

		// Reach: harbor (OnlySelf, OnlyBranch) finds itself; no branch, none.
		if got := column(rowsOf(t, search(lookupLogin(t, s, "harbor"), nil)), "id"); !slices.Equal(got, []string{"harbor"}) {
			t.Errorf("harbor: %v", got)
		}
		for user, want := range map[string][]string{
			"branchonly": {"branchonly", "harbor"}, // OnlyBranch: Harbor's users
			"selfonly":   {"selfonly"},             // OnlySelf: the users linked to Alice
		} {
			if got := column(rowsOf(t, search(lookupLogin(t, s, user), nil)), "id"); !slices.Equal(got, want) {
				t.Errorf("%s: %v, want %v", user, got, want)
			}
		}
		wantEmpty(t, search(lookupLogin(t, s, "nobranch"), nil))
		wantError(t, search(lookupLogin(t, s, "none"), nil), 403, 600, "AppUser select")

		wantError(t, search(admin, `{"locked":true}`), 400, 408, "locked")
		wantError(t, search(admin, `{"enabled":"yes"}`), 400, 406, "enabled")
		wantError(t, search(admin, `{"userName":{"value":["x"]}}`), 400, 406, "userName")
		wantError(t, search(admin, `{"email":{"value":["`+strings.Repeat("e", 129)+`"]}}`), 400, 407, "longer than the column's 128")
	})
}

// rowsBody is a 200 answer's body.
func rowsBody(t *testing.T, r *testserver.Response) []byte {
	t.Helper()
	rowsOf(t, r)
	return r.Body
}
