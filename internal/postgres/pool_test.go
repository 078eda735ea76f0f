package postgres_test

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/postgres"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// A pool sized by pool_max_conns alone keeps its connections between
// bursts of as many concurrent queries: none is closed on its return to be
// opened again for the next burst (a backend forked per request). Named
// explicitly lower, pool_max_idle_conns still churns, which shows the
// test sees churn.
func TestPoolKeepsItsConnections(t *testing.T) {
	base := testserver.FreshPostgres(t)
	for _, c := range []struct {
		pool  string
		churn bool
	}{
		{"pool_max_conns=12", false}, // above the 10 idle kept before
		{"pool_max_conns=12&pool_max_idle_conns=2", true},
	} {
		t.Run(c.pool, func(t *testing.T) {
			u, err := url.Parse(base)
			if err != nil {
				t.Fatal(err)
			}
			q := u.Query()
			for k := range q {
				if strings.HasPrefix(k, "pool_") {
					q.Del(k)
				}
			}
			extra, _ := url.ParseQuery(c.pool)
			for k, v := range extra {
				q[k] = v
			}
			u.RawQuery = q.Encode()
			db, err := postgres.OpenHandle(u.String())
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for range 5 { // bursts of as many queries as the pool holds
				var wg sync.WaitGroup
				errs := make(chan error, 12)
				for range 12 {
					wg.Go(func() {
						_, err := db.ExecContext(context.Background(), "SELECT pg_sleep(0.02)")
						errs <- err
					})
				}
				wg.Wait()
				close(errs)
				for err := range errs {
					if err != nil {
						t.Fatal(err)
					}
				}
			}
			st := db.Stats()
			if churned := st.MaxIdleClosed > 0; churned != c.churn {
				t.Errorf("%d connections closed for want of idle room, %d open (churn expected: %v)", st.MaxIdleClosed, st.OpenConnections, c.churn)
			}
		})
	}
}
