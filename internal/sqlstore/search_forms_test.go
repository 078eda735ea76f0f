package sqlstore_test

// How SQLite runs a search's filters at scale: the plans of searches over a
// few thousand persons with statistics (ANALYZE), and their rows.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// formsWorld is a SQLite database of 4,000 persons named in recNo order,
// each made by person(i), analyzed, with the probe's limit at 100 (where a
// filter that 100 persons pass counts as common).
func formsWorld(t *testing.T, person func(w *world, i int) sqlstore.BulkPerson) (*sqlstore.DB, *world, []sqlstore.BulkPerson) {
	db := openSearchDB(t, "sqlite")
	w := newWorld(t, db)
	var ps []sqlstore.BulkPerson
	for i := range 4000 {
		p := person(w, i)
		p.LastName = i64str(fmt.Sprintf("Name%05d", i))
		ps = append(ps, p)
	}
	w.insert(t, db, w.agency, ps)
	if _, err := db.Primary().Exec("ANALYZE"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sqlstore.SetChildProbeLimitForTest(db, 100))
	return db, w, ps
}

// planAndRecNos runs the first page (50) of the search with filter, and
// returns its plan, one line, and the recNos of its rows.
func planAndRecNos(t *testing.T, db *sqlstore.DB, w *world, filter string) (string, []int64) {
	t.Helper()
	ctx, sc := context.Background(), wayfarer.Scope{AgencyID: w.agency}
	c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(`{"includeCols":["recNo"],"rowCount":50,`+filter+`}`))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := sqlstore.ExplainSearchForTest(ctx, db, sc, c)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(plan, "; "), searchRecNos(t, db, sc, c)
}

// searchRecNos is the recNos of search c's rows (recNo its first column).
func searchRecNos(t *testing.T, db *sqlstore.DB, sc wayfarer.Scope, c *wayfarer.SearchCriteria) []int64 {
	t.Helper()
	res, err := db.SearchPersons(context.Background(), sc, c)
	if err != nil {
		t.Fatal(err)
	}
	var recNos []int64
	for _, r := range res.Rows {
		recNos = append(recNos, r[0].(int64))
	}
	return recNos
}

// firstPassing is the recNos of the first 50 persons of ps passing pass.
func firstPassing(ps []sqlstore.BulkPerson, pass func(i int) bool) []int64 {
	var out []int64
	for i, p := range ps {
		if pass(i) && len(out) < 50 {
			out = append(out, p.RecNo)
		}
	}
	return out
}

// TestSearchChildFiltersTestedPerPerson: a child filter that many persons
// pass is tested person by person as the persons are walked in name order.
// A plain EXISTS became a join for which SQLite first read the whole child
// table into a Bloom filter: every open action item of the agency before
// the first row (167 ms against 4 at a million persons).
func TestSearchChildFiltersTestedPerPerson(t *testing.T) {
	// SQLite builds the filter where it expects to probe more often than
	// the child table has rows: children for every fourth person.
	now := time.Now()
	db, w, ps := formsWorld(t, func(w *world, i int) sqlstore.BulkPerson {
		p := sqlstore.BulkPerson{Created: now, Modified: now}
		if i%4 == 0 {
			p.ActionItems = []sqlstore.BulkActionItem{{Date: i64str("2026-12-01")}}
			p.Tags = []sqlstore.BulkTag{{TagID: w.ids(w.tags, w.agency)[0]}}
			p.Marketing = []sqlstore.BulkMarketing{{ElementID: w.ids(w.elements, w.agency)[0]}}
			p.Profiles = []int64{w.ids(w.profiles, w.agency)[0]}
		}
		return p
	})
	for _, filter := range []string{
		`"actionItemCompleted":false`,
		`"actionItemDateFrom":{"date":"2026-11-01"}`,
		fmt.Sprintf(`"marketing":[{"marketingElementRecNo":%d}]`, w.ids(w.elements, w.agency)[0]),
		fmt.Sprintf(`"tags":[{"recNo":%d}]`, w.ids(w.tags, w.agency)[0]),
		`"profileRecNo":{"compareCondition":4}`,
		fmt.Sprintf(`"profileRecNo":{"value":[%d]}`, w.ids(w.profiles, w.agency)[0]),
	} {
		plan, got := planAndRecNos(t, db, w, filter)
		if strings.Contains(plan, "BLOOM FILTER") || !strings.Contains(plan, "person_search_name") {
			t.Errorf("%s: plan %s, want a walk of the name index testing each person", filter, plan)
		}
		if want := firstPassing(ps, func(i int) bool { return i%4 == 0 }); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", filter, got, want)
		}
	}
}

