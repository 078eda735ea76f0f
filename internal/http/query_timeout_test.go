package http_test

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/postgres"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// seedNames adds n persons to DEMO, enough for a search that compares
// every name with thousands of values to take far longer than a tiny
// query time limit (and far less than the default one).
func seedNames(n int) func(a *app.App) error {
	return func(a *app.App) error {
		ctx := context.Background()
		ag, err := a.DB.AgencyByAlias(ctx, "DEMO")
		if err != nil {
			return err
		}
		ps := make([]sqlstore.BulkPerson, n)
		for i := range ps {
			first, last := fmt.Sprintf("First%04d", i), fmt.Sprintf("Last%04d", i)
			ps[i] = sqlstore.BulkPerson{FirstName: &first, LastName: &last, ActiveStatus: 1,
				Created: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), Modified: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
		}
		return a.DB.InsertBulkPersons(ctx, ag.ID, ps)
	}
}

// heavySearch compares every person's names with the most values a search
// may hold, none of which matches: every person is tested against all.
func heavySearch() string {
	half := wayfarer.MaxSearchValues / 2
	word := func(i int) string { return fmt.Sprintf("no-such-name-%d", i) }
	return searchBody(stringFilter("lastName", 10, half, word), stringFilter("firstName", 10, half, word))
}

