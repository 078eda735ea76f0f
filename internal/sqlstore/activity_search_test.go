package sqlstore_test

import (
	"context"
	"fmt"
	"github.com/wayfarerhq/wayfarer/internal/app"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/demo"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// personActivitySearchParams runs as EXISTS (a test per person) or as IN
// (the persons of the passing activities), as the probe decides on SQLite;
// both forms give the same rows, for broad and narrow filters, under every
// demo user's reach (private activities of others included in the data).
func TestPersonActivityFilterForms(t *testing.T) {
	t.Parallel() // its own databases; the heaviest tests of the package overlap
	// The forms are compared, not timed: under the race detector the
	// EXISTS form on SQLite can pass the default 5 s query limit.
	noLimit := testserver.Options{Config: func(c *app.Config) { c.QueryTimeout = -1 }}
	testserver.Each(t, noLimit, func(t *testing.T, s *testserver.Server) {
		ctx := context.Background()
		if _, err := demo.SeedPersons(ctx, s.App.DB, s.App.Server.Persons.Sealer); err != nil {
			t.Fatal(err)
		}
		agent, err := s.App.DB.UserByName(ctx, agencyOf(t, s), "agent")
		if err != nil {
			t.Fatal(err)
		}
		today := time.Now().UTC()
		week := fmt.Sprintf(`"targetDateFrom":{"date":"%s"},"targetDateTo":{"date":"%s"}`,
			today.AddDate(0, 0, -1).Format(time.DateOnly), today.AddDate(0, 0, 7).Format(time.DateOnly))
		filters := []string{
			fmt.Sprintf(`{"appUserRecNo":{"value":[%d]},"type":{"value":[1]},"completed":false,%s}`, agent.ID, week),
			`{"type":{"value":[1]},"completed":false}`,
			`{"type":{"value":[3]}}`,
			`{"completed":true}`,
			`{"subject":{"value":["final"],"compareCondition":5}}`,
			// Contains: SQLite's IN form starts from activity_trigram.
			`{"subject":{"value":["PAYMENT due"],"compareCondition":6}}`,
			`{"subject":{"value":["brochure","upgrade"],"compareCondition":6}}`,
			`{"subject":{"value":["qzx"],"compareCondition":6}}`,
			`{"appUserRecNo":{"compareCondition":3}}`,
		}
		found := 0
		for _, user := range []string{"admin", "agent", "branch"} {
			sess, _, err := s.App.Login.Authenticate(ctx, s.LoginDemo(t, user))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range filters {
				c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(`{"includeCols":["recNo","name","summaryCount"],"rowCount":40,"personActivitySearchParams":`+f+`}`))
				if err != nil {
					t.Fatal(err)
				}
				c.ActivityScope = sess.ActivityReach()
				var results []string
				for _, limit := range []int{-1, 2000, 1 << 30} { // EXISTS; as chosen; IN
					restore := sqlstore.SetChildProbeLimitForTest(s.App.DB, limit)
					res, err := s.App.DB.SearchPersons(ctx, sess.Scope(wayfarer.AreaPerson), c)
					restore()
					if err != nil {
						t.Fatalf("%s %s: %v", user, f, err)
					}
					results = append(results, resultJSON(t, res))
				}
				if results[0] != results[1] || results[1] != results[2] {
					t.Fatalf("%s %s: the forms differ:\nEXISTS %s\nchosen %s\nIN     %s", user, f, results[0], results[1], results[2])
				}
				if results[0] != "[]" && results[0] != "null" {
					found++
				}
			}
		}
		if found < len(filters) {
			t.Fatalf("only %d searches found persons: the data does not exercise the filter", found)
		}
	})
}

func agencyOf(t *testing.T, s *testserver.Server) int64 {
	t.Helper()
	ag, err := s.App.DB.AgencyByAlias(context.Background(), demo.Alias)
	if err != nil {
		t.Fatal(err)
	}
	return ag.ID
}

// TestActivitySubjectTrigramInStep: a subject Contains finds an activity by
// its subject as written, renamed and deleted, in both forms (SQLite's IN
// form reads activity_trigram, which triggers keep in step; PostgreSQL's
// index is its own).
func TestActivitySubjectTrigramInStep(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			db := openSearchDB(t, engine)
			w := newWorld(t, db)
			w.insert(t, db, w.agency, []sqlstore.BulkPerson{
				{LastName: i64str("Able"), Activities: []sqlstore.BulkActivity{{Type: 1, Priority: 1, Subject: i64str("Visa renewal")}}},
				{LastName: i64str("Baker"), Activities: []sqlstore.BulkActivity{{Type: 1, Priority: 1, Subject: i64str("Call back")}}},
			})
			ctx, sc := context.Background(), wayfarer.Scope{AgencyID: w.agency}
			find := func(fragment string) string {
				t.Helper()
				c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(`{"includeCols":["name"],"personActivitySearchParams":{"subject":{"value":["`+fragment+`"],"compareCondition":6}}}`))
				if err != nil {
					t.Fatal(err)
				}
				c.ActivityScope = sc // every activity of the agency
				var out []string
				for _, limit := range []int{-1, 1 << 30} { // EXISTS; IN
					restore := sqlstore.SetChildProbeLimitForTest(db, limit)
					res, err := db.SearchPersons(ctx, sc, c)
					restore()
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, fmt.Sprint(res.Rows))
				}
				if out[0] != out[1] {
					t.Errorf("%q: EXISTS %s, IN %s", fragment, out[0], out[1])
				}
				return out[1]
			}
			if got := find("renew"); got != "[[Able/]]" {
				t.Errorf("renew: %s, want Able", got)
			}
			exec := func(q string, args ...any) {
				t.Helper()
				if _, err := db.Primary().Exec(db.Dialect.Rebind(q), args...); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			exec("UPDATE activity SET subject = ? WHERE agency_id = ? AND subject = ?", "Passport renewal", w.agency, "Call back")
			if got := find("port renew"); got != "[[Baker/]]" {
				t.Errorf("port renew after the rename: %s, want Baker", got)
			}
			if got := find("call back"); got != "[]" {
				t.Errorf("call back after the rename: %s, want none", got)
			}
			exec("DELETE FROM activity WHERE agency_id = ? AND subject = ?", w.agency, "Visa renewal")
			if got := find("renew"); got != "[[Baker/]]" {
				t.Errorf("renew after the delete: %s, want Baker", got)
			}
		})
	}
}
