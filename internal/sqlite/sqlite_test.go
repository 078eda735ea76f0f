package sqlite

import (
	"context"
	"database/sql"
	"os"
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

// A file name is a file name, whatever it holds: the connection string is
// a URI, where "?" starts the parameters (the pragmas), "#" a fragment and
// "%" an escape, so each is escaped. Before, "a?b.db" opened "a" without
// WAL or foreign keys.
func TestFileNameWithURICharacters(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a?b.db", "c#d.db", "e%20f.db", "g%zz.db", "h &i=j.db"} {
		path := filepath.Join(dir, name)
		db, err := Open(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		c, err := db.Primary().Conn(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := c.ExecContext(context.Background(), "CREATE TABLE x (y INTEGER)"); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		journal, fk := pragma[string](t, c, "journal_mode"), pragma[int](t, c, "foreign_keys")
		c.Close()
		db.Close()
		if journal != "wal" || fk != 1 {
			t.Errorf("%s: journal_mode %q, foreign_keys %d", name, journal, fk)
		}
		if _, err := os.Stat(path); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	for _, n := range names {
		if n == "a" || n == "c" || n == "e f.db" {
			t.Errorf("a file named %q was created (all: %q)", n, names)
		}
	}
}
