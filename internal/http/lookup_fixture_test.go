package http_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

const (
	lookupAlias    = "LKUP"
	lookupPassword = "lookup-test-pw-1"
)

// The look-up fixture: agency LKUP with three branches, advisors and client
// profiles, and users of each reach; one branch, advisor and client of
// OTHER with the same names, which no LKUP search may find.
//
//	branches  Main (active), Harbor (active), Pier (inactive)
//	advisors  Alice Advisor (Main), Hana Harbor (Harbor)
//	clients   Able Family (Main), Abler/Ken (no branch), Harbor Corp (Harbor, inactive)
//	users     admin: every bit (Main)
//	          harbor: select+read, OnlySelf+OnlyBranch (Harbor, advisor Hana)
//	          nobranch: select+read+allusers, no branch (OnlyBranch: nothing)
//	          branchonly: select+read+allusers, OnlyBranch (Harbor)
//	          selfonly: select+read+allbranches, OnlySelf (Main, advisor Alice)
//	          none: no look-up permission
//	person    Ken Abler (Harbor, advisor Hana), linked to client Harbor Corp
type lookupFixture struct {
	branch, advisor, client, user map[string]int64
	other                         map[string]int64 // OTHER's "branch", "advisor", "client"; "person": LKUP's one person
}

var lookupAreas = []wayfarer.Area{wayfarer.AreaBranch, wayfarer.AreaAdvisorProfile, wayfarer.AreaClientProfile, wayfarer.AreaAppUser}

func lookupPerms(p wayfarer.Permission) wayfarer.Permissions {
	var ps wayfarer.Permissions
	for _, a := range lookupAreas {
		ps[a] = p
	}
	ps[wayfarer.AreaPerson] = wayfarer.PermSelect
	return ps
}

func seedLookups(f *lookupFixture) func(a *app.App) error {
	return func(a *app.App) error {
		ctx := context.Background()
		ag, err := a.Admin.CreateAgency(ctx, lookupAlias, "Look-up tests", wayfarer.AgencyActive, 0)
		if err != nil {
			return err
		}
		other, err := a.DB.AgencyByAlias(ctx, "OTHER")
		if err != nil {
			return err
		}
		f.branch, f.advisor, f.client, f.user, f.other = map[string]int64{}, map[string]int64{}, map[string]int64{}, map[string]int64{}, map[string]int64{}
		for _, b := range []string{"Main", "Harbor", "Pier"} {
			if f.branch[b], err = a.DB.CreateBranch(ctx, ag, b); err != nil {
				return err
			}
		}
		exec := func(q string, args ...any) error {
			_, err := a.DB.Primary().ExecContext(ctx, a.DB.Dialect.Rebind(q), args...)
			return err
		}
		if err := exec("UPDATE branch SET active_status = 0, description = ?, email = ?, phone = ? WHERE rec_no = ?",
			"By the sea", "pier@example.com", "+1 555 0142", f.branch["Pier"]); err != nil {
			return err
		}
		for _, p := range []struct {
			name, branch string
			typ          int
			m            map[string]int64
		}{
			{"Alice Advisor", "Main", wayfarer.ProfileAdvisor, f.advisor}, {"Hana Harbor", "Harbor", wayfarer.ProfileAdvisor, f.advisor},
			{"Able Family", "Main", wayfarer.ProfileClient, f.client}, {"Abler/Ken", "", wayfarer.ProfileClient, f.client},
			{"Harbor Corp", "Harbor", wayfarer.ProfileClient, f.client},
		} {
			var b *int64
			if id, ok := f.branch[p.branch]; ok {
				b = &id
			}
			if p.m[p.name], err = a.DB.CreateProfile(ctx, ag, p.typ, p.name, b); err != nil {
				return err
			}
		}
		if err := exec("UPDATE profile SET active_status = 0 WHERE rec_no = ?", f.client["Harbor Corp"]); err != nil {
			return err
		}
		users := []struct {
			name, branch, advisor, full string
			perm                        wayfarer.Permission
		}{
			{"admin", "Main", "", "Ada Admin", wayfarer.PermAll},
			{"harbor", "Harbor", "Hana Harbor", "Hana Harbor", wayfarer.PermSelect | wayfarer.PermRead},
			{"nobranch", "", "", "", wayfarer.PermSelect | wayfarer.PermRead | wayfarer.PermAllUsers},
			{"branchonly", "Harbor", "", "Bea Branch", wayfarer.PermSelect | wayfarer.PermRead | wayfarer.PermAllUsers},
			{"selfonly", "Main", "Alice Advisor", "Sam Self", wayfarer.PermSelect | wayfarer.PermRead | wayfarer.PermAllBranches},
			{"none", "Main", "", "Nora None", 0},
		}
		for _, u := range users {
			var b *int64
			if id, ok := f.branch[u.branch]; ok {
				b = &id
			}
			id, err := a.Admin.CreateUser(ctx, wayfarer.NewUser{AgencyID: ag, UserName: u.name, Name: u.full, Type: wayfarer.UserTypeUser,
				BranchID: b, Perms: lookupPerms(u.perm), Enabled: true, NonExpiringPassword: true}, lookupPassword)
			if err != nil {
				return err
			}
			f.user[u.name] = id
			if u.advisor != "" {
				if err := a.DB.LinkUserAdvisor(ctx, ag, id, f.advisor[u.advisor]); err != nil {
					return err
				}
			}
		}
		if f.other["branch"], err = a.DB.CreateBranch(ctx, other.ID, "Main Other"); err != nil {
			return err
		}
		ob := f.other["branch"]
		if f.other["advisor"], err = a.DB.CreateProfile(ctx, other.ID, wayfarer.ProfileAdvisor, "Alice Advisor", &ob); err != nil {
			return err
		}
		if f.other["client"], err = a.DB.CreateProfile(ctx, other.ID, wayfarer.ProfileClient, "Able Family", &ob); err != nil {
			return err
		}
		// A person of Hana's in LKUP, linked to the client profile Harbor
		// Corp: OnlySelf (Hana) reaches that client through it.
		var person int64
		if person, err = insertID(ctx, a, "INSERT INTO person (agency_id, first_name, last_name, advisor_profile_id, branch_id, create_date_time, last_modified_date_time) VALUES (?, ?, ?, ?, ?, ?, ?)",
			ag, "Ken", "Abler", f.advisor["Hana Harbor"], f.branch["Harbor"], at("2024-01-01T00:00:00Z"), at("2024-01-01T00:00:00Z")); err != nil {
			return err
		}
		f.other["person"] = person
		return exec("INSERT INTO profile_person (agency_id, profile_id, person_id) VALUES (?, ?, ?)", ag, f.client["Harbor Corp"], person)
	}
}

