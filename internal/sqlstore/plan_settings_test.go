package sqlstore_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// A search's transaction on PostgreSQL plans for its values (custom plans),
// or once where its plan cannot depend on them (generic), without JIT or
// parallel workers; a load's or a save's plans as usual but
// without JIT or workers; neither leaves a setting on the pooled connection.
func TestPostgresPlanSettings(t *testing.T) {
	if os.Getenv("WAYFARER_TEST_POSTGRES_URL") == "" {
		t.Skip("WAYFARER_TEST_POSTGRES_URL not set")
	}
	db := openSearchDB(t, "postgres")
	db.Primary().SetMaxOpenConns(1) // the same connection before and after
	ctx := context.Background()
	settings := func(q interface {
		QueryRowContext(context.Context, string, ...any) *sql.Row
	}) (plans, jit, workers string) {
		t.Helper()
		if err := q.QueryRowContext(ctx, `SELECT current_setting('plan_cache_mode'), current_setting('jit'),
			current_setting('max_parallel_workers_per_gather')`).Scan(&plans, &jit, &workers); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, tc := range []struct {
		search string
		plans  string
	}{{"search", "force_custom_plan"}, {"generic", "force_generic_plan"}, {"", "auto"}} {
		tx, err := db.Primary().BeginTx(sqlstore.SettingsForTest(db, ctx, tc.search), &sql.TxOptions{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if plans, jit, workers := settings(tx); plans != tc.plans || jit != "off" || workers != "0" {
			t.Errorf("search %q: plan_cache_mode %s, jit %s, max_parallel_workers_per_gather %s", tc.search, plans, jit, workers)
		}
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
		if plans, jit, workers := settings(db.Primary()); plans != "auto" || jit != "on" || workers == "0" {
			t.Errorf("after the transaction: plan_cache_mode %s, jit %s, max_parallel_workers_per_gather %s", plans, jit, workers)
		}
	}
}

// TestGenericPlanned: a search by last name alone, in the agency's scope,
// is planned once; any other filter, a restricted scope, a count or
// distinct rows keep the plans for the values.
func TestGenericPlanned(t *testing.T) {
	agency := wayfarer.Scope{AgencyID: 1}
	own := wayfarer.Scope{AgencyID: 1, OnlySelf: true, AdvisorIDs: []int64{1}}
	for _, tc := range []struct {
		body  string
		scope wayfarer.Scope
		want  bool
	}{
		{`{"lastName":{"value":["Abl"],"compareCondition":5},"includeCols":["recNo","name"],"rowCount":50}`, agency, true},
		{`{"lastName":{"value":["Ableman"]},"includeCols":["recNo","name","cardNumber"],"startingRow":100,"rowCount":50}`, agency, true},
		{`{"lastName":{"value":["Abl"],"compareCondition":5},"includeCols":["recNo","name"]}`, agency, true},
		{`{"lastName":{"value":["Abl"],"compareCondition":5},"includeCols":["recNo","name"],"rowCount":50}`, own, false},
		{`{"lastName":{"value":["Abl"],"compareCondition":6},"rowCount":50}`, agency, false},
		{`{"lastName":{"value":["Abl","Bak"],"compareCondition":5},"rowCount":50}`, agency, false},
		{`{"lastName":{"value":["Abl"],"compareCondition":5},"firstName":{"value":["Jo"],"compareCondition":5},"rowCount":50}`, agency, false},
		{`{"lastName":{"value":["Abl"],"compareCondition":5},"recNo":{"value":[1,2]},"rowCount":50}`, agency, false},
		{`{"lastName":{"value":["Abl"],"compareCondition":5},"cardType":[1],"rowCount":50}`, agency, false},
		{`{"lastName":{"value":["Abl"],"compareCondition":5},"createDateTimeFrom":{"date":"2020-01-01"},"rowCount":50}`, agency, false},
		{`{"lastName":{"value":["Abl"],"compareCondition":5},"includeCols":["name","summaryCount"],"rowCount":50}`, agency, false},
		{`{"lastName":{"value":["Abl"],"compareCondition":5},"distinct":true,"rowCount":50}`, agency, false},
		{`{"includeCols":["recNo","name"],"rowCount":50}`, agency, false},
	} {
		c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		if got := sqlstore.GenericPlannedForTest(tc.scope, c); got != tc.want {
			t.Errorf("%s (scope %+v): planned once %v, want %v", tc.body, tc.scope, got, tc.want)
		}
	}
}

// TestPostgresGenericPlans: PostgreSQL runs a search by last name alone on
// a generic plan, and another search on custom plans, with the same rows.
func TestPostgresGenericPlans(t *testing.T) {
	if os.Getenv("WAYFARER_TEST_POSTGRES_URL") == "" {
		t.Skip("WAYFARER_TEST_POSTGRES_URL not set")
	}
	db := openSearchDB(t, "postgres")
	db.Primary().SetMaxOpenConns(1) // its prepared statements are the ones counted
	w := newWorld(t, db)
	w.insert(t, db, w.agency, []sqlstore.BulkPerson{{LastName: i64str("Able"), FirstName: i64str("Ann")}, {LastName: i64str("Baker"), FirstName: i64str("Abe")}})
	ctx, sc := context.Background(), wayfarer.Scope{AgencyID: w.agency}
	for _, tc := range []struct {
		body, want string
		generic    bool
	}{
		{`{"lastName":{"value":["ab"],"compareCondition":5},"includeCols":["name"],"rowCount":10}`, "[[Able/Ann]]", true},
		{`{"firstName":{"value":["ab"],"compareCondition":5},"includeCols":["name"],"rowCount":10}`, "[[Baker/Abe]]", false},
	} {
		c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			res, err := db.SearchPersons(ctx, sc, c)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(res.Rows); got != tc.want {
				t.Errorf("%s: %s, want %s", tc.body, got, tc.want)
			}
		}
		query, _, err := sqlstore.SearchSQLForTest(ctx, db, sc, c)
		if err != nil {
			t.Fatal(err)
		}
		// The statement run also selects the order keys (a continuation's):
		// it is found by its FROM and WHERE.
		body := query[strings.Index(query, " FROM person p "):strings.Index(query, " ORDER BY ")]
		var generic, custom int64
		if err := db.Primary().QueryRowContext(ctx, `SELECT COALESCE(sum(generic_plans), 0), COALESCE(sum(custom_plans), 0)
			FROM pg_prepared_statements WHERE strpos(statement, $1) > 0`, body).Scan(&generic, &custom); err != nil {
			t.Fatal(err)
		}
		if got := generic > 0 && custom == 0; got != tc.generic || generic+custom < 3 {
			t.Errorf("%s: %d generic and %d custom plans, want generic only: %v", tc.body, generic, custom, tc.generic)
		}
	}
}
