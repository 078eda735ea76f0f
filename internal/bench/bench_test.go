package bench

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/demo"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"

	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

func TestRunSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("loads persons")
	}
	var progress bytes.Buffer
	cfg := Config{
		App:         app.Config{DB: filepath.Join(t.TempDir(), "bench.db"), CardKeys: testserver.TestCardKeys, PasswordParams: testserver.CheapPasswords},
		Persons:     3000,
		Duration:    100 * time.Millisecond,
		Warmup:      10 * time.Millisecond,
		Concurrency: []int{1, 4},
		Progress:    &progress,
		Walk:        700,
	}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Persons != 3000 || len(rep.Results) != len(Queries)*2*2 {
		t.Fatalf("persons %d, results %d", rep.Persons, len(rep.Results))
	}
	for _, r := range rep.Results {
		if r.Requests == 0 || r.P50 <= 0 || r.P99 < r.P50 {
			t.Errorf("%+v", r)
		}
	}
	// HTTP and direct agree on the rows
	for i := 0; i+1 < len(rep.Results); i += 2 {
		if d, h := rep.Results[i], rep.Results[i+1]; d.Rows != h.Rows {
			t.Errorf("%s: direct %d rows, http %d", d.Query, d.Rows, h.Rows)
		}
	}
	if w := rep.Walk; w == nil || w.Rows != 3000 || w.Pages != 5 {
		t.Errorf("walk: %+v", w)
	}
	if len(rep.Floor) != 2 || rep.Floor[0].Requests == 0 || rep.Floor[0].P50 <= 0 {
		t.Errorf("floor: %+v", rep.Floor)
	}
	var md bytes.Buffer
	if err := rep.WriteMarkdown(&md); err != nil || !strings.Contains(md.String(), "| a: lastName StartingWith Abl | 1 |") ||
		!strings.Contains(md.String(), "Transport floor at c=1") || !strings.Contains(md.String(), "| HTTP ceiling req/s | HTTP/ceiling |") ||
		!strings.Contains(md.String(), "Engine settings: SQLite 3.") || !strings.Contains(md.String(), "synchronous full") || !strings.Contains(md.String(), "mmap_size 2047 MiB") {
		t.Errorf("markdown: %v\n%s", err, md.String())
	}
	// a second run adds nothing
	cfg.Duration, cfg.Concurrency, cfg.Queries, cfg.Walk = 10*time.Millisecond, []int{1}, Queries[:1], 0
	progress.Reset()
	if _, err := Run(context.Background(), cfg); err != nil || strings.Contains(progress.String(), "added") {
		t.Errorf("second run: %v %s", err, progress.String())
	}
	// an agent's query alone: the walk, an admin's, still logs in
	if cfg.Queries, err = Select("b:"); err != nil {
		t.Fatal(err)
	}
	cfg.Walk = 700
	if rep, err := Run(context.Background(), cfg); err != nil || rep.Walk == nil || rep.Walk.Rows != 3000 {
		t.Errorf("the agent's query with the walk: %v", err)
	}
	cfg.Walk = 0
	// saves, named: four clients at once, none of them stale (a 409 would
	// end the run with its error)
	cfg.Duration, cfg.Concurrency, cfg.Queries = 100*time.Millisecond, []int{1, 4}, WriteQueries
	rep, err = Run(context.Background(), cfg)
	if err != nil || len(rep.Results) != 4 {
		t.Fatalf("saves: %v", err)
	}
	for _, r := range rep.Results {
		if r.Requests == 0 {
			t.Errorf("saves: %+v", r)
		}
	}
}

func TestSelect(t *testing.T) {
	for in, want := range map[string]int{"": len(Queries), "a:": 1, "a": 3, "a:,c": 5, " b , d ": 4, "d:": 1, "f,g": 2, "save": 1, "a:,save": 2} {
		if qs, err := Select(in); err != nil || len(qs) != want {
			t.Errorf("Select(%q): %d queries, %v; want %d", in, len(qs), err, want)
		}
	}
	if _, err := Select("x"); err == nil {
		t.Error("an unknown name must be an error, not an empty run")
	}
}