// TestSearchChildFilterFormByPage: a child filter passing more rows than
// the probe's limit is tested person by person for a page of 50, but
// starts from its rows for a page that reaches further than the rows it
// passes (a large page, the whole answer): walking would test every person
// (a whole answer with a card filter at a million persons: 4.5 s against
// 0.3 s). Distinct keeps the walk (it reads small pages first). The rows
// are the same either way.
func TestSearchChildFilterFormByPage(t *testing.T) {
	// 6,000 persons (the package's probe limit: 2,000), every other one
	// with an open action item.
	db := openSearchDB(t, "sqlite")
	w := newWorld(t, db)
	var ps []sqlstore.BulkPerson
	for i := range 6000 {
		p := sqlstore.BulkPerson{LastName: i64str(fmt.Sprintf("Name%05d", i))}
		if i%2 == 0 {
			p.ActionItems = []sqlstore.BulkActionItem{{Date: i64str("2026-12-01")}}
		}
		ps = append(ps, p)
	}
	w.insert(t, db, w.agency, ps)
	if _, err := db.Primary().Exec("ANALYZE"); err != nil {
		t.Fatal(err)
	}
	ctx, sc := context.Background(), wayfarer.Scope{AgencyID: w.agency}
	var passing []int64
	for i, p := range ps {
		if i%2 == 0 {
			passing = append(passing, p.RecNo)
		}
	}
	for _, tc := range []struct {
		paging string
		from   bool // starts from the filter's rows
		rows   []int64
	}{
		{`"rowCount":50`, false, passing[:50]},
		{`"rowCount":200,"startingRow":2700`, false, passing[2700:2900]},
		{`"rowCount":1000,"startingRow":2500`, true, passing[2500:]},
		{`"rowCount":4000`, true, passing},
		{`"topRows":3500`, true, passing},
		{`"startingRow":2990`, true, passing[2990:]}, // the whole answer
		{`"distinct":true`, false, passing},
	} {
		body := `{"includeCols":["recNo"],"actionItemCompleted":false,` + tc.paging + `}`
		c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		q, _, err := sqlstore.SearchSQLForTest(ctx, db, sc, c)
		if err != nil {
			t.Fatal(err)
		}
		if from := strings.Contains(q, "p.rec_no IN (SELECT"); from != tc.from {
			t.Errorf("%s: starts from the filter's rows %v, want %v: %s", body, from, tc.from, q)
		}
		if got := searchRecNos(t, db, sc, c); !slices.Equal(got, tc.rows) {
			t.Errorf("%s: %d rows %v..., want %d", body, len(got), got[:min(len(got), 5)], len(tc.rows))
		}
	}
}

