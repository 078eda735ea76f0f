package sqlstore_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// TestSearchDistinctOrder: a distinct search's rows come in the order of
// the first person that produced them, then of their values, whether the
// search walks its rows (search_distinct.go) or groups them all; a walk
// that stops inside a person's rows does not answer from them (that
// person's later rows may sort first).
func TestSearchDistinctOrder(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			db := openSearchDB(t, engine)
			w := newWorld(t, db)
			card := func(desc string) sqlstore.BulkCard {
				return sqlstore.BulkCard{Type: 2, Number: "L-" + desc, Description: i64str(desc)}
			}
			w.insert(t, db, w.agency, []sqlstore.BulkPerson{
				{LastName: i64str("Able"), Cards: []sqlstore.BulkCard{card("AX")}},
				{LastName: i64str("Baker"), Cards: []sqlstore.BulkCard{card("VI"), card("MC")}},
				{LastName: i64str("Cole"), Cards: []sqlstore.BulkCard{card("AX"), card("BA")}},
			})
			ctx, sc := context.Background(), wayfarer.Scope{AgencyID: w.agency}
			for _, tc := range []struct{ body, want string }{
				{`{"distinct":true,"includeCols":["cardDescription"]}`, "[AX MC VI BA]"},
				{`{"distinct":true,"includeCols":["cardDescription"],"startingRow":1,"rowCount":1}`, "[MC]"},
				{`{"distinct":true,"includeCols":["cardDescription"],"startingRow":2,"rowCount":5}`, "[VI BA]"},
				{`{"distinct":true,"includeCols":["cardDescription"],"topRows":3,"startingRow":1}`, "[MC VI]"},
			} {
				c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(tc.body))
				if err != nil {
					t.Fatal(err)
				}
				// 0: grouped; 2: the walk stops inside Baker's rows; 3 and
				// more: it reads Baker's.
				firstColumnEachWalk(t, db, tc.body, tc.want, []int64{0, 2, 3, 1000}, func() (*wayfarer.SearchResult, error) {
					return db.SearchPersons(ctx, sc, c)
				})
			}
		})
	}
}

// TestSearchDistinctWalkGrows: a walk whose first try holds too few
// distinct rows reads twice what they project next, not its whole budget
// (a distinct name's first page read 10,000 rows instead of 1,200: 4 →
// 33 ms at a million persons).
func TestSearchDistinctWalkGrows(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			db := openSearchDB(t, engine)
			w := newWorld(t, db)
			// 3,000 persons, ten of each last name, in name order.
			var ps []sqlstore.BulkPerson
			for i := range 3000 {
				ps = append(ps, sqlstore.BulkPerson{LastName: i64str(fmt.Sprintf("N%04d", i/10))})
			}
			w.insert(t, db, w.agency, ps)
			c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(`{"distinct":true,"includeCols":["lastName"],"rowCount":50}`))
			if err != nil {
				t.Fatal(err)
			}
			defer sqlstore.SetDistinctWalkForTest(db, 5000)()
			before := sqlstore.DistinctReadForTest(db)
			res, err := db.SearchPersons(context.Background(), wayfarer.Scope{AgencyID: w.agency}, c)
			if err != nil {
				t.Fatal(err)
			}
			// 300 rows hold 30 names; the next try reads 2 × 50 × 300 / 30.
			if read := sqlstore.DistinctReadForTest(db) - before; len(res.Rows) != 50 || res.Rows[49][0] != "N0049" || read != 300+1000 {
				t.Errorf("%d rows (the last %v), %d rows read; want 50 (N0049), 1,300 read", len(res.Rows), res.Rows[len(res.Rows)-1], read)
			}
		})
	}
}

// TestFlatSearchDistinctOrder: a flat search's distinct rows stand where
// they first appear (its order keys are unique: each row is its own
// record), walked or grouped alike.
func TestFlatSearchDistinctOrder(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			db := openSearchDB(t, engine)
			w := newWorld(t, db)
			var ps []sqlstore.BulkPerson
			for i, subject := range []string{"B", "A", "B", "C", "A"} {
				ps = append(ps, sqlstore.BulkPerson{LastName: i64str(fmt.Sprintf("P%d", i)),
					Activities: []sqlstore.BulkActivity{{Type: 1, Priority: 1, Subject: i64str(subject)}}})
			}
			w.insert(t, db, w.agency, ps)
			ctx := context.Background()
			reach := func(wayfarer.Area) (wayfarer.Scope, bool) { return wayfarer.Scope{AgencyID: w.agency}, true }
			for _, tc := range []struct{ body, want string }{
				{`{"distinct":true,"rowCount":10}`, "[B A C]"},
				{`{"distinct":true,"startingRow":1,"rowCount":1}`, "[A]"},
				{`{"distinct":true,"topRows":2,"startingRow":1}`, "[A]"},
			} {
				c, err := wire.DecodeActivitySearch(jsoncodec.Strict, []byte(tc.body))
				if err != nil {
					t.Fatal(err)
				}
				c.Columns = []wayfarer.SearchColumn{{Name: "subject", Type: wayfarer.ColString}}
				firstColumnEachWalk(t, db, tc.body, tc.want, []int64{0, 2, 1000}, func() (*wayfarer.SearchResult, error) {
					return db.SearchFlat(ctx, wayfarer.ActivitySearchCatalog, reach, c)
				})
			}
		})
	}
}