// lookupServers runs f on a fresh instance of both engines with the
// fixture (its ids are those of the engine f runs on).
func lookupServers(t *testing.T, f func(t *testing.T, s *testserver.Server, fx *lookupFixture)) {
	fx := &lookupFixture{}
	testserver.Each(t, testserver.Options{Seed: seedLookups(fx)}, func(t *testing.T, s *testserver.Server) {
		f(t, s, fx)
	})
}

// lookupLogin logs a user of LKUP in and returns its bearer header.
func lookupLogin(t *testing.T, s *testserver.Server, user string) []string {
	t.Helper()
	return testserver.Bearer(s.Login(t, lookupAlias, user, lookupPassword))
}

// rowsOf decodes a 200 answer holding rows (or fails the test).
func rowsOf(t *testing.T, r *testserver.Response) []map[string]any {
	t.Helper()
	if r.Status != 200 {
		t.Fatalf("status %d, want 200: %s", r.Status, r.Body)
	}
	var rows []map[string]any
	if err := json.Unmarshal(r.Body, &rows); err != nil {
		t.Fatalf("not rows: %v: %s", err, r.Body)
	}
	return rows
}

// wantEmpty checks a 204 with no body.
func wantEmpty(t *testing.T, r *testserver.Response) {
	t.Helper()
	if r.Status != 204 || len(r.Body) != 0 {
		t.Fatalf("want 204 with no body, got %d: %s", r.Status, r.Body)
	}
}

// wantError checks an error answer: status, resultCode, and a text the
// description holds.
func wantError(t *testing.T, r *testserver.Response, status, code int, text string) {
	t.Helper()
	if r.Status != status || r.Code(t) != code || !strings.Contains(string(r.Body), text) {
		t.Fatalf("want %d/%d %q, got %d: %s", status, code, text, r.Status, r.Body)
	}
}

// column lists one column of rows, as text.
func column(rows []map[string]any, name string) []string {
	var out []string
	for _, r := range rows {
		out = append(out, fmt.Sprint(r[name]))
	}
	return out
}
