package http_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// TestSavesOnColdStatements: saves of one person by more clients at once
// than the database pool has connections, right after other searches
// pushed the save's statements out of the statement cache, all get their
// answer at once: one 200, the others 409. A save that prepares a
// statement on the pool while holding its own connection waits for a
// second one that every other save holds, waiting in turn for its lock,
// until the request times out: with the save's UPDATE prepared so, all 24
// saves here got 503 on PostgreSQL (sqlstore.txStmt).
func TestSavesOnColdStatements(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		recNo := admin.create(kenJSON(r))
		old := admin.load(recNo)
		// 300 searches of distinct statements: In lists of 1 to 100 values
		// on three columns (the cache keeps 256).
		for _, col := range []string{"lastName", "firstName", "middleName"} {
			for n := 1; n <= 100; n++ {
				vals := make([]string, n)
				for i := range vals {
					vals[i] = fmt.Sprintf("%q", fmt.Sprintf("nobody%d", i))
				}
				body := fmt.Sprintf(`{%q:{"value":[%s],"compareCondition":7},"includeCols":["recNo"]}`, col, strings.Join(vals, ","))
				if st := s.Do(t, "POST", "/personSearch", body, admin.tok...).Status; st != 200 && st != 204 {
					t.Fatalf("search %s with %d values: %d", col, n, st)
				}
			}
		}
		saveAtOnce(t, s, admin, old, 24) // the pools: 16 connections on SQLite, 8 in the PostgreSQL tests
	})
}

// saveAtOnce has clients save old, each with a last name of its own, all at
// once: exactly one wins (200), the others are told of the conflict (409).
func saveAtOnce(t *testing.T, s *testserver.Server, admin personClient, old *wayfarer.Person, clients int) {
	t.Helper()
	var wg sync.WaitGroup
	statuses := make([]int, clients)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := clone(t, old)
			n.LastName = wayfarer.Some(fmt.Sprintf("Abler-%d", i))
			statuses[i] = s.Do(t, "POST", "/person", dataset(old, n), admin.tok...).Status
		}()
	}
	wg.Wait()
	won, lost := 0, 0
	for _, st := range statuses {
		switch st {
		case 200:
			won++
		case 409:
			lost++
		}
	}
	if won != 1 || lost != clients-1 {
		t.Fatalf("statuses %v", statuses)
	}
}