// firstColumnEachWalk runs search with each walk budget (0: grouped) and
// checks the first column of its rows against want.
func firstColumnEachWalk(t *testing.T, db *sqlstore.DB, body, want string, budgets []int64, search func() (*wayfarer.SearchResult, error)) {
	t.Helper()
	for _, budget := range budgets {
		restore := sqlstore.SetDistinctWalkForTest(db, budget)
		res, err := search()
		restore()
		if err != nil {
			t.Fatal(err)
		}
		var got []any
		for _, r := range res.Rows {
			got = append(got, r[0])
		}
		if fmt.Sprint(got) != want {
			t.Errorf("%s, walking %d rows: %v, want %s", body, budget, got, want)
		}
	}
}

// TestSearchDistinctDomain: a distinct search of one column with few
// values answers from a walk that stopped short once the walk has met every
// value the column takes in the agency (search_distinct_domain.go), and
// groups every row when a value may still come later; both give the rows
// the grouped statement gives.
func TestSearchDistinctDomain(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			db := openSearchDB(t, engine)
			w := newWorld(t, db)
			// P00 holds type 1, P01 no card, P03 type 2, the rest 1 or 2;
			// the other agency's type 4 is not this agency's value.
			var ps []sqlstore.BulkPerson
			for i := range 40 {
				p := sqlstore.BulkPerson{LastName: i64str(fmt.Sprintf("P%02d", i))}
				if i != 1 {
					p.BirthdayMonth = i64(int64(3 + i%2))
					p.Cards = []sqlstore.BulkCard{{Type: int64(1 + i%2), Number: fmt.Sprintf("L-%d", i)}}
				}
				ps = append(ps, p)
			}
			w.insert(t, db, w.agency, ps)
			w.insert(t, db, w.agency+1, []sqlstore.BulkPerson{{LastName: i64str("Other"), Cards: []sqlstore.BulkCard{{Type: 4, Number: "L-X"}}}})
			ctx, sc := context.Background(), wayfarer.Scope{AgencyID: w.agency}
			search := func(body string) func() (*wayfarer.SearchResult, error) {
				c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(body))
				if err != nil {
					t.Fatal(err)
				}
				return func() (*wayfarer.SearchResult, error) { return db.SearchPersons(ctx, sc, c) }
			}
			walked := func(body, want string, budget int64, byWalk bool) {
				t.Helper()
				before := sqlstore.DistinctWalkedForTest(db)
				firstColumnEachWalk(t, db, body, want, []int64{budget}, search(body))
				if got := sqlstore.DistinctWalkedForTest(db) > before; got != byWalk {
					t.Errorf("%s, walking %d rows: answered by the walk %v, want %v", body, budget, got, byWalk)
				}
			}
			const types = `{"distinct":true,"includeCols":["cardType"],"rowCount":5}`
			firstColumnEachWalk(t, db, types, "[1 <nil> 2]", []int64{0, 1000}, search(types))
			walked(types, "[1 <nil> 2]", 8, true) // 8 of 40 rows hold every value
			walked(`{"distinct":true,"includeCols":["cardType"],"startingRow":1,"rowCount":5}`, "[<nil> 2]", 8, true)
			// The whole answer, asked without rowCount (the store sees
			// none, or the service's bound of rows: rowCount past the
			// budget): the walk holds it once it met every value.
			const allTypes = `{"distinct":true,"includeCols":["cardType"]}`
			walked(allTypes, "[1 <nil> 2]", 8, true)
			walked(`{"distinct":true,"includeCols":["cardType"],"rowCount":100001}`, "[1 <nil> 2]", 8, true)
			walked(`{"distinct":true,"includeCols":["cardType"],"startingRow":1}`, "[<nil> 2]", 8, true)
			// Not so a column without listed values: every row is grouped.
			walked(`{"distinct":true,"includeCols":["lastName"],"startingRow":38}`, "[P38 P39]", 8, false)
			// A type only the last person holds: the walk of 8 rows cannot
			// tell, so every row is grouped.
			w.insert(t, db, w.agency, []sqlstore.BulkPerson{{LastName: i64str("Zed"), Cards: []sqlstore.BulkCard{{Type: 3, Number: "L-Z"}}}})
			walked(types, "[1 <nil> 2 3]", 8, false)
			walked(allTypes, "[1 <nil> 2 3]", 8, false)
			firstColumnEachWalk(t, db, allTypes, "[1 <nil> 2 3]", []int64{0}, search(allTypes))
			firstColumnEachWalk(t, db, types, "[1 <nil> 2 3]", []int64{0, 1000}, search(types))
			// A card filter joins the cards: its values only, and no row
			// without a card.
			const filtered = `{"distinct":true,"includeCols":["cardType"],"cardType":[1,2],"rowCount":5}`
			firstColumnEachWalk(t, db, filtered, "[1 2]", []int64{0}, search(filtered))
			walked(filtered, "[1 2]", 8, true)
			// A column of the person: P00 and P03 hold months 3 and 4
			// (the rest too), P01 and Zed none.
			const months = `{"distinct":true,"includeCols":["birthdayMonth"],"rowCount":5}`
			walked(months, "[3 <nil> 4]", 8, true)
			firstColumnEachWalk(t, db, months, "[3 <nil> 4]", []int64{0}, search(months))
		})
	}
}