// TestSearchPersonFilterForms: a filter on the person's own columns that an
// index serves is sized up first: few persons passing, the search starts
// from them (a creation-time range nobody passed walked every person: 3.4
// s at a million); many, the persons are walked in name order and each is
// tested (birthdayMonth 12 sorted 83,000 persons: 268 ms). The rows are
// the same either way (the model test draws both forms).
func TestSearchPersonFilterForms(t *testing.T) {
	now := time.Now().UTC()
	db, w, ps := formsWorld(t, func(w *world, i int) sqlstore.BulkPerson {
		p := sqlstore.BulkPerson{Created: now, Modified: now, BirthdayMonth: i64(int64(i%12 + 1)), BirthdayDay: i64(int64(i%28 + 1))}
		if i%400 == 7 { // ten persons created in 2001
			p.Created = time.Date(2001, 6, 1, 0, 0, 0, 0, time.UTC)
		}
		return p
	})
	cases := []struct {
		filter string
		pass   func(i int) bool
		start  string // the index the plan starts from; the name index: a walk without a sort
	}{
		{`"createDateTimeTo":{"date":"2001-12-31"}`, func(i int) bool { return i%400 == 7 }, "person_search_created"},
		{`"birthdayMonth":{"value":[12]}`, func(i int) bool { return i%12 == 11 }, "person_search_name"},
		{`"birthdayMonthFrom":12,"birthdayDayFrom":20,"birthdayMonthTo":1,"birthdayDayTo":10`, func(i int) bool {
			m, d := i%12+1, i%28+1
			return m == 12 && d >= 20 || m == 1 && d <= 10
		}, "person_search_name"},
		{`"birthdayMonthFrom":2,"birthdayDayFrom":27,"birthdayMonthTo":2,"birthdayDayTo":28`, func(i int) bool {
			return i%12+1 == 2 && i%28+1 >= 27
		}, "person_search_birthday"},
	}
	for _, tc := range cases {
		plan, got := planAndRecNos(t, db, w, tc.filter)
		if walk := tc.start == "person_search_name"; !strings.Contains(plan, tc.start) || strings.Contains(plan, "TEMP B-TREE") == walk {
			t.Errorf("%s: plan %s, want it to start from %s", tc.filter, plan, tc.start)
		}
		if want := firstPassing(ps, tc.pass); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", tc.filter, got, want)
		}
	}
}

// TestSearchUnindexedCommFilters: a communication filter no index serves
// (a fragment shorter than a trigram, userSpecific) is sized up by listing
// its matches: few, the search starts from them; many, the persons are
// walked and each tested. Both give the filter's rows. A blank value has
// an index: the folded value's.
func TestSearchUnindexedCommFilters(t *testing.T) {
	db, w, ps := formsWorld(t, func(w *world, i int) sqlstore.BulkPerson {
		p := sqlstore.BulkPerson{Comms: []sqlstore.BulkComm{{Type: 1, Value: i64str(fmt.Sprintf("+1 555 %04d", i))},
			{Type: 2, Value: i64str(fmt.Sprintf("name%d@example.org", i))}}}
		if i%1000 == 3 {
			p.Comms[1].UserSpecific = i64str("VIP desk")
		}
		if i%1000 == 5 {
			p.Comms = append(p.Comms, sqlstore.BulkComm{Type: 3, Value: i64str("")})
		}
		return p
	})
	ctx, sc := context.Background(), wayfarer.Scope{AgencyID: w.agency}
	for _, tc := range []struct {
		filter     string
		pass       func(i int) bool
		candidates bool
	}{
		{`"commValue":{"value":["am"],"compareCondition":6}`, func(int) bool { return true }, false},
		{`"commValue":{"value":["99"],"compareCondition":6}`, func(i int) bool { return strings.Contains(fmt.Sprint(i), "99") }, false},
		{`"commValueUserSpecific":{"value":["vip"],"compareCondition":5}`, func(i int) bool { return i%1000 == 3 }, true},
		{`"commValueUserSpecific":{"value":["nobody"]}`, func(int) bool { return false }, true},
		{`"commValueUserSpecific":{"value":["ip D"],"compareCondition":6}`, func(i int) bool { return i%1000 == 3 }, true},
		// a blank value is found through the value index, as the folded
		// value's null or empty string
		{`"commValue":{"compareCondition":3}`, func(i int) bool { return i%1000 == 5 }, false},
	} {
		c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(`{"includeCols":["recNo"],"rowCount":50,`+tc.filter+`}`))
		if err != nil {
			t.Fatal(err)
		}
		q, _, err := sqlstore.SearchSQLForTest(ctx, db, sc, c)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(q, "cm.rec_no IN (SELECT"); got != tc.candidates {
			t.Errorf("%s: from the listed communications %v, want %v: %s", tc.filter, got, tc.candidates, q)
		}
		plan, got := planAndRecNos(t, db, w, tc.filter)
		if want := firstPassing(ps, tc.pass); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", tc.filter, got, want)
		}
		if strings.Contains(tc.filter, `"compareCondition":3`) && !strings.Contains(plan, "communication_search_value") {
			t.Errorf("%s: plan %s, want the value index", tc.filter, plan)
		}
	}
}

