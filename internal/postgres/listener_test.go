package postgres_test

import (
	"context"
	"log/slog"
	"net/url"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/postgres"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// A statement prepared on the whole pool can be closed while the revocation
// listener waits for notifications: the listener holds a connection of its
// own, not one the statement was prepared on. When it took a connection of
// the pool, closing such a statement waited for it for ever (a `wayfarer
// keys rotate` hung so, and a search statement the cache evicted would have).
func TestListenerKeepsOffThePool(t *testing.T) {
	u, err := url.Parse(testserver.FreshPostgres(t))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("pool_max_conns", "1") // the statement's connection is the pool's only one
	u.RawQuery = q.Encode()
	db, err := postgres.Open(u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stmt, err := db.Primary().PrepareContext(ctx, "SELECT 1")
	if err != nil {
		t.Fatal(err)
	}
	var one int
	if err := stmt.QueryRowContext(ctx).Scan(&one); err != nil {
		t.Fatal(err)
	}
	wake, stopped := db.RevocationWakeups(ctx, slog.New(slog.DiscardHandler))
	<-wake                             // LISTEN has run
	time.Sleep(100 * time.Millisecond) // and the wait for notifications begun
	closed := make(chan error, 1)
	go func() { closed <- stmt.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Error("closing a statement of the pool waits for the revocation listener")
	}
	cancel()
	<-stopped
}