// checkWalkOf8 runs person search body in scope sc grouped and walking 8
// rows, checks the first column of both answers against want, and whether
// the walk answered.
func checkWalkOf8(t *testing.T, db *sqlstore.DB, sc wayfarer.Scope, body, want string, byWalk bool) {
	t.Helper()
	c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	search := func() (*wayfarer.SearchResult, error) { return db.SearchPersons(context.Background(), sc, c) }
	firstColumnEachWalk(t, db, body, want, []int64{0}, search) // grouped: the reference answer
	before := sqlstore.DistinctWalkedForTest(db)
	firstColumnEachWalk(t, db, body, want, []int64{8}, search)
	if got := sqlstore.DistinctWalkedForTest(db) > before; got != byWalk {
		t.Errorf("%+v %s, walking 8 rows: answered by the walk %v, want %v", sc, body, got, byWalk)
	}
}

// TestSearchDistinctDomainScope: the values of the caller's own branch or
// advisors are the only ones its rows can hold, so a walk that met them
// answers (search_distinct_domain.go, scopedIDs), and one that did not
// groups every row; an unscoped caller waits for every value.
func TestSearchDistinctDomainScope(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			db := openSearchDB(t, engine)
			w := newWorld(t, db)
			branches, profiles := w.ids(w.branches, w.agency), w.ids(w.profiles, w.agency)
			// Every person in the first branch with the first advisor,
			// but the last one: the second branch and advisor.
			var ps []sqlstore.BulkPerson
			for i := range 30 {
				ps = append(ps, sqlstore.BulkPerson{LastName: i64str(fmt.Sprintf("P%02d", i)), BranchID: &branches[0], AdvisorID: &profiles[0]})
			}
			ps = append(ps, sqlstore.BulkPerson{LastName: i64str("Zed"), BranchID: &branches[1], AdvisorID: &profiles[1]})
			w.insert(t, db, w.agency, ps)
			check := func(sc wayfarer.Scope, body, want string, byWalk bool) {
				t.Helper()
				checkWalkOf8(t, db, sc, body, want, byWalk)
			}
			all := wayfarer.Scope{AgencyID: w.agency}
			branch := wayfarer.Scope{AgencyID: w.agency, OnlyBranch: true, BranchID: &branches[0]}
			other := wayfarer.Scope{AgencyID: w.agency, OnlyBranch: true, BranchID: &branches[1]}
			self := wayfarer.Scope{AgencyID: w.agency, OnlySelf: true, AdvisorIDs: []int64{profiles[0]}}
			const byBranch = `{"distinct":true,"includeCols":["branchRecNo"]}`
			const byAdvisor = `{"distinct":true,"includeCols":["advisorProfileRecNo"]}`
			check(all, byBranch, fmt.Sprint([]int64{branches[0], branches[1]}), false)
			check(branch, byBranch, fmt.Sprint([]int64{branches[0]}), true)
			check(other, byBranch, fmt.Sprint([]int64{branches[1]}), true)
			check(self, byAdvisor, fmt.Sprint([]int64{profiles[0]}), true)
			check(self, byBranch, fmt.Sprint([]int64{branches[0]}), false)
		})
	}
}

