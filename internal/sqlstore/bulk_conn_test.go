package sqlstore_test

import (
	"context"
	"database/sql"
	"strconv"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/sqlite"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// A bulk load tunes its own connection (page cache, no memory map; plan
// settings on PostgreSQL) and closes it afterwards: no connection the
// server goes on using keeps a load's settings.
func TestBulkLoadSettingsStayWithTheLoad(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := context.Background()
		db := s.App.DB
		if err := bulkLoadOne(t, s, "Settings"); err != nil {
			t.Fatal(err)
		}
		checks := map[string]string{"PRAGMA cache_size": "-2000", "PRAGMA mmap_size": strconv.FormatInt(sqlite.DefaultMmapSize, 10)}
		if s.Engine != "sqlite" {
			checks = map[string]string{"SHOW plan_cache_mode": "auto", "SHOW enable_seqscan": "on", "SHOW maintenance_work_mem": "64MB"}
		}
		idle := db.Primary().Stats().Idle
		var held []*sql.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for range idle + 1 { // every idle connection, and a new one
			c, err := db.Primary().Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			held = append(held, c)
			for q, want := range checks {
				var got string
				if err := c.QueryRowContext(ctx, q).Scan(&got); err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("after a bulk load, a pooled connection's %s is %s, want %s", q, got, want)
				}
			}
		}
	})
}

// bulkLoadOne bulk-loads one person named name as a large load would
// (indexes deferred).
func bulkLoadOne(t *testing.T, s *testserver.Server, name string) error {
	t.Helper()
	now := time.Now()
	return s.App.DB.BulkLoad(context.Background(), agencyOf(t, s), sqlstore.BulkOptions{DeferIndexes: true}, func(insert func([]sqlstore.BulkPerson) error) error {
		return insert([]sqlstore.BulkPerson{{FirstName: &name, LastName: &name, ActiveStatus: 1, Created: now, Modified: now}})
	})
}
