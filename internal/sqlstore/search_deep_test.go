package sqlstore_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/demo"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// TestSearchDeepPage: a page that skips its offset on the persons' keys
// alone (the deep page form, search_deep.go) answers what the plain
// statement answers: every column of the person search, a filter, a
// count, the continuation it hands on, and so do rows of a child group
// (the page's rows picked among their persons' children); a distinct
// search keeps the plain statement.
func TestSearchDeepPage(t *testing.T) {
	for _, engine := range testserver.Engines() {
		t.Run(engine, func(t *testing.T) {
			s := testserver.Start(t, testserver.Options{Engine: engine})
			db := s.App.DB
			if _, err := demo.SeedPersons(context.Background(), db, s.App.Server.Persons.Sealer); err != nil {
				t.Fatal(err)
			}
			scope := wayfarer.Scope{AgencyID: agencyOf(t, s)}
			ctx := context.Background()
			criteria := func(body string) *wayfarer.SearchCriteria {
				t.Helper()
				c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(body))
				if err != nil {
					t.Fatalf("%s: %v", body, err)
				}
				return c
			}
			// search runs body with the deep page form from startingRow
			// deepFrom on, and reports whether its statement took it.
			search := func(body, continuation string, deepFrom int64) (*wayfarer.SearchResult, bool) {
				t.Helper()
				defer sqlstore.SetDeepPageFromForTest(db, deepFrom)()
				c := criteria(body)
				c.Continuation = continuation
				q, _, err := sqlstore.SearchSQLForTest(ctx, db, scope, c)
				if err != nil {
					t.Fatal(err)
				}
				res, err := db.SearchPersons(ctx, scope, c)
				if err != nil {
					t.Fatalf("%s: %v", body, err)
				}
				return res, strings.Contains(q, "pg JOIN person p")
			}
			const never = 1 << 40

			var all []string
			for _, c := range wayfarer.PersonSearchCatalog.Columns {
				if c.Group == wayfarer.GroupPerson {
					all = append(all, `"`+c.Name+`"`)
				}
			}
			cols := strings.Join(all, ",")
			for _, tc := range []struct {
				body string
				deep bool
			}{
				{`{"includeCols":[` + cols + `],"startingRow":10,"rowCount":40}`, true},
				{`{"includeCols":["recNo","name"],"startingRow":500,"rowCount":25}`, true},
				{`{"includeCols":["recNo","name","summaryCount"],"startingRow":900,"rowCount":200}`, true},
				{`{"lastName":{"value":["B"],"compareCondition":5},"includeCols":["recNo","name","primaryEmail","tags","birthdayYear"],"startingRow":3,"rowCount":10}`, true},
				{`{"includeCols":["recNo","name"],"startingRow":3}`, false}, // no page size: the rest of the rows
				{`{"includeCols":["recNo","name"],"startingRow":2000,"rowCount":5}`, true},
				// A child group's rows: skipped on the persons' and the
				// children's keys, the page's rows picked among their
				// persons' children (one group, two, three; a person
				// without any; a child filter; a lookup of a child).
				{`{"includeCols":["recNo","name","cardRecNo","cardNumber","cardType"],"startingRow":50,"rowCount":20}`, true},
				{`{"includeCols":["recNo","cardType","tagName","tagValue"],"startingRow":37,"rowCount":30}`, true},
				{`{"includeCols":["name","cardRecNo","tagRecNo","actionRecNo","actionItemAssignedToAppUserId","branchRecName"],"startingRow":11,"rowCount":50}`, true},
				{`{"cardType":[1],"includeCols":["recNo","cardNumber","cardExpDate"],"startingRow":20,"rowCount":15}`, true},
				{`{"actionItemCompleted":false,"includeCols":["recNo","actionRecNo","actionItemDescription","summaryCount"],"startingRow":5,"rowCount":10}`, true},
				{`{"includeCols":["lastName"],"distinct":true,"startingRow":5,"rowCount":20}`, false},
			} {
				deep, took := search(tc.body, "", 1)
				plain, plainTook := search(tc.body, "", never)
				if took != tc.deep || plainTook {
					t.Errorf("%s: deep page form %v (want %v), without it %v", tc.body, took, tc.deep, plainTook)
				}
				if len(plain.Rows) == 0 && !strings.Contains(tc.body, `"startingRow":2000`) { // that one: past the seeded persons
					t.Fatalf("%s: no rows to compare", tc.body)
				}
				if !reflect.DeepEqual(deep, plain) {
					t.Fatalf("%s:\ndeep  %+v\nplain %+v", tc.body, deep, plain)
				}
			}

			// The defaults: from 2,000 rows on, and 40 pages.
			for body, want := range map[string]bool{
				`{"includeCols":["recNo","name"],"startingRow":1999,"rowCount":5}`:  false,
				`{"includeCols":["recNo","name"],"startingRow":2000,"rowCount":50}`: true,
				`{"includeCols":["recNo","name"],"startingRow":2000,"rowCount":51}`: false,
			} {
				c := criteria(body) // no override set: the package's bounds
				q, _, err := sqlstore.SearchSQLForTest(ctx, db, scope, c)
				if err != nil {
					t.Fatal(err)
				}
				if took := strings.Contains(q, "pg JOIN person p"); took != want {
					t.Errorf("%s: deep page form %v, want %v", body, took, want)
				}
			}
			// A deep page's continuation goes on where the next offset
			// page starts.
			page, _ := search(`{"includeCols":["recNo","name"],"startingRow":500,"rowCount":25}`, "", 1)
			if page.Continuation == "" || len(page.Rows) != 25 {
				t.Fatalf("a full deep page: %d rows, continuation %q", len(page.Rows), page.Continuation)
			}
			next, _ := search(`{"includeCols":["recNo","name"],"rowCount":25}`, page.Continuation, 1)
			offset, _ := search(`{"includeCols":["recNo","name"],"startingRow":525,"rowCount":25}`, "", never)
			if !reflect.DeepEqual(next.Rows, offset.Rows) || len(next.Rows) == 0 {
				t.Fatalf("after a deep page:\ncontinued %+v\noffset    %+v", next.Rows, offset.Rows)
			}
			// And so does a deep page of card rows, whose last row's keys
			// include its card's.
			cards := `"includeCols":["recNo","cardRecNo","cardType"]`
			page, _ = search(`{`+cards+`,"startingRow":300,"rowCount":25}`, "", 1)
			if page.Continuation == "" || len(page.Rows) != 25 {
				t.Fatalf("a full deep page of cards: %d rows, continuation %q", len(page.Rows), page.Continuation)
			}
			next, _ = search(`{`+cards+`,"rowCount":25}`, page.Continuation, 1)
			offset, _ = search(`{`+cards+`,"startingRow":325,"rowCount":25}`, "", never)
			if !reflect.DeepEqual(next.Rows, offset.Rows) || len(next.Rows) == 0 {
				t.Fatalf("after a deep page of cards:\ncontinued %+v\noffset    %+v", next.Rows, offset.Rows)
			}
		})
	}
}