// TestSearchDistinctDomainLookups: a lookup column (a branch's, advisor's
// or user's name) lists the names of the values its column takes, so a
// walk that met them answers; the caller's scope narrows them as it does
// the recNos; skipLookup leaves only null.
func TestSearchDistinctDomainLookups(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			db := openSearchDB(t, engine)
			w := newWorld(t, db)
			branches, profiles, users := w.ids(w.branches, w.agency), w.ids(w.profiles, w.agency), w.ids(w.users, w.agency)
			// Nob has no branch, advisor or action item; P03 and Zed are
			// in the second branch with the second advisor, P05 and Zed
			// have the second user's action item; the rest the firsts.
			ps := []sqlstore.BulkPerson{{LastName: i64str("Nob")}}
			for i := range 30 {
				b, a, u := branches[0], profiles[0], users[0]
				if i == 3 {
					b, a = branches[1], profiles[1]
				}
				if i == 5 {
					u = users[1]
				}
				ps = append(ps, sqlstore.BulkPerson{LastName: i64str(fmt.Sprintf("P%02d", i)), BranchID: &b, AdvisorID: &a,
					ActionItems: []sqlstore.BulkActionItem{{Description: i64str("call"), AppUserID: &u}}})
			}
			ps = append(ps, sqlstore.BulkPerson{LastName: i64str("Zed"), BranchID: &branches[1], AdvisorID: &profiles[1],
				ActionItems: []sqlstore.BulkActionItem{{Description: i64str("call"), AppUserID: &users[1]}}})
			w.insert(t, db, w.agency, ps)
			check := func(sc wayfarer.Scope, body, want string, byWalk bool) {
				t.Helper()
				checkWalkOf8(t, db, sc, body, want, byWalk)
			}
			all := wayfarer.Scope{AgencyID: w.agency}
			branch := wayfarer.Scope{AgencyID: w.agency, OnlyBranch: true, BranchID: &branches[0]}
			self := wayfarer.Scope{AgencyID: w.agency, OnlySelf: true, AdvisorIDs: []int64{profiles[0]}}
			name := func(m map[int64]string, id int64) string { return m[id] }
			const byBranch = `{"distinct":true,"includeCols":["branchRecName"]}`
			const byUser = `{"distinct":true,"includeCols":["actionItemAssignedToAppUserId"]}`
			check(all, byBranch, fmt.Sprint([]any{nil, name(w.branches, branches[0]), name(w.branches, branches[1])}), true)
			check(all, `{"distinct":true,"includeCols":["advisorProfileName"]}`,
				fmt.Sprint([]any{nil, name(w.profiles, profiles[0]), name(w.profiles, profiles[1])}), true)
			check(branch, byBranch, fmt.Sprint([]string{name(w.branches, branches[0])}), true)
			check(self, `{"distinct":true,"includeCols":["advisorProfileName"]}`, fmt.Sprint([]string{name(w.profiles, profiles[0])}), true)
			// The branches' names of an OnlySelf caller are not narrowed:
			// the second branch's never comes, so every row is grouped.
			check(self, byBranch, fmt.Sprint([]string{name(w.branches, branches[0])}), false)
			check(all, byUser, fmt.Sprint([]any{nil, name(w.users, users[0]), name(w.users, users[1])}), true)
			check(all, `{"distinct":true,"includeCols":["actionItemAssignedToAppUserRecNo"]}`, fmt.Sprint([]any{nil, users[0], users[1]}), true)
			// An action item filter joins the action items: no row without.
			check(all, `{"distinct":true,"includeCols":["actionItemAssignedToAppUserId"],"actionItemCompleted":false}`,
				fmt.Sprint([]string{name(w.users, users[0]), name(w.users, users[1])}), true)
			check(all, `{"distinct":true,"includeCols":["branchRecName"],"skipLookup":true}`, "[<nil>]", true)
			// A recNo beside its own name: each recNo with its name.
			check(all, `{"distinct":true,"includeCols":["branchRecNo","branchRecName"]}`, fmt.Sprint([]any{nil, branches[0], branches[1]}), true)
			check(all, `{"distinct":true,"includeCols":["actionItemAssignedToAppUserId","actionItemAssignedToAppUserRecNo"],"rowCount":10}`,
				fmt.Sprint([]any{nil, name(w.users, users[0]), name(w.users, users[1])}), true)
			check(branch, `{"distinct":true,"includeCols":["branchRecName","advisorProfileName","branchRecNo"]}`,
				fmt.Sprint([]string{name(w.branches, branches[0])}), false) // the second advisor never comes in the branch
		})
	}
}