// TestBenchmarkRun is the full benchmark, run on demand:
//
//	WAYFARER_BENCH_DB=/tmp/bench.db WAYFARER_BENCH_PERSONS=1000000 go test ./internal/bench -run TestBenchmarkRun -v -timeout 2h
func TestBenchmarkRun(t *testing.T) {
	dbPath := os.Getenv("WAYFARER_BENCH_DB")
	if dbPath == "" {
		t.Skip("WAYFARER_BENCH_DB not set")
	}
	n, _ := strconv.Atoi(os.Getenv("WAYFARER_BENCH_PERSONS"))
	d, _ := time.ParseDuration(os.Getenv("WAYFARER_BENCH_DURATION"))
	rep, err := Run(context.Background(), Config{App: app.Config{DB: dbPath, CardKeys: testserver.TestCardKeys},
		Persons: n, Duration: d, Progress: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	rep.WriteMarkdown(os.Stdout)
}

// onEngines runs f as a sub-benchmark per engine (SQLite, and PostgreSQL
// when WAYFARER_TEST_POSTGRES_URL is set), so that a regression on either
// shows in a diff of the numbers.
func onEngines(b *testing.B, f func(b *testing.B, engine string)) {
	for _, engine := range testserver.Engines() {
		b.Run(engine, func(b *testing.B) { f(b, engine) })
	}
}

// benchServer is the real server on engine, on a database of 20,000 demo
// persons (or WAYFARER_BENCH_PERSONS), and a keep-alive client for it.
func benchServer(b *testing.B, engine string) (*testserver.Server, *http.Client) {
	n := 20000
	if v, err := strconv.Atoi(os.Getenv("WAYFARER_BENCH_PERSONS")); err == nil && v > 0 {
		n = v
	}
	s := testserver.Start(b, testserver.Options{Engine: engine})
	if _, err := demo.LoadPersons(context.Background(), s.App.DB, demo.Alias, n, s.App.Server.Persons.Sealer, nil); err != nil {
		b.Fatal(err)
	}
	return s, &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
}

// benchAdmin is benchServer with the demo admin logged in: its token and
// session.
func benchAdmin(b *testing.B, engine string) (*testserver.Server, *http.Client, string, *wayfarer.Session) {
	s, client := benchServer(b, engine)
	tok := s.LoginDemo(b, "admin")
	sess, _, err := s.App.Login.Authenticate(context.Background(), tok)
	if err != nil {
		b.Fatal(err)
	}
	return s, client, tok, sess
}

// benchQuery logs q's user in and decodes q: its token, session, criteria
// (with the activity reach the service would set) and expanded body.
func benchQuery(b *testing.B, s *testserver.Server, q Query) (string, *wayfarer.Session, *wayfarer.SearchCriteria, string) {
	ctx := context.Background()
	tok := s.LoginDemo(b, q.User)
	sess, _, err := s.App.Login.Authenticate(ctx, tok)
	if err != nil {
		b.Fatal(err)
	}
	agent, err := s.App.DB.UserByName(ctx, sess.AgencyID, "agent")
	if err != nil {
		b.Fatal(err)
	}
	body := ExpandBody(q.Body, agent.ID, time.Now().UTC())
	crit, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(body))
	if err != nil {
		b.Fatal(err)
	}
	crit.ActivityScope = sess.ActivityReach()
	return tok, sess, crit, body
}

// go test -bench: the queries of Queries on a smaller data set (20,000
// persons, or WAYFARER_BENCH_PERSONS), directly and over HTTP, per engine
// (issue 15 targets 1, 2, 3 by continuation, and 7).
//
//	go test ./internal/bench -run '^$' -bench . -benchtime 200x
func BenchmarkSearch(b *testing.B) { onEngines(b, benchmarkSearch) }

func benchmarkSearch(b *testing.B, engine string) {
	s, client := benchServer(b, engine)
	ctx := context.Background()
	for _, q := range benchSearches(b, s) {
		b.Run(q.Name+"/direct", func(b *testing.B) {
			for b.Loop() {
				if _, err := s.App.DB.SearchPersons(ctx, q.sess.Scope(wayfarer.AreaPerson), q.crit); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(q.Name+"/http", func(b *testing.B) {
			for b.Loop() {
				if _, err := post(ctx, client, s.URL, q.tok, q.body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchSearch is a search of Queries ready to run on a bench server: its
// user's token and session, its criteria and its body.
type benchSearch struct {
	Query
	tok  string
	sess *wayfarer.Session
	crit *wayfarer.SearchCriteria
	body string
}

// benchSearches readies every search of Queries (not LoadQuery:
// BenchmarkLoadPerson) on s: the continued query continues after its row
// of s's data, tag names become s's tag numbers.
func benchSearches(b *testing.B, s *testserver.Server) []benchSearch {
	ctx := context.Background()
	var out []benchSearch
	for _, q := range Queries {
		if q.Name == LoadQuery {
			continue
		}
		if q.Name == ContinuedQuery {
			tok := s.LoginDemo(b, q.User)
			sess, _, err := s.App.Login.Authenticate(ctx, tok)
			if err != nil {
				b.Fatal(err)
			}
			n, _ := s.App.DB.CountPersons(ctx, sess.AgencyID)
			if q.Body, err = continuedAfter(ctx, s.App.DB, sess.Scope(wayfarer.AreaPerson), q.Body, continuedRow(n)); err != nil {
				b.Fatal(err)
			}
		}
		if strings.Contains(q.Body, "{tag:") {
			tok := s.LoginDemo(b, q.User)
			sess, _, err := s.App.Login.Authenticate(ctx, tok)
			if err != nil {
				b.Fatal(err)
			}
			if q.Body, err = WithTagIDs(ctx, s.App.DB, sess.AgencyID, q.Body); err != nil {
				b.Fatal(err)
			}
		}
		tok, sess, crit, body := benchQuery(b, s, q)
		out = append(out, benchSearch{Query: q, tok: tok, sess: sess, crit: crit, body: body})
	}
	return out
}

// BenchmarkSearchParts takes query (a) apart: each piece of an HTTP search
// on its own, so the gap between "direct" and "http" can be accounted for
// (docs/benchmarks/first-sessions.md, "Where the time goes"). 20,000 persons, or
// WAYFARER_BENCH_PERSONS.
//
//	go test ./internal/bench -run '^$' -bench SearchParts -benchtime 5000x -count 5
func BenchmarkSearchParts(b *testing.B) { onEngines(b, benchmarkSearchParts) }

func benchmarkSearchParts(b *testing.B, engine string) {
	s, client := benchServer(b, engine)
	ctx := context.Background()
	q := Queries[0]
	tok, sess, crit, _ := benchQuery(b, s, q)
	res, err := s.App.DB.SearchPersons(ctx, sess.Scope(wayfarer.AreaPerson), crit)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("1 query (direct)", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.App.DB.SearchPersons(ctx, sess.Scope(wayfarer.AreaPerson), crit); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("2 query with a cancelable context", func(b *testing.B) {
		cctx, cancel := context.WithCancel(ctx) // as a request's context is
		defer cancel()
		for b.Loop() {
			if _, err := s.App.DB.SearchPersons(cctx, sess.Scope(wayfarer.AreaPerson), crit); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("3 token check", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := s.App.Login.Authenticate(ctx, tok); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("4 decode criteria", func(b *testing.B) {
		for b.Loop() {
			if _, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(q.Body)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("5 encode rows", func(b *testing.B) {
		var buf bytes.Buffer
		for b.Loop() {
			buf.Reset()
			if err := wire.WriteSearchJSON(&buf, res); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("6 handler in-process", func(b *testing.B) {
		for b.Loop() {
			r := httptest.NewRequest("POST", "/personSearch", strings.NewReader(q.Body))
			r.Header.Set("Authorization", "Bearer "+tok)
			w := httptest.NewRecorder()
			s.App.Server.ServeHTTP(w, r)
			if w.Code != 200 && w.Code != 204 {
				b.Fatal(w.Code)
			}
		}
	})
	b.Run("7 floor: GET /version over loopback", func(b *testing.B) {
		for b.Loop() {
			if _, err := get(ctx, client, s.URL+"/version"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("8 search over loopback (http)", func(b *testing.B) {
		for b.Loop() {
			if _, err := post(ctx, client, s.URL, tok, q.Body); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// The HTTP ceiling adds a request's two costs: a query answered 10,000
// times a second direct and a floor of 40,000 leave room for 8,000 over
// HTTP; unknown either way, no ceiling.
func TestHTTPCeiling(t *testing.T) {
	if got := httpCeiling(10000, 40000); got != 8000 {
		t.Errorf("ceiling %v, want 8000", got)
	}
	if got := httpCeiling(10000, 0); got != 0 {
		t.Errorf("ceiling without a floor %v, want 0", got)
	}
}
