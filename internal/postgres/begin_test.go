package postgres_test

import (
	"context"
	"database/sql"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/wayfarerhq/wayfarer/internal/postgres"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
)

// A request's settings arrive with its BEGIN, hold for the transaction,
// and are gone from the connection after it.
func TestBeginAppliesRequestSettings(t *testing.T) {
	url := os.Getenv("WAYFARER_TEST_POSTGRES_URL")
	if url == "" {
		t.Skip("WAYFARER_TEST_POSTGRES_URL not set")
	}
	db, err := postgres.OpenHandle(url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // the same connection before and after
	ctx := context.Background()
	s := &sqlstore.RequestSettings{SQL: "SET LOCAL statement_timeout = '4321ms'; SET LOCAL jit = off; SET LOCAL max_parallel_workers_per_gather = 0"}
	tx, err := db.BeginTx(sqlstore.ContextWithRequestSettings(ctx, s), &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead})
	if err != nil {
		t.Fatal(err)
	}
	var timeout, jit, workers, iso, ro string
	if err := tx.QueryRowContext(ctx, `SELECT current_setting('statement_timeout'), current_setting('jit'), current_setting('max_parallel_workers_per_gather'),
		current_setting('transaction_isolation'), current_setting('transaction_read_only')`).Scan(&timeout, &jit, &workers, &iso, &ro); err != nil {
		t.Fatal(err)
	}
	if !s.Applied || timeout != "4321ms" || jit != "off" || workers != "0" || iso != "repeatable read" || ro != "on" {
		t.Errorf("applied %v, statement_timeout %s, jit %s, workers %s, isolation %s, read only %s", s.Applied, timeout, jit, workers, iso, ro)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRowContext(ctx, `SELECT current_setting('statement_timeout')`).Scan(&timeout); err != nil || timeout == "4321ms" {
		t.Errorf("after the transaction: statement_timeout %s, %v", timeout, err)
	}
}

// The wrapped connection still hands out pgx's connection through Raw:
// LISTEN and COPY need it.
func TestConnReachesPgx(t *testing.T) {
	url := os.Getenv("WAYFARER_TEST_POSTGRES_URL")
	if url == "" {
		t.Skip("WAYFARER_TEST_POSTGRES_URL not set")
	}
	db, err := postgres.OpenHandle(url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Raw(func(dc any) error {
		if _, ok := dc.(interface{ Conn() *pgx.Conn }); !ok {
			t.Errorf("%T does not give its *pgx.Conn", dc)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