// TestSearchCommStartingWithForms: a communication value StartingWith is
// sized up and listed through the value index, whose range holds exactly
// its rows, not through the trigrams' matches ("1 5", which every phone
// number holds and nobody's value starts with, read every phone twice).
func TestSearchCommStartingWithForms(t *testing.T) {
	db, w, ps := formsWorld(t, func(w *world, i int) sqlstore.BulkPerson {
		return sqlstore.BulkPerson{Comms: []sqlstore.BulkComm{{Type: 1, Value: i64str(fmt.Sprintf("+1 555 %04d", i))},
			{Type: 2, Value: i64str(fmt.Sprintf("name%d@example.org", i))}}}
	})
	ctx, sc := context.Background(), wayfarer.Scope{AgencyID: w.agency}
	for _, tc := range []struct {
		prefix string
		pass   func(i int) bool
		few    bool // more than 2,000 trigram matches, at most the probe's 100 rows: the IN form
	}{
		{"1 5", func(int) bool { return false }, true},
		{"+1 5", func(int) bool { return true }, false},
		// fewer trigram matches: the search starts from them, as before
		{"Name123", func(i int) bool { return strings.HasPrefix(fmt.Sprint(i), "123") }, false},
		{"name12", func(i int) bool { return strings.HasPrefix(fmt.Sprint(i), "12") }, false},
	} {
		filter := `"commValue":{"value":["` + tc.prefix + `"],"compareCondition":5}`
		c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(`{"includeCols":["recNo"],"rowCount":50,`+filter+`}`))
		if err != nil {
			t.Fatal(err)
		}
		q, _, err := sqlstore.SearchSQLForTest(ctx, db, sc, c)
		if err != nil {
			t.Fatal(err)
		}
		in := strings.Contains(q, "p.rec_no IN (SELECT cm.person_id FROM communication cm WHERE") && !strings.Contains(q, "json_each")
		if in != tc.few || strings.Contains(q, "MATCH") {
			t.Errorf("%s: IN form through the value index %v, want %v: %s", tc.prefix, in, tc.few, q)
		}
		plan, got := planAndRecNos(t, db, w, filter)
		if want := firstPassing(ps, tc.pass); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", tc.prefix, got, want)
		}
		if tc.few && !strings.Contains(plan, "communication_search_value") {
			t.Errorf("%s: plan %s, want the value index", tc.prefix, plan)
		}
	}
}