// TestSearchDistinctDomainProduct: a distinct search of several listed
// columns lists every combination of their values; a walk that met them
// all answers, with the rows the grouped statement gives, and a
// combination no row holds leaves the search grouped.
func TestSearchDistinctDomainProduct(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			db := openSearchDB(t, engine)
			w := newWorld(t, db)
			branches := w.ids(w.branches, w.agency)
			// A0-A5 hold each branch with card type 1, 2 and none; the
			// thirty after them repeat the first.
			var ps []sqlstore.BulkPerson
			for i := range 36 {
				p := sqlstore.BulkPerson{LastName: i64str(fmt.Sprintf("A%02d", i)), BranchID: &branches[0]}
				if i < 6 {
					p.BranchID = &branches[i/3]
				}
				if typ := i % 3; i >= 6 || typ < 2 {
					p.Cards = []sqlstore.BulkCard{{Type: int64(1 + typ%2), Number: fmt.Sprintf("L-%d", i)}}
				}
				ps = append(ps, p)
			}
			w.insert(t, db, w.agency, ps)
			ctx, sc := context.Background(), wayfarer.Scope{AgencyID: w.agency}
			check := func(body string, rows int, byWalk bool) {
				t.Helper()
				c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(body))
				if err != nil {
					t.Fatal(err)
				}
				answer := func(budget int64) *wayfarer.SearchResult {
					defer sqlstore.SetDistinctWalkForTest(db, budget)()
					res, err := db.SearchPersons(ctx, sc, c)
					if err != nil {
						t.Fatal(err)
					}
					return res
				}
				grouped := answer(0)
				before := sqlstore.DistinctWalkedForTest(db)
				walked := answer(8)
				if got := sqlstore.DistinctWalkedForTest(db) > before; got != byWalk {
					t.Errorf("%s, walking 8 rows: answered by the walk %v, want %v", body, got, byWalk)
				}
				if len(grouped.Rows) != rows || !reflect.DeepEqual(grouped.Rows, walked.Rows) {
					t.Errorf("%s: grouped %v, walking 8 rows %v, want %d rows", body, grouped.Rows, walked.Rows, rows)
				}
			}
			const both = `{"distinct":true,"includeCols":["branchRecNo","cardType"]}`
			check(both, 6, true)
			check(`{"distinct":true,"includeCols":["cardType","branchRecName"],"rowCount":50}`, 6, true)
			// A type nobody in the second branch holds: (second branch,
			// 3) never comes, so every row is grouped.
			w.insert(t, db, w.agency, []sqlstore.BulkPerson{{LastName: i64str("Zed"), BranchID: &branches[0], Cards: []sqlstore.BulkCard{{Type: 3, Number: "L-Z"}}}})
			check(both, 7, false)
		})
	}
}

// TestFlatSearchDistinctDomain: the same for a flat search's listed column
// (an activity's type).
func TestFlatSearchDistinctDomain(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			db := openSearchDB(t, engine)
			w := newWorld(t, db)
			var ps []sqlstore.BulkPerson
			for i := range 20 {
				ps = append(ps, sqlstore.BulkPerson{LastName: i64str(fmt.Sprintf("P%02d", i)),
					Activities: []sqlstore.BulkActivity{{Type: int64(2 - i%2), Priority: 1, Subject: i64str("S")}}})
			}
			w.insert(t, db, w.agency, ps)
			ctx := context.Background()
			reach := func(wayfarer.Area) (wayfarer.Scope, bool) { return wayfarer.Scope{AgencyID: w.agency}, true }
			const body = `{"distinct":true,"rowCount":5}`
			c, err := wire.DecodeActivitySearch(jsoncodec.Strict, []byte(body))
			if err != nil {
				t.Fatal(err)
			}
			c.Columns = []wayfarer.SearchColumn{{Name: "type", Type: wayfarer.ColShort}}
			search := func() (*wayfarer.SearchResult, error) {
				return db.SearchFlat(ctx, wayfarer.ActivitySearchCatalog, reach, c)
			}
			firstColumnEachWalk(t, db, body, "[2 1]", []int64{0, 1000}, search)
			before := sqlstore.DistinctWalkedForTest(db)
			firstColumnEachWalk(t, db, body, "[2 1]", []int64{6}, search) // 6 of 20 rows
			if sqlstore.DistinctWalkedForTest(db) == before {
				t.Errorf("%s, walking 6 rows: grouped every row, want the walk's answer", body)
			}
		})
	}
}
