package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// PRAGMA synchronous is set by the connection string, so it holds on
// every connection of the pool, not only the first: each is held at once
// here, so that the pool opens as many as it may.
func TestSynchronousOnEveryConnection(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want int // PRAGMA synchronous: 1 NORMAL, 2 FULL
	}{{"", 2}, {"full", 2}, {"FULL", 2}, {"normal", 1}} {
		db, err := OpenWith(filepath.Join(t.TempDir(), "s.db"), Options{Synchronous: tc.mode})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		var conns []*sql.Conn
		for range 16 { // the pool's maximum
			c, err := db.Primary().Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, c)
			var got int
			if err := c.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("synchronous %q: connection %d has %d, want %d", tc.mode, len(conns), got, tc.want)
			}
			var journal string
			if err := c.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&journal); err != nil || journal != "wal" {
				t.Errorf("journal_mode %q %v", journal, err)
			}
		}
		for _, c := range conns {
			c.Close()
		}
		db.Close()
	}
	if _, err := OpenWith(filepath.Join(t.TempDir(), "s.db"), Options{Synchronous: "off"}); err == nil {
		t.Errorf("synchronous off accepted")
	}
}