// TestSearchCardFilterLeads: a card filter of several conditions is sized
// up one condition at a time first; one that few cards pass alone leads
// the IN form, which reads the cards through its index (SQLite, without
// histograms, read the expiry's index for a subType nobody has: half the
// cards, to find none). Without such a condition the filter is sized up
// whole, as before. The rows are the filter's either way.
func TestSearchCardFilterLeads(t *testing.T) {
	db, w, ps := formsWorld(t, func(w *world, i int) sqlstore.BulkPerson {
		sub := int64(1 + i%3)
		return sqlstore.BulkPerson{Cards: []sqlstore.BulkCard{
			{Type: 2, SubType: &sub, Number: fmt.Sprintf("L-%d", i), Expiration: i64str("2030-01-01")},
			{Type: 1, Number: fmt.Sprintf("4111-%d", i), Expiration: i64str(fmt.Sprintf("%d-06-30", 2026+i%3))}}}
	})
	for _, tc := range []struct {
		filter string
		pass   func(i int) bool
		lead   string // the index the IN form reads the cards by; "" none (EXISTS, or IN without a lead)
	}{
		{`"cardSubType":{"value":[9]},"cardExpirationDateFrom":{"date":"2028-01-01"}`, func(int) bool { return false }, "card_search_sub_type"},
		{`"cardType":[3],"cardExpirationDateFrom":{"date":"2027-01-01"}`, func(int) bool { return false }, "card_search_type"},
		{`"cardType":[2],"cardSubType":{"value":[2]}`, func(i int) bool { return i%3 == 1 }, ""}, // 1,333 cards
		{`"cardType":[1],"cardSubType":{"value":[3]}`, func(int) bool { return false }, ""},      // none, but neither alone
		{`"cardSubType":{"value":[3]},"cardExpirationDateTo":{"date":"2026-12-31"}`, func(int) bool { return false }, ""},
	} {
		plan, got := planAndRecNos(t, db, w, tc.filter)
		if want := firstPassing(ps, tc.pass); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", tc.filter, got, want)
		}
		if tc.lead != "" && (!strings.Contains(plan, "LIST SUBQUERY") || !strings.Contains(plan, tc.lead)) {
			t.Errorf("%s: plan %s, want the IN form through %s", tc.filter, plan, tc.lead)
		}
		// the others are tested on the lead's rows: unindexed
		c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(`{"includeCols":["recNo"],"rowCount":50,`+tc.filter+`}`))
		if err != nil {
			t.Fatal(err)
		}
		q, _, err := sqlstore.SearchSQLForTest(context.Background(), db, wayfarer.Scope{AgencyID: w.agency}, c)
		if err != nil {
			t.Fatal(err)
		}
		if led := strings.Contains(q, "+(c."); led != (tc.lead != "") {
			t.Errorf("%s: conditions unindexed beside a lead %v, want %v: %s", tc.filter, led, tc.lead != "", q)
		}
	}
}

// TestSearchShownGroupFilterForms: a filter on a child group the search
// shows is its inner join's condition. When many rows pass, the persons are
// walked in name order and their children joined (SQLite started from
// every passing card and sorted them: cards expiring from today with
// cardType shown, 4.5 s at a million persons); when few pass, the search
// starts from their persons.
func TestSearchShownGroupFilterForms(t *testing.T) {
	db, w, ps := formsWorld(t, func(w *world, i int) sqlstore.BulkPerson {
		cards := []sqlstore.BulkCard{{Type: 1, Number: fmt.Sprintf("L-%d", i)}}
		if i%400 == 7 {
			cards = append(cards, sqlstore.BulkCard{Type: 3, Number: fmt.Sprintf("M-%d", i)})
		}
		return sqlstore.BulkPerson{Cards: cards}
	})
	ctx, sc := context.Background(), wayfarer.Scope{AgencyID: w.agency}
	for _, tc := range []struct {
		filter string
		pass   func(i int) bool
		walks  bool
	}{
		{`"cardType":[1]`, func(int) bool { return true }, true},
		{`"cardType":[3]`, func(i int) bool { return i%400 == 7 }, false}, // 10 cards
	} {
		c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(`{"includeCols":["recNo","cardType"],"rowCount":50,`+tc.filter+`}`))
		if err != nil {
			t.Fatal(err)
		}
		plan, err := sqlstore.ExplainSearchForTest(ctx, db, sc, c)
		if err != nil {
			t.Fatal(err)
		}
		if walks := strings.Contains(plan[0], "person_search_name"); walks != tc.walks {
			t.Errorf("%s: plan %q: walks the name index %v, want %v", tc.filter, plan, walks, tc.walks)
		}
		got := searchRecNos(t, db, sc, c)
		if want := firstPassing(ps, tc.pass); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", tc.filter, got, want)
		}
	}
}

