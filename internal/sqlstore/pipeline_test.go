package sqlstore_test

import (
	"context"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/demo"
	"github.com/wayfarerhq/wayfarer/internal/postgres"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// On PostgreSQL a person's load goes as one pipeline (BEGIN, settings, its
// statements, COMMIT). It loads the same persons as the statements run one
// by one; inside, the request's settings hold in a read-only snapshot;
// after it, and after a step that fails, the pooled connection (the same
// one, not a new one) is back to its own settings with no transaction open.
func TestPostgresReadPipeline(t *testing.T) {
	if os.Getenv(testserver.PostgresURLEnv) == "" {
		t.Skip(testserver.PostgresURLEnv + " not set")
	}
	s := testserver.Start(t, testserver.Options{Engine: "postgres"})
	ctx := context.Background()
	db := s.App.DB
	if _, err := demo.SeedPersons(ctx, db, s.App.Server.Persons.Sealer); err != nil {
		t.Fatal(err)
	}
	agency := agencyOf(t, s)
	oneByOne := sqlstore.New(db.Primary(), sqlstore.Postgres, postgres.Migrations())
	oneByOne.SetQueryTimeout(db.QueryTimeout())
	scope := wayfarer.Scope{AgencyID: agency}
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
