package sqlstore_test

import (
	"context"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/bench"
	"github.com/wayfarerhq/wayfarer/internal/demo"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/postgres"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// On PostgreSQL a person's load goes as one pipeline (BEGIN, settings, its
// statements, COMMIT). It loads the same persons as the statements run one
// by one; inside, the request's settings hold in a read-only snapshot;
// after it, and after a step that fails, the pooled connection (the same
// one, not a new one) is back to its own settings with no transaction open.
func TestPostgresReadPipeline(t *testing.T) {
	s, oneByOne, scope := pipelinedAndOneByOne(t)
	ctx := context.Background()
	db := s.App.DB
	compared := 0
	for recNo := range int64(400) {
		piped, err1 := db.LoadPerson(ctx, scope, recNo)
		alone, err2 := oneByOne.LoadPerson(ctx, scope, recNo)
		if (err1 == nil) != (err2 == nil) || !reflect.DeepEqual(piped, alone) {
			t.Fatalf("person %d: pipelined %+v (%v), one by one %+v (%v)", recNo, piped, err1, alone, err2)
		}
		if err1 == nil && len(piped.PersonCommunicationLink) > 0 && len(piped.PersonCardLink) > 0 {
			compared++
		}
	}
	if compared == 0 {
		t.Fatal("no person with communications and cards compared")
	}

	// A handle of its own, on one connection: the same inside and after
	// (the app's session cache holds a connection of its pool for LISTEN).
	db, err := postgres.Open(s.DBPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.Primary().SetMaxOpenConns(1)
	db.SetQueryTimeout(4321 * time.Millisecond)
	var timeout, jit, workers, readOnly, isolation string
	inside := sqlstore.ReadStep{SQL: `SELECT current_setting('statement_timeout'), current_setting('jit'),
		current_setting('max_parallel_workers_per_gather'), current_setting('transaction_read_only'),
		current_setting('transaction_isolation')`, Row: func(r sqlstore.RowScanner) error {
		return r.Scan(&timeout, &jit, &workers, &readOnly, &isolation)
	}}
	if err := sqlstore.ReadStepsForTest(ctx, db, []sqlstore.ReadStep{inside}); err != nil {
		t.Fatal(err)
	}
	if timeout != "4321ms" || jit != "off" || workers != "0" || readOnly != "on" || isolation != "repeatable read" {
		t.Errorf("inside: statement_timeout %s, jit %s, workers %s, read only %s, isolation %s", timeout, jit, workers, readOnly, isolation)
	}
	backend := func() (pid int) {
		t.Helper()
		if err := db.Primary().QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
			t.Fatal(err)
		}
		return pid
	}
	pid := backend()
	after := func(when string) {
		t.Helper()
		if p := backend(); p != pid {
			t.Errorf("%s: a new connection (backend %d, was %d)", when, p, pid)
		}
		if err := db.Primary().QueryRowContext(ctx, `SELECT current_setting('statement_timeout'), current_setting('jit'),
			current_setting('max_parallel_workers_per_gather'), current_setting('transaction_read_only'),
			current_setting('transaction_isolation')`).Scan(&timeout, &jit, &workers, &readOnly, &isolation); err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if timeout == "4321ms" || jit != "on" || workers == "0" || readOnly != "off" {
			t.Errorf("%s: statement_timeout %s, jit %s, workers %s, read only %s", when, timeout, jit, workers, readOnly)
		}
	}
	after("after a pipeline")
	failing := sqlstore.ReadStep{SQL: "SELECT 1 / (SELECT count(*) - count(*) FROM agency)"}
	if err := sqlstore.ReadStepsForTest(ctx, db, []sqlstore.ReadStep{inside, failing, inside}); err == nil {
		t.Fatal("a step dividing by zero: no error")
	}
	after("after a failed step")
	if _, err := db.LoadPerson(ctx, scope, 1); err != nil {
		t.Fatalf("a load after a failed step: %v", err)
	}
}

// On PostgreSQL a search without a count goes as one pipeline too. It
// answers what the same search answers one statement at a time: every
// column of the person search (integers of every width, text, dates,
// instants, booleans, card and action item rows), the benchmark's
// searches, and a page after a continuation with the continuation it
// hands on.
func TestPostgresSearchPipeline(t *testing.T) {
	s, oneByOne, scope := pipelinedAndOneByOne(t)
	ctx := context.Background()
	db := s.App.DB
	var all []string
	for _, c := range wayfarer.PersonSearchCatalog.Columns {
		if c.Name != "summaryCount" { // a count is not pipelined
			all = append(all, `"`+c.Name+`"`)
		}
	}
	bodies := []string{
		`{"includeCols":[` + strings.Join(all, ",") + `],"rowCount":300}`,
		`{"includeCols":["recNo","name","cardNumber","cardExpDate","actionItemDate","actionItemCompleted"],"rowCount":300}`,
	}
	for _, q := range bench.Queries {
		if q.Body != "" && !strings.Contains(q.Body, "personActivitySearchParams") && !strings.Contains(q.Body, "{tag:") {
			bodies = append(bodies, bench.ExpandBody(q.Body, 0, time.Now()))
		}
	}
	search := func(on *sqlstore.DB, body, continuation string) *wayfarer.SearchResult {
		t.Helper()
		c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(body))
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		c.Continuation = continuation
		res, err := on.SearchPersons(ctx, scope, c)
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		return res
	}
	rows := 0
	for _, body := range bodies {
		piped, alone := search(db, body, ""), search(oneByOne, body, "")
		if !reflect.DeepEqual(piped, alone) {
			t.Fatalf("%s:\npipelined   %+v\none by one  %+v", body, piped, alone)
		}
		rows += len(piped.Rows)
	}
	if rows == 0 {
		t.Fatal("no rows compared")
	}

	page := `{"includeCols":["recNo","name"],"rowCount":25}`
	first := search(db, page, "")
	if first.Continuation == "" {
		t.Fatal("a full first page handed on no continuation")
	}
	piped, alone := search(db, page, first.Continuation), search(oneByOne, page, first.Continuation)
	if !reflect.DeepEqual(piped, alone) || len(piped.Rows) == 0 || reflect.DeepEqual(piped.Rows, first.Rows) {
		t.Fatalf("the page after the first:\npipelined   %+v\none by one  %+v", piped, alone)
	}
}

// pipelinedAndOneByOne starts a PostgreSQL server with the demo persons
// (its store pipelines reads) and a store on the same database that runs
// the same steps one by one, with the agency's scope.
func pipelinedAndOneByOne(t *testing.T) (*testserver.Server, *sqlstore.DB, wayfarer.Scope) {
	t.Helper()
	if os.Getenv(testserver.PostgresURLEnv) == "" {
		t.Skip(testserver.PostgresURLEnv + " not set")
	}
	s := testserver.Start(t, testserver.Options{Engine: "postgres"})
	db := s.App.DB
	if _, err := demo.SeedPersons(context.Background(), db, s.App.Server.Persons.Sealer); err != nil {
		t.Fatal(err)
	}
	oneByOne := sqlstore.New(db.Primary(), sqlstore.Postgres, postgres.Migrations())
	oneByOne.SetQueryTimeout(db.QueryTimeout())
	return s, oneByOne, wayfarer.Scope{AgencyID: agencyOf(t, s)}
}
