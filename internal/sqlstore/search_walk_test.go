package sqlstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// TestSearchBoundedWalk: a person search whose commValue filter passes
// many communications answers what it answers starting from the matching
// communications, however its bounded walk (search_walk.go) ends: with the
// page, short of it (matches late in the alphabet), past the budget,
// through every person, or not at all for persons without a last name; a
// count, continuations, another filter and rows of a child group besides.
func TestSearchBoundedWalk(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			db := openSearchDB(t, engine)
			w := newWorld(t, db)
			scope := wayfarer.Scope{AgencyID: w.agency}
			ctx := context.Background()
			var ps []sqlstore.BulkPerson
			person := func(last *string, first, email string) {
				ps = append(ps, sqlstore.BulkPerson{LastName: last, FirstName: i64str(first), ActiveStatus: 1,
					Created: time.Now(), Modified: time.Now(),
					Comms: []sqlstore.BulkComm{{Type: 2, Value: i64str(email), IsPrimary: true}}})
			}
			// In name order: 40 Adams and 40 Bakers, none of whose
			// addresses holds "oung", then 12 Youngs.
			for i := range 40 {
				person(i64str("Adams"), fmt.Sprintf("A%02d", i), fmt.Sprintf("adams.%d@mail.example", i))
				person(i64str("Baker"), fmt.Sprintf("B%02d", i), fmt.Sprintf("baker.%d@post.example", i))
			}
			for i := range 12 {
				person(i64str("Young"), fmt.Sprintf("Y%02d", i), fmt.Sprintf("young.%d@mail.example", i))
			}
			w.insert(t, db, w.agency, ps)

			// search runs body with every commValue filter counted as
			// common and a walk of budget persons (0: the package's
			// budget, and PostgreSQL's own choice), and returns how the
			// walks ended; want is body run from the matches (the
			// default limits on this small table).
			search := func(body, continuation string, budget int64) (*wayfarer.SearchResult, []sqlstore.WalkOutcome) {
				t.Helper()
				c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(body))
				if err != nil {
					t.Fatalf("%s: %v", body, err)
				}
				c.Continuation = continuation
				var seen []sqlstore.WalkOutcome
				see := func(o sqlstore.WalkOutcome) { seen = append(seen, o) }
				defer sqlstore.SetChildProbeLimitForTest(db, 1)()
				defer sqlstore.SetTrigramLimitForTest(db, 1)()
				if budget > 0 {
					defer sqlstore.SetWalkBudgetForTest(db, budget, see)()
				} else { // the package's budget
					defer sqlstore.SetWalkObserverForTest(db, see)()
				}
				res, err := db.SearchPersons(ctx, scope, c)
				if err != nil {
					t.Fatalf("%s: %v", body, err)
				}
				return res, seen
			}
			want := func(body string) *wayfarer.SearchResult {
				t.Helper()
				c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(body))
				if err != nil {
					t.Fatal(err)
				}
				res, err := db.SearchPersons(ctx, scope, c)
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			body := func(fragment, more string) string {
				if !strings.Contains(more, "includeCols") {
					more += `,"includeCols":["recNo","name"]`
				}
				return `{"commValue":{"value":["` + fragment + `"],"compareCondition":6}` + more + `}`
			}
			check := func(b string, budget int64, outcome sqlstore.WalkOutcome, rows int) {
				t.Helper()
				got, seen := search(b, "", budget)
				if !slices.Equal(seen, []sqlstore.WalkOutcome{outcome}) {
					t.Errorf("%s: the walk ended %v, want %v", b, seen, outcome)
				}
				if exp := want(b); !reflect.DeepEqual(got, exp) || len(got.Rows) != rows {
					t.Errorf("%s:\ngot  %+v\nwant %+v (%d rows)", b, got, exp, rows)
				}
			}
			check(body("mail.example", `,"rowCount":5`), 10, sqlstore.WalkPage, 5)
			check(body("mail.example", `,"rowCount":5,"includeCols":["recNo","name","summaryCount"]`), 10, sqlstore.WalkPage, 5)
			check(body("oung", `,"rowCount":5`), 10, sqlstore.WalkShort, 5)
			check(body("post.example", `,"rowCount":5,"startingRow":3`), 10, sqlstore.WalkShort, 5)
			check(body("oung", `,"rowCount":5,"startingRow":8`), 10, sqlstore.WalkPastPage, 4)
			check(body("oung", `,"rowCount":50`), 1000, sqlstore.WalkAll, 12)
			// Rows of a child group: a person's rows come together.
			check(body("oung", `,"rowCount":5,"includeCols":["recNo","name","cardNumber","tagValue"]`), 10, sqlstore.WalkShort, 5)
			check(body("mail.example", `,"rowCount":5,"includeCols":["recNo","actionItemDescription"]`), 10, sqlstore.WalkPage, 5)
			// Too many matches to start from: the walk as before.
			restoreList := sqlstore.SetCommListLimitForTest(db, 3)
			check(body("oung", `,"rowCount":5`), 10, sqlstore.WalkShort, 5)
			check(body("oung", `,"rowCount":5,"startingRow":8`), 10, sqlstore.WalkPastPage, 4)
			restoreList()
			// Another filter: the budget counts the persons it passes.
			check(body("oung", `,"rowCount":5,"lastName":{"value":["You"],"compareCondition":5}`), 10, sqlstore.WalkPage, 5)

			// Without the test's budget: on PostgreSQL the planner guesses
			// few matches on this small table, and the search walks (every
			// one of these persons) only because its probe ("oun" of
			// "oung") found more than the limit; SQLite sized the filter up
			// as before.
			check(body("oung", `,"rowCount":5`), 0, sqlstore.WalkAll, 5)
			// A fragment of two letters, which no trigram index serves:
			// PostgreSQL walks it bounded too (planned for a small page,
			// it walked every person for one nobody has, past the 5 s
			// limit at a million); SQLite lists its matches first.
			for _, fragment := range []string{"ng", "qz"} {
				b := body(fragment, `,"rowCount":5`)
				got, seen := search(b, "", 0)
				wantSeen := []sqlstore.WalkOutcome{sqlstore.WalkAll}
				if engine == "sqlite" {
					wantSeen = nil
				}
				if !slices.Equal(seen, wantSeen) || !reflect.DeepEqual(got, want(b)) {
					t.Errorf("%s: the walk ended %v, want %v; rows %+v, want %+v", b, seen, wantSeen, got, want(b))
				}
			}

			// Continued page by page, each page walking from the last.
			for _, tc := range []struct {
				fragment string
				page     int
			}{{"oung", 5}, {"mail.example", 7}, {"example", 9}} {
				var rows []wayfarer.SearchRow
				cont := ""
				for range 100 {
					res, _ := search(body(tc.fragment, fmt.Sprintf(`,"rowCount":%d`, tc.page)), cont, 10)
					rows = append(rows, res.Rows...)
					if cont = res.Continuation; cont == "" {
						break
					}
				}
				if all := want(body(tc.fragment, "")); !reflect.DeepEqual(rows, all.Rows) {
					t.Errorf("%s by pages of %d: %d rows, want %d:\n%v\n%v", tc.fragment, tc.page, len(rows), len(all.Rows), rows, all.Rows)
				}
			}

			// A person without a last name sorts first: the walk cannot
			// bound the persons before it, and the search starts from the
			// matches at once.
			ps = nil
			person(nil, "Nobody", "young.nobody@mail.example")
			w.insert(t, db, w.agency, ps)
			check(body("oung", `,"rowCount":5`), 10, sqlstore.WalkNulls, 5)
			check(body("mail.example", `,"rowCount":5`), 10, sqlstore.WalkNulls, 5)
			if got := want(body("oung", `,"rowCount":1`)); len(got.Rows) != 1 || got.Rows[0][1] != "/Nobody" {
				t.Errorf("first match: %+v", got.Rows)
			}
		})
	}
}

