package sqlstore_test

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

// TestActivitySearchIndexedFilters: an activity filter an index serves
// (target date, app user, creation and modification time, type, subject
// Equal, StartingWith and Blank) is sized up first on SQLite:
// few activities passing, the search starts from them; many, it walks the
// activities in recNo order testing each. The rows are the same on both
// engines and in both forms.
func TestActivitySearchIndexedFilters(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			db := openSearchDB(t, engine)
			w := newWorld(t, db)
			user := w.ids(w.users, w.agency)[0]
			now := time.Now().UTC()
			var ps []sqlstore.BulkPerson
			for i := range 400 {
				day, typ, subject, created := "2026-12-01", int64(1), i64str("Call back"), now
				if i%40 == 9 { // ten activities long ago: promos about visas
					day, typ, subject, created = "2001-06-01", 4, i64str("Visa Renewal"), now.AddDate(-20, 0, 0)
				}
				if i%40 == 21 {
					subject = nil // ten without a subject
				}
				a := sqlstore.BulkActivity{Type: typ, Priority: 1, TargetDate: i64str(day), Subject: subject, Created: created}
				if i%2 == 0 {
					a.AppUserID = i64(user)
				}
				ps = append(ps, sqlstore.BulkPerson{LastName: i64str(fmt.Sprintf("P%03d", i)), Created: now, Modified: now,
					Activities: []sqlstore.BulkActivity{a}})
			}
			w.insert(t, db, w.agency, ps)
			restore := sqlstore.SetChildProbeLimitForTest(db, 50)
			defer restore()
			ctx := context.Background()
			reach := func(wayfarer.Area) (wayfarer.Scope, bool) { return wayfarer.Scope{AgencyID: w.agency}, true }
			for _, tc := range []struct {
				body string
				pass func(i int) bool
				form string // SQLite's
			}{
				{`{"targetDateTo":{"date":"2001-12-31"}}`, func(i int) bool { return i%40 == 9 }, "a.rec_no IN (SELECT"},
				{`{"targetDateFrom":{"date":"2026-11-30"}}`, func(i int) bool { return i%40 != 9 }, "+("},
				{fmt.Sprintf(`{"appUserRecNo":{"value":[%d]}}`, user), func(i int) bool { return i%2 == 0 }, "+("},
				{`{"appUserRecNo":{"compareCondition":3},"targetDateTo":{"date":"2001-12-31"}}`, func(i int) bool { return i%40 == 9 && i%2 == 1 }, "a.rec_no IN (SELECT"},
				{`{"modifiedDateTimeTo":{"date":"2001-01-01"}}`, func(int) bool { return false }, "a.rec_no IN (SELECT"},
				{`{"createDateTimeTo":{"date":"2010-01-01"}}`, func(i int) bool { return i%40 == 9 }, "a.rec_no IN (SELECT"},
				{`{"createDateTimeFrom":{"date":"2010-01-01"}}`, func(i int) bool { return i%40 != 9 }, "+("},
				{`{"type":{"value":[4]}}`, func(i int) bool { return i%40 == 9 }, "a.rec_no IN (SELECT"},
				{`{"type":{"value":[3]}}`, func(int) bool { return false }, "a.rec_no IN (SELECT"},
				{`{"type":{"value":[1]}}`, func(i int) bool { return i%40 != 9 }, "+("},
				{`{"subject":{"value":["visa renewal"]}}`, func(i int) bool { return i%40 == 9 }, "a.rec_no IN (SELECT"},
				{`{"subject":{"value":["VISA"],"compareCondition":5}}`, func(i int) bool { return i%40 == 9 }, "a.rec_no IN (SELECT"},
				{`{"subject":{"value":["call"],"compareCondition":5}}`, func(i int) bool { return i%40 != 9 && i%40 != 21 }, "+("},
				{`{"subject":{"compareCondition":3}}`, func(i int) bool { return i%40 == 21 }, "a.rec_no IN (SELECT"},
				// a complement, a substring many pass or one too short for a
				// trigram is walked as it is
				{`{"subject":{"value":["call back"],"compareCondition":2}}`, func(i int) bool { return i%40 == 9 || i%40 == 21 }, "OR NOT (lower(a.subject)"},
				{`{"subject":{"value":["all b"],"compareCondition":6}}`, func(i int) bool { return i%40 != 9 && i%40 != 21 }, "= ?) AND lower(a.subject) LIKE"},
				{`{"subject":{"value":["ne"],"compareCondition":6}}`, func(i int) bool { return i%40 == 9 }, "= ?) AND lower(a.subject) LIKE"},
				// a substring few pass starts from the subjects' trigram index
				{`{"subject":{"value":["renew"],"compareCondition":6}}`, func(i int) bool { return i%40 == 9 }, "a.rec_no IN (SELECT af.rec_no FROM activity_trigram ct"},
				{`{"subject":{"value":["RENEW","qzx"],"compareCondition":6}}`, func(i int) bool { return i%40 == 9 }, "a.rec_no IN (SELECT af.rec_no FROM activity_trigram ct"},
			} {
				c, err := wire.DecodeActivitySearch(jsoncodec.Strict, []byte(tc.body))
				if err != nil {
					t.Fatal(err)
				}
				c.Columns = []wayfarer.SearchColumn{{Name: "recNo"}}
				res, err := db.SearchFlat(ctx, wayfarer.ActivitySearchCatalog, reach, c)
				if err != nil {
					t.Fatalf("%s: %v", tc.body, err)
				}
				var got, want []int64
				for _, r := range res.Rows {
					got = append(got, r[0].(int64))
				}
				for i, p := range ps {
					if tc.pass(i) {
						want = append(want, p.Activities[0].RecNo)
					}
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s: %v, want %v", tc.body, got, want)
				}
				if engine != "sqlite" {
					continue
				}
				q, err := sqlstore.FlatSQLForTest(ctx, db, wayfarer.ActivitySearchCatalog, reach, c)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(q, tc.form) {
					t.Errorf("%s: want %s in %s", tc.body, tc.form, q)
				}
			}
		})
	}
}
