package http_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/demo"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

const (
	searchAlias    = "SRCH"
	searchPassword = "search-test-pw-1"
)

// searchLogin logs a user of the fixture's agency in.
func searchLogin(t *testing.T, s *testserver.Server, user string) string {
	t.Helper()
	return s.Login(t, searchAlias, user, searchPassword)
}

// The search fixture: nine persons of SRCH (P1..P9) and one of OTHER, with
// children chosen so that every condition has a hand-checked answer.
// Ordered by name they are:
//
//	P9 /Nolast        (last name null)   Main   Mark
//	P6 /Bob           (last name "")     Main   Alice
//	P8 A_bler/Under                      Main   Alice
//	P7 Ab%le/Pct                         Main   Alice
//	P3 Able/Anna                         Harbor Hana
//	P2 Abler/Hale Nicole                 Main   Mark
//	P1 Abler/Ken                         Main   Alice
//	P4 Baker/         (first name null)  Harbor -
//	P5 O'Neil/Zoe                        -      Alice
type searchFixture struct {
	rec      map[string]int64 // "P1" → recNo
	cards    map[string]int64 // "A".."E" → card recNo
	branch   map[string]int64
	advisor  map[string]int64
	client   map[string]int64
	user     map[string]int64
	tag      map[string]int64
	element  map[string]int64
	otherRec int64
}

var allNames = []string{"/Nolast", "/Bob", "A_bler/Under", "Ab%le/Pct", "Able/Anna", "Abler/Hale Nicole", "Abler/Ken", "Baker/", "O'Neil/Zoe"}

func sp(s string) *string { return &s }
func ip(v int64) *int64   { return &v }

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func insertID(ctx context.Context, a *app.App, q string, args ...any) (int64, error) {
	var id int64
	err := a.DB.Primary().QueryRowContext(ctx, a.DB.Dialect.Rebind(q+" RETURNING rec_no"), args...).Scan(&id)
	return id, err
}