// TestSearchScopeForms: the caller's scope is sized up as a person filter
// is (search_scope.go): an agent whose advisor holds most persons walks
// them in name order, testing the scope from the name index, even for one
// row (SQLite sorted every person of the advisor for it: 0.3 s at a
// million); an agent whose advisor holds a few starts from them and sorts
// them (it walked the whole name index for a page of 50: 0.1 s at a
// million). The rows are the same either way (the model test draws both
// forms).
func TestSearchScopeForms(t *testing.T) {
	var advisors []int64
	db, w, ps := formsWorld(t, func(w *world, i int) sqlstore.BulkPerson {
		advisors = w.ids(w.profiles, w.agency)[:2]
		branch := w.ids(w.branches, w.agency)[0]
		advisor := &advisors[0]
		if i%400 == 7 { // ten persons
			advisor = &advisors[1]
		}
		return sqlstore.BulkPerson{AdvisorID: advisor, BranchID: &branch}
	})
	ctx := context.Background()
	for _, tc := range []struct {
		advisor  int64
		body     string
		form     string // in the statement
		sorted   bool   // the plan sorts (starts from the few)
		pass     func(i int) bool
		rowCount int
	}{
		{advisors[0], `{"includeCols":["recNo"],"rowCount":1}`, "+p.advisor_profile_id = ?", false, func(i int) bool { return i%400 != 7 }, 1},
		{advisors[0], `{"includeCols":["recNo"],"rowCount":50}`, "+p.advisor_profile_id = ?", false, func(i int) bool { return i%400 != 7 }, 50},
		{advisors[1], `{"includeCols":["recNo"],"rowCount":50}`, "p.rec_no IN (SELECT fp.rec_no FROM person fp", true, func(i int) bool { return i%400 == 7 }, 50},
		{advisors[1], `{"includeCols":["recNo"],"rowCount":1}`, "p.rec_no IN (SELECT fp.rec_no FROM person fp", true, func(i int) bool { return i%400 == 7 }, 1},
		// An advisor filter narrows the walked scope: another advisor's
		// passes nobody at once, not at the end of the walk.
		{advisors[0], fmt.Sprintf(`{"includeCols":["recNo"],"AdvisorProfileRecNo":{"value":[%d]},"rowCount":50}`, advisors[1]),
			"AND (1 = 0 AND +p.branch_id = ?)", true, func(int) bool { return false }, 50}, // the filter, ten persons: its IN form
		{advisors[0], fmt.Sprintf(`{"includeCols":["recNo"],"AdvisorProfileRecNo":{"value":[%d,%d]},"rowCount":50}`, advisors[0], advisors[1]),
			"+p.advisor_profile_id = ?", false, func(i int) bool { return i%400 != 7 }, 50},
	} {
		sc := wayfarer.Scope{AgencyID: w.agency, OnlySelf: true, AdvisorIDs: []int64{tc.advisor}, OnlyBranch: true, BranchID: &w.ids(w.branches, w.agency)[0]}
		c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		query, _, err := sqlstore.SearchSQLForTest(ctx, db, sc, c)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := sqlstore.ExplainSearchForTest(ctx, db, sc, c)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(query, tc.form) || strings.Contains(strings.Join(plan, "; "), "TEMP B-TREE") != tc.sorted {
			t.Errorf("advisor %d %s: %s\nplan %v, want %q, sorted %v", tc.advisor, tc.body, query, plan, tc.form, tc.sorted)
		}
		res, err := db.SearchPersons(ctx, sc, c)
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, r := range res.Rows {
			got = append(got, r[0].(int64))
		}
		if want := firstPassing(ps, tc.pass); !slices.Equal(got, want[:min(tc.rowCount, len(want))]) {
			t.Errorf("advisor %d %s: %v, want %v", tc.advisor, tc.body, got, want)
		}
	}
}