// TestSearchBoundedWalkMatchesModel: random searches with a common
// commValue filter and a page size, on random persons that all have a last
// name (so that first pages walk too), answer what the model answers with
// walks of a few persons and of more, and both ends of a walk occur.
func TestSearchBoundedWalkMatchesModel(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			db := openSearchDB(t, engine)
			w := newWorld(t, db)
			w.ascii = engine == "postgres"
			r := rand.New(rand.NewSource(7))
			ps := w.randomPersons(r, w.agency, 300)
			for i := range ps {
				if ps[i].LastName == nil {
					ps[i].LastName = i64str("Zed")
				}
			}
			w.insert(t, db, w.agency, ps)
			defer sqlstore.SetChildProbeLimitForTest(db, 0)()
			defer sqlstore.SetTrigramLimitForTest(db, 0)()
			walks := map[sqlstore.WalkOutcome]int{}
			cases := 300
			if engine == "postgres" || testing.Short() {
				cases = 100
			}
			for i := range cases {
				body := w.randomCriteria(r)
				body["commValue"] = map[string]any{"value": []string{pick(r, []string{"example", "abler", "555", "ken", "test.io", "Example.org"})}, "compareCondition": 6}
				body["rowCount"] = 1 + r.Intn(12)
				delete(body, "distinct")
				raw, _ := json.Marshal(body)
				c, err := wire.DecodePersonSearch(jsoncodec.Strict, raw)
				if err != nil {
					t.Fatalf("case %d: decode %s: %v", i, raw, err)
				}
				sc := w.randomScope(r)
				// After a walk: too many matches to start from (the walk
				// as before), or few enough.
				restoreList := sqlstore.SetCommListLimitForTest(db, pick(r, []int{2, 1 << 20}))
				restore := sqlstore.SetWalkBudgetForTest(db, pick(r, []int64{3, 40}), func(o sqlstore.WalkOutcome) { walks[o]++ })
				got, err := db.SearchPersons(context.Background(), sc, c)
				restore()
				restoreList()
				if err != nil {
					t.Fatalf("case %d: %s: %v", i, raw, err)
				}
				if g, want := resultJSON(t, got), resultJSON(t, w.search(sc, c)); g != want {
					t.Fatalf("case %d: scope %+v body %s\n got %s\nwant %s", i, sc, raw, g, want)
				}
			}
			t.Logf("bounded walks: %v", walks)
			if walks[sqlstore.WalkPage] == 0 || walks[sqlstore.WalkShort] == 0 {
				t.Errorf("no walk found its page, or none fell short: %v", walks)
			}
		})
	}
}