func seedSearch(f *searchFixture) func(a *app.App) error {
	return func(a *app.App) error {
		ctx := context.Background()
		// An agency of its own, whatever the demo data holds: SRCH mirrors
		// DEMO's branches, advisors, client profiles and users.
		ag, err := a.Admin.CreateAgency(ctx, searchAlias, "Search tests", wayfarer.AgencyActive, 0)
		if err != nil {
			return err
		}
		other, err := a.DB.AgencyByAlias(ctx, "OTHER")
		if err != nil {
			return err
		}
		f.branch, f.advisor, f.client, f.user = map[string]int64{}, map[string]int64{}, map[string]int64{}, map[string]int64{}
		f.tag, f.element, f.rec, f.cards = map[string]int64{}, map[string]int64{}, map[string]int64{}, map[string]int64{}
		for _, b := range []string{"Main", "Harbor"} {
			if f.branch[b], err = a.DB.CreateBranch(ctx, ag, b); err != nil {
				return err
			}
		}
		for _, adv := range demo.Advisors {
			b := f.branch[adv.Branch]
			if f.advisor[adv.Name], err = a.DB.CreateProfile(ctx, ag, wayfarer.ProfileAdvisor, adv.Name, &b); err != nil {
				return err
			}
		}
		for _, n := range demo.ClientProfiles {
			if f.client[n], err = a.DB.CreateProfile(ctx, ag, wayfarer.ProfileClient, n, nil); err != nil {
				return err
			}
		}
		users := []struct {
			name    string
			branch  string
			perm    wayfarer.Permission
			advisor string
		}{
			{"admin", "Main", wayfarer.PermAll, ""},
			{"agent", "Main", wayfarer.PermSelect | wayfarer.PermRead, "Alice Advisor"},                  // OnlySelf, OnlyBranch
			{"branch", "Harbor", wayfarer.PermSelect | wayfarer.PermAllUsers, ""},                        // OnlyBranch
			{"viewer", "Main", wayfarer.PermRead | wayfarer.PermAllUsers | wayfarer.PermAllBranches, ""}, // no Select
		}
		for _, u := range users {
			b := f.branch[u.branch]
			id, err := a.Admin.CreateUser(ctx, wayfarer.NewUser{AgencyID: ag, UserName: u.name, Type: wayfarer.UserTypeUser,
				BranchID: &b, Perms: wayfarer.Permissions{wayfarer.AreaPerson: u.perm}, Enabled: true, NonExpiringPassword: true}, searchPassword)
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
		for _, n := range []string{"VIP", "diet", "Seat"} {
			if f.tag[n], err = insertID(ctx, a, "INSERT INTO tag (agency_id, name) VALUES (?, ?)", ag, n); err != nil {
				return err
			}
		}
		for _, n := range []string{"NOEMM", "PROMO"} {
			if f.element[n], err = insertID(ctx, a, "INSERT INTO marketing_element (agency_id, code, name) VALUES (?, ?, ?)", ag, n, n); err != nil {
				return err
			}
		}
		main, harbor := ip(f.branch["Main"]), ip(f.branch["Harbor"])
		alice, mark, hana := ip(f.advisor["Alice Advisor"]), ip(f.advisor["Mark Mainwaring"]), ip(f.advisor["Hana Harbor"])
		person := func(last, first *string, created string, branch, advisor *int64, status int64) sqlstore.BulkPerson {
			c := at(created)
			return sqlstore.BulkPerson{LastName: last, FirstName: first, BranchID: branch, AdvisorID: advisor, ActiveStatus: status,
				Created: c, Modified: c.AddDate(0, 0, 30)}
		}
		p1 := person(sp("Abler"), sp("Ken"), "2024-01-10T10:00:00Z", main, alice, 1)
		p1.UniqueID, p1.BirthdayMonth, p1.BirthdayDay, p1.BirthdayYear = sp("U-1"), ip(12), ip(25), ip(1980)
		p1.BirthdayNote, p1.Rem = sp("Christmas"), sp("likes aisle seats")
		p1.Comms = []sqlstore.BulkComm{
			{Type: 1, Value: sp("+1 555 0100"), CountryDomain: sp("US"), CityArea: sp("555"), UserSpecific: sp("Home"), IsPrimary: true, PermitMarketing: true},
			{Type: 2, Value: sp("ken@example.com"), CountryDomain: sp("us"), IsPrimary: true},
		}
		p1.Cards = []sqlstore.BulkCard{
			{Type: 1, SubType: ip(1), Number: "VI 41-XXXX-1111", Expiration: sp("2027-12-31"), Description: sp("work"), NameOnCard: sp("KEN ABLER")},
			{Type: 2, SubType: ip(2), Number: "FF123", Expiration: sp("2025-06-30")},
		}
		p1.Tags = []sqlstore.BulkTag{{TagID: f.tag["VIP"], Value: sp("gold")}, {TagID: f.tag["diet"], Value: sp("veg")}}
		p1.ActionItems = []sqlstore.BulkActionItem{{Description: sp("call"), TriggerIndex: ip(1), TriggerFixedDate: sp("2026-12-01"),
			Date: sp("2026-12-01"), AppUserID: ip(f.user["agent"])}}
		p1.Profiles = []int64{f.client["Acme Travel Dept"]}
		p1.Marketing = []sqlstore.BulkMarketing{{ElementID: f.element["NOEMM"]}}

		p2 := person(sp("Abler"), sp("Hale"), "2024-02-10T10:00:00Z", main, mark, 1)
		p2.MiddleName, p2.UniqueID, p2.BirthdayMonth, p2.BirthdayDay, p2.BirthdayYear = sp("Nicole"), sp("U-2"), ip(1), ip(5), ip(1990)
		p2.Comms = []sqlstore.BulkComm{{Type: 2, Value: sp("hale@test.io"), IsPrimary: true, PermitMarketing: true}}
		p2.Cards = []sqlstore.BulkCard{{Type: 3, Number: "P9876543", Expiration: sp("2030-01-01"), NameOnCard: sp("HALE ABLER")}}
		p2.Tags = []sqlstore.BulkTag{{TagID: f.tag["VIP"], Value: sp("silver")}}
		done := at("2026-01-16T08:00:00Z")
		p2.ActionItems = []sqlstore.BulkActionItem{{Description: sp("send card"), TriggerIndex: ip(3), Date: sp("2026-01-15"),
			AppUserID: ip(f.user["admin"]), Completed: &done}}
		p2.Profiles = []int64{f.client["Acme Travel Dept"], f.client["Globex Corporate"]}

		p3 := person(sp("Able"), sp("Anna"), "2024-03-10T10:00:00Z", harbor, hana, 2)
		p3.MiddleName, p3.BirthdayMonth, p3.BirthdayDay = sp(""), ip(6), ip(15)
		p3.Comms = []sqlstore.BulkComm{{Type: 1, Value: sp("555-0199"), CityArea: sp("555"), PermitMarketing: true}}

		p4 := person(sp("Baker"), nil, "2024-04-10T10:00:00Z", harbor, nil, 0)
		p4.Comms = []sqlstore.BulkComm{{Type: 4, Value: sp("www.baker.com")}}
		p4.Tags = []sqlstore.BulkTag{{TagID: f.tag["Seat"]}}

		p5 := person(sp("O'Neil"), sp("Zoe"), "2024-05-10T10:00:00Z", nil, alice, 1)
		p5.BirthdayMonth, p5.BirthdayDay, p5.BirthdayYear = ip(1), ip(31), ip(1975)
		p5.Comms = []sqlstore.BulkComm{{Type: 2, Value: sp("zoe@example.org"), IsPrimary: true, PermitMarketing: true}, {Type: 3, Value: sp("@zoe")}}
		p5.Cards = []sqlstore.BulkCard{{Type: 2, SubType: ip(2), Number: "ZZ-9"}, {Type: 2, Number: "ZZ-10"}}
		p5.Marketing = []sqlstore.BulkMarketing{{ElementID: f.element["PROMO"]}}

		p6 := person(sp(""), sp("Bob"), "2024-06-10T10:00:00Z", main, alice, 1)
		p6.BirthdayMonth, p6.BirthdayDay, p6.BirthdayYear = ip(12), ip(1), ip(2000)
		p7 := person(sp("Ab%le"), sp("Pct"), "2024-07-10T10:00:00Z", main, alice, 1)
		p7.BirthdayMonth, p7.BirthdayDay = ip(3), ip(3)
		p8 := person(sp("A_bler"), sp("Under"), "2024-08-10T10:00:00Z", main, alice, 1)
		p9 := person(nil, sp("Nolast"), "2024-09-10T10:00:00Z", main, mark, 1)
		p9.BirthdayMonth = ip(12)

		ps := []sqlstore.BulkPerson{p1, p2, p3, p4, p5, p6, p7, p8, p9}
		if err := a.DB.InsertBulkPersons(ctx, ag, ps); err != nil {
			return err
		}
		for i, p := range ps {
			f.rec["P"+string(rune('1'+i))] = p.RecNo
		}
		f.cards["A"], f.cards["B"], f.cards["C"] = ps[0].Cards[0].RecNo, ps[0].Cards[1].RecNo, ps[1].Cards[0].RecNo
		f.cards["D"], f.cards["E"] = ps[4].Cards[0].RecNo, ps[4].Cards[1].RecNo
		o := []sqlstore.BulkPerson{person(sp("Abler"), sp("Other"), "2024-01-01T00:00:00Z", nil, nil, 1)}
		o[0].Comms = []sqlstore.BulkComm{{Type: 2, Value: sp("other@example.com"), IsPrimary: true, PermitMarketing: true}}
		if err := a.DB.InsertBulkPersons(ctx, other.ID, o); err != nil {
			return err
		}
		f.otherRec = o[0].RecNo
		return nil
	}
}

// eachSearch runs f on a server holding the fixture, on every engine.
func eachSearch(t *testing.T, f func(t *testing.T, s *testserver.Server, fx *searchFixture)) {
	t.Helper()
	fx := &searchFixture{}
	testserver.Each(t, testserver.Options{Seed: seedSearch(fx)}, func(t *testing.T, s *testserver.Server) {
		f(t, s, fx)
	})
}

// searchRows posts a search and decodes the 200 answer's rows; a 204 (no
// row matches) is no rows.
func searchRows(t *testing.T, s *testserver.Server, tok string, body any) []map[string]any {
	t.Helper()
	r := s.Do(t, "POST", "/personSearch", body, testserver.Bearer(tok)...)
	if noRows(r) {
		return []map[string]any{} // nothing matches: 204, no body
	}
	if r.Status != 200 {
		t.Fatalf("search %v: status %d: %s", body, r.Status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Fatalf("content type %q", ct)
	}
	var rows []map[string]any
	if err := json.Unmarshal(r.Body, &rows); err != nil {
		t.Fatalf("rows: %v: %s", err, r.Body)
	}
	return rows
}

// col lists one column of the rows, as strings ("" for a missing value).
func col(rows []map[string]any, name string) []string {
	out := []string{}
	for _, r := range rows {
		switch v := r[name].(type) {
		case nil:
			out = append(out, "")
		case string:
			out = append(out, v)
		default:
			b, _ := json.Marshal(v)
			out = append(out, string(b))
		}
	}
	return out
}

// except returns allNames without the given ones, in order.
func except(names ...string) []string {
	out := []string{}
	for _, n := range allNames {
		skip := false
		for _, x := range names {
			if x == n {
				skip = true
			}
		}
		if !skip {
			out = append(out, n)
		}
	}
	return out
}
