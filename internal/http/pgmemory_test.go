package http_test

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/postgres"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// backendMemory samples, while a test runs requests, the memory of the
// PostgreSQL backends serving the test's database: their private memory
// (RssAnon of /proc/<pid>/status: what a runaway plan or JIT grows; the
// shared buffers they touch are RssShmem and belong to the whole server)
// and their whole resident set (VmRSS), the largest seen of each.
type backendMemory struct {
	stop    func()
	mu      sync.Mutex
	anon    int64 // bytes
	rss     int64
	samples int
}

// watchBackends starts sampling every 5 ms. On SQLite, or where the
// server's /proc is not readable (PostgreSQL on another host or in another
// container), it returns nil and says why.
func watchBackends(t *testing.T, s *testserver.Server) *backendMemory {
	t.Helper()
	if s.Engine != "postgres" {
		return nil
	}
	dsn, _, err := postgres.ParsePool(s.DBPath)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	pids := func() []int {
		rows, err := db.Query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)
		if err != nil {
			return nil
		}
		defer rows.Close()
		var out []int
		for rows.Next() {
			var pid int
			if rows.Scan(&pid) == nil {
				out = append(out, pid)
			}
		}
		return out
	}
	var own int
	if err := db.QueryRow(`SELECT pg_backend_pid()`).Scan(&own); err != nil {
		t.Fatal(err)
	}
	if _, _, err := procMemory(own); err != nil {
		t.Logf("backend memory not measured: %v", err)
		return nil
	}
	m := &backendMemory{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			for _, pid := range pids() {
				anon, rss, err := procMemory(pid)
				if err != nil {
					continue // ended meanwhile
				}
				m.mu.Lock()
				m.anon, m.rss = max(m.anon, anon), max(m.rss, rss)
				m.samples++
				m.mu.Unlock()
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	m.stop = func() { cancel(); <-done }
	t.Cleanup(m.stop)
	return m
}

// check stops sampling and fails the test if a backend's private memory
// reached limit.
func (m *backendMemory) check(t *testing.T, limit int64) {
	t.Helper()
	if m == nil {
		return
	}
	m.stop()
	m.mu.Lock()
	defer m.mu.Unlock()
	t.Logf("PostgreSQL backends: largest private memory %.1f MB, largest resident set %.1f MB (%d samples)",
		float64(m.anon)/(1<<20), float64(m.rss)/(1<<20), m.samples)
	if m.samples == 0 {
		t.Errorf("no backend memory sample taken")
	}
	if m.anon >= limit {
		t.Errorf("a backend grew to %.1f MB of private memory, limit %.0f MB", float64(m.anon)/(1<<20), float64(limit)/(1<<20))
	}
}

// procMemory reads RssAnon and VmRSS of a process, in bytes.
func procMemory(pid int) (anon, rss int64, err error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	found := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || (k != "RssAnon" && k != "VmRSS") {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if err != nil {
			return 0, 0, err
		}
		if k == "RssAnon" {
			anon = kb << 10
		} else {
			rss = kb << 10
		}
		found++
	}
	if found < 2 {
		return 0, 0, fmt.Errorf("/proc/%d/status has no RssAnon or VmRSS", pid)
	}
	return anon, rss, sc.Err()
}