// pgSetting reads a setting on each of n connections of the instance's own
// pool held at once, so every pooled connection is looked at.
func pgSettings(t *testing.T, s *testserver.Server, name string, n int) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	var conns []*sql.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range n {
		c, err := s.App.DB.Primary().Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		var v string
		if err := c.QueryRowContext(ctx, "SELECT current_setting($1)", name).Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// A search forced past a tiny query time limit answers 503, resultCode
// 420, is logged with its user and shape but none of its values, and
// leaves the server, its pooled connections and the database as they were:
// the next requests work, and on PostgreSQL no backend still runs it.
func TestSearchQueryTimeout(t *testing.T) {
	testserver.Each(t, testserver.Options{Seed: seedNames(400)}, func(t *testing.T, s *testserver.Server) {
		raw := s.LoginDemo(t, "admin")
		tok := testserver.Bearer(raw)
		body := heavySearch() // about 0.4 s on either engine, minutes under -race on SQLite
		// The token's session is read once, then kept in memory: read it
		// now, under the normal limit, so that the tiny one below stops the
		// search and not that read (which a loaded machine running the
		// suite under -race took past 20 ms: method "request").
		if r := s.Do(t, "POST", "/personSearch", `{"recNo":{"value":[1]}}`, tok...); r.Status != 200 && r.Status != 204 {
			t.Fatalf("a first search: %d %s", r.Status, r.Body)
		}
		const tiny = 20 * time.Millisecond
		s.App.DB.SetQueryTimeout(tiny)
		start := time.Now()
		r := s.Do(t, "POST", "/personSearch", body, tok...)
		took := time.Since(start)
		s.App.DB.SetQueryTimeout(app.DefaultQueryTimeout)
		m := wantResult(t, r, 503, 420, "personSearch")
		if want := "The search took longer than the 20ms limit; narrow it"; m["resultDescription"] != want {
			t.Errorf("description %q, want %q", m["resultDescription"], want)
		}
		t.Logf("stopped after %v", took)

		logs := s.Logs.String()
		line := ""
		for _, l := range strings.Split(logs, "\n") {
			if strings.Contains(l, "person search stopped by the query time limit") {
				line = l
			}
		}
		for _, want := range []string{"limit=20ms", "agency=DEMO", "user=admin", "shape=", "lastName:NotContaining/1000", "firstName:NotContaining/1000", "summaryCount"} {
			if !strings.Contains(line, want) {
				t.Errorf("log line %q lacks %q", line, want)
			}
		}
		if strings.Contains(logs, "no-such-name") {
			t.Errorf("a searched value reached the log")
		}

		// The next requests work, through the same pool.
		for range 4 {
			rows := searchRows(t, s, raw, `{"lastName":{"value":["Last000"],"compareCondition":5},"includeCols":["recNo","summaryCount"]}`)
			if len(rows) != 10 {
				t.Fatalf("next search: %d rows", len(rows))
			}
		}
		if s.Engine != "postgres" {
			return
		}
		// statement_timeout, jit, parallel workers and the plan cache mode were set for the transaction only: no
		// pooled connection keeps them.
		for i, v := range pgSettings(t, s, "statement_timeout", 4) {
			if v != "0" {
				t.Errorf("pooled connection %d keeps statement_timeout %s", i, v)
			}
		}
		for i, v := range pgSettings(t, s, "jit", 4) {
			if v != "on" {
				t.Errorf("pooled connection %d keeps jit %s", i, v)
			}
		}
		for i, v := range pgSettings(t, s, "max_parallel_workers_per_gather", 4) {
			if v == "0" {
				t.Errorf("pooled connection %d keeps max_parallel_workers_per_gather 0", i)
			}
		}
		for i, v := range pgSettings(t, s, "plan_cache_mode", 4) {
			if v != "auto" {
				t.Errorf("pooled connection %d keeps plan_cache_mode %s", i, v)
			}
		}
		var running int
		if err := s.App.DB.Primary().QueryRow(`SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active' AND query LIKE '%lower(p.last_name)%'`).Scan(&running); err != nil {
			t.Fatal(err)
		}
		if running != 0 {
			t.Errorf("%d backends still run the search", running)
		}
	})
}

// lockForTest holds a lock on the test's database from a connection of
// its own until the returned function is called: on PostgreSQL the rows
// the query selects (FOR UPDATE), on SQLite the whole file (a write
// transaction).
func lockForTest(t *testing.T, s *testserver.Server, pgQuery string, args ...any) func() {
	t.Helper()
	ctx := context.Background()
	var db *sql.DB
	var err error
	if s.Engine == "postgres" {
		db, err = postgres.OpenHandle(s.DBPath)
	} else {
		db, err = sql.Open("sqlite", "file:"+s.DBPath+"?_txlock=immediate")
	}
	if err != nil {
		t.Fatal(err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Engine == "postgres" {
		rows, err := tx.QueryContext(ctx, pgQuery, args...)
		if err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	released := false
	release := func() {
		if !released {
			released = true
			tx.Rollback()
			db.Close()
		}
	}
	t.Cleanup(release)
	return release
}

// A save the query time limit cuts off answers 503, resultCode 420, and
// writes nothing; the same save goes through once the database is free.
// On PostgreSQL the save waits on a card row after it has already written
// the person's fields, so the rollback undoes a real write; on SQLite a
// save holds the whole file from its start, so it waits for the write lock.
// A save of the person's own fields (a conditional UPDATE) cut off while
// it waits on the person's row answers the same.
func TestSaveQueryTimeoutRollsBack(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, refs personRefs) {
		c := clientFor(t, s, "admin")
		recNo := c.create(kenJSON(refs))
		old := c.load(recNo)
		edited := clone(t, old)
		edited.Remarks = wayfarer.Some("window seat now")
		loyalty := cardByType(t, edited, 2)
		loyalty.Card.Description = wayfarer.Some("MileagePlus Gold")

		s.App.DB.SetQueryTimeout(200 * time.Millisecond)
		release := lockForTest(t, s, "SELECT 1 FROM card WHERE rec_no = $1 FOR UPDATE", loyalty.Card.RecNo.Value)
		r := c.update(old, edited)
		m := wantResult(t, r, 503, 420, "person")
		if want := "Saving the person took longer than the 200ms limit; nothing was saved, try again"; m["resultDescription"] != want {
			t.Errorf("description %q, want %q", m["resultDescription"], want)
		}
		release()
		s.App.DB.SetQueryTimeout(app.DefaultQueryTimeout)

		now := c.load(recNo)
		if now.Remarks != old.Remarks || cardByType(t, now, 2).Card.Description != cardByType(t, old, 2).Card.Description {
			t.Fatalf("the cut-off save left changes: remarks %v, card %v", now.Remarks, cardByType(t, now, 2).Card.Description)
		}
		if r := c.update(old, edited); r.Status != 200 {
			t.Fatalf("the same save afterwards: %d %s", r.Status, r.Body)
		}
		if now := c.load(recNo); now.Remarks.Value != "window seat now" {
			t.Fatalf("remarks %v after the save", now.Remarks)
		}

		// A save of the person's own fields (one conditional UPDATE)
		// waiting on the person's row: the same answer, nothing written.
		old = c.load(recNo)
		edited = clone(t, old)
		edited.Remarks = wayfarer.Some("aisle again")
		s.App.DB.SetQueryTimeout(200 * time.Millisecond)
		release = lockForTest(t, s, "SELECT 1 FROM person WHERE rec_no = $1 FOR UPDATE", recNo)
		wantResult(t, c.update(old, edited), 503, 420, "person")
		release()
		s.App.DB.SetQueryTimeout(app.DefaultQueryTimeout)
		if now := c.load(recNo); now.Remarks.Value != "window seat now" {
			t.Fatalf("the cut-off save wrote: remarks %v", now.Remarks)
		}
		if r := c.update(old, edited); r.Status != 200 {
			t.Fatalf("the same save afterwards: %d %s", r.Status, r.Body)
		}
	})
}

// An instance started with a short query time limit: the conditional save
// of the person's own fields waits for a held lock no longer than the
// limit, though on SQLite it runs without its context's watcher (the
// engine's own lock wait is set to the limit), answers 503, resultCode
// 420, and writes nothing; once the lock is gone the same save goes
// through.
func TestRowSaveWaitsNoLongerThanTheLimit(t *testing.T) {
	// A limit the test's other calls (login, create, load) keep well
	// within on a slow machine under the race detector.
	const limit = time.Second
	for _, e := range testserver.Engines() {
		t.Run(e, func(t *testing.T) {
			s := testserver.Start(t, testserver.Options{Engine: e, Config: func(c *app.Config) { c.QueryTimeout = limit }})
			refs := loadRefs(t, s.App)
			c := clientFor(t, s, "admin")
			recNo := c.create(kenJSON(refs))
			old := c.load(recNo)
			edited := clone(t, old)
			edited.Remarks = wayfarer.Some("aisle again")

			release := lockForTest(t, s, "SELECT 1 FROM person WHERE rec_no = $1 FOR UPDATE", recNo)
			start := time.Now()
			m := wantResult(t, c.update(old, edited), 503, 420, "person")
			// The engine's default wait for a lock is 10 s: the answer
			// must come from the limit, not from that.
			if took := time.Since(start); took < limit || took > 5*time.Second {
				t.Errorf("the save answered after %v; the limit is %v", took, limit)
			}
			if want := "Saving the person took longer than the 1s limit; nothing was saved, try again"; m["resultDescription"] != want {
				t.Errorf("description %q, want %q", m["resultDescription"], want)
			}
			release()
			if now := c.load(recNo); now.Remarks != old.Remarks {
				t.Fatalf("the cut-off save wrote: remarks %v", now.Remarks)
			}
			if r := c.update(old, edited); r.Status != 200 {
				t.Fatalf("the same save afterwards: %d %s", r.Status, r.Body)
			}
			if now := c.load(recNo); now.Remarks.Value != "aisle again" {
				t.Fatalf("remarks %v after the save", now.Remarks)
			}
		})
	}
}
