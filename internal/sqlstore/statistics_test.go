package sqlstore_test

import (
	"context"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// A SQLite file analyzed with value histograms (by an earlier version, a
// migration or by hand) is served without them, and a bulk load leaves
// none: with them SQLite planned every search and load again at each run
// (statistics.go). PostgreSQL has nothing to drop.
func TestNoValueHistograms(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := context.Background()
		db := s.App.DB
		if s.Engine != "sqlite" {
			if dropped, err := db.DropValueHistograms(ctx); err != nil || dropped {
				t.Fatalf("DropValueHistograms on %s: %v, %v; want false, nil", s.Engine, dropped, err)
			}
			return
		}
		histograms := func() int {
			t.Helper()
			var n int
			if err := db.Primary().QueryRowContext(ctx, "SELECT count(*) FROM sqlite_stat4").Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		if n := histograms(); n != 0 {
			t.Fatalf("a new instance serves %d histogram rows, want none", n)
		}
		if _, err := db.Primary().ExecContext(ctx, "ANALYZE"); err != nil {
			t.Fatal(err)
		}
		if histograms() == 0 {
			t.Fatal("ANALYZE wrote no histograms: the test would show nothing")
		}
		again := testserver.Start(t, testserver.Options{Engine: s.Engine, DB: s.DBPath})
		if n := histograms(); n != 0 {
			t.Errorf("after an open of the analyzed file, %d histogram rows, want none", n)
		}
		r := again.Do(t, "POST", "/personSearch", map[string]any{"includeCols": []string{"recNo", "name"}, "rowCount": 5},
			testserver.Bearer(again.LoginDemo(t, "admin"))...)
		if r.Status != 200 && r.Status != 204 {
			t.Fatalf("search after the open: %d %s", r.Status, r.Body)
		}

		if _, err := db.Primary().ExecContext(ctx, "ANALYZE"); err != nil {
			t.Fatal(err)
		}
		if err := bulkLoadOne(t, s, "Histogram"); err != nil {
			t.Fatal(err)
		}
		if n := histograms(); n != 0 {
			t.Errorf("after a bulk load, %d histogram rows, want none", n)
		}
	})
}
