package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"
)

// onEveryConnection opens a file with o and runs check on each connection
// of the pool, all held at once so that the pool opens as many as it may:
// the pragmas are set by the connection string, so they hold on every
// connection, not only the first.
func onEveryConnection(t *testing.T, o Options, check func(c *sql.Conn, n int)) {
	t.Helper()
	db, err := OpenWith(filepath.Join(t.TempDir(), "s.db"), o)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	for n := 1; n <= 16; n++ { // the pool's maximum
		c, err := db.Primary().Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		check(c, n)
	}
}

func pragma[T any](t *testing.T, c *sql.Conn, name string) T {
	t.Helper()
	var v T
	if err := c.QueryRowContext(context.Background(), "PRAGMA "+name).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestSynchronousOnEveryConnection(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want int // PRAGMA synchronous: 1 NORMAL, 2 FULL
	}{{"", 2}, {"full", 2}, {"FULL", 2}, {"normal", 1}} {
		onEveryConnection(t, Options{Synchronous: tc.mode}, func(c *sql.Conn, n int) {
			if got := pragma[int](t, c, "synchronous"); got != tc.want {
				t.Errorf("synchronous %q: connection %d has %d, want %d", tc.mode, n, got, tc.want)
			}
			if journal := pragma[string](t, c, "journal_mode"); journal != "wal" {
				t.Errorf("journal_mode %q", journal)
			}
		})
	}
	if _, err := OpenWith(filepath.Join(t.TempDir(), "s.db"), Options{Synchronous: "off"}); err == nil {
		t.Errorf("synchronous off accepted")
	}
}

// Every connection reads the file through the memory map the options ask
// for: the default, a size of the operator's, or none.
func TestMmapOnEveryConnection(t *testing.T) {
	for _, tc := range []struct {
		size, want int64
	}{{0, DefaultMmapSize}, {64 << 20, 64 << 20}, {-1, 0}} {
		onEveryConnection(t, Options{MmapSize: tc.size}, func(c *sql.Conn, n int) {
			if got := pragma[int64](t, c, "mmap_size"); got != tc.want {
				t.Errorf("MmapSize %d: connection %d maps %d bytes, want %d", tc.size, n, got, tc.want)
			}
		})
	}
}

// Every connection waits for another's write lock as long as the options
// say (whole milliseconds, rounded up), 10 s by default.
func TestLockWaitOnEveryConnection(t *testing.T) {
	for _, tc := range []struct {
		wait time.Duration
		want int64 // PRAGMA busy_timeout, ms
	}{{0, 10000}, {300 * time.Millisecond, 300}, {1500 * time.Microsecond, 2}} {
		onEveryConnection(t, Options{LockWait: tc.wait}, func(c *sql.Conn, n int) {
			if got := pragma[int64](t, c, "busy_timeout"); got != tc.want {
				t.Errorf("LockWait %v: connection %d waits %d ms, want %d", tc.wait, n, got, tc.want)
			}
		})
	}
}
