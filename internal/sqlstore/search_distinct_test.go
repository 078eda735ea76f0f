package sqlstore_test

import (
	"context"
	"fmt"
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
