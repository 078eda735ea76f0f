// Package bench measures the person search: each query over HTTP (the real
// server on a loopback port, token checked, JSON written and read) and the
// same query run directly on the database (sqlstore.SearchPersons with the
// decoded criteria), in the same run, so their ratio is the cost of the
// HTTP layer. `wayfarer bench` runs it; BENCHMARKS.md records its output.
package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/demo"
	whttp "github.com/wayfarerhq/wayfarer/internal/http"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/sqlite"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// Query is one benchmarked search: a personSearch body run as a demo user.
type Query struct {
	Name string
	User string // demo user of agency DEMO: "admin" or "agent"
	Body string
}

// Queries are the searches of issue 4 item 8. Each asks for a page of 50
// rows, as a client paging through results does; (a) is also measured
// without rowCount, the whole result in one answer.
var Queries = []Query{
	{"a: lastName StartingWith Abl", "admin",
		`{"lastName":{"value":["Abl"],"compareCondition":5},"includeCols":["recNo","name"],"rowCount":50}`},
	{"a, all rows: lastName StartingWith Abl", "admin",
		`{"lastName":{"value":["Abl"],"compareCondition":5},"includeCols":["recNo","name"]}`},
	// A child group shown: a row per card and tag of each person. SQLite
	// materialized every card link of the database for it (past the 5 s
	// limit at a million persons; search.go, searchJoins).
	{"a, with cards and tags: lastName StartingWith Abl, cardNumber and tagValue", "admin",
		`{"lastName":{"value":["Abl"],"compareCondition":5},"includeCols":["recNo","name","cardNumber","tagValue"],"rowCount":50}`},
	{"b: as a, OnlySelf agent", "agent",
		`{"lastName":{"value":["Abl"],"compareCondition":5},"includeCols":["recNo","name"],"rowCount":50}`},
	{"c: commValue Contains e-mail fragment", "admin",
		`{"commValue":{"value":["ryan.jensen"],"compareCondition":6},"includeCols":["recNo","name"],"rowCount":50}`},
	{"c, a tenth: commValue Contains son (about 10% of persons)", "admin",
		`{"commValue":{"value":["son"],"compareCondition":6},"includeCols":["recNo","name"],"rowCount":50}`},
	// Issue 15: a fragment longer than its only trigram piece ("s47"),
	// which PostgreSQL's planner took for a common one (docs/search.md);
	// the demo's person 4711 holds it, at any size from 4,711 persons on.
	{"c, one match: commValue Contains s4711@", "admin",
		`{"commValue":{"value":["s4711@"],"compareCondition":6},"includeCols":["recNo","name"],"rowCount":50}`},
	// A common fragment whose matches sort late by name: the Jensens'
	// addresses (about 1.3% of persons), which a walk in name order met
	// only after 380,000 persons (search_walk.go).
	{"c, late matches: commValue Contains jensen", "admin",
		`{"commValue":{"value":["jensen"],"compareCondition":6},"includeCols":["recNo","name"],"rowCount":50}`},
	{"d: deep page, startingRow 100000", "admin",
		`{"includeCols":["recNo","name"],"startingRow":100000,"rowCount":50}`},
	// A row per card: every skipped row read its card until the deep page
	// form skipped child rows on their keys too (search_deep.go).
	{"d, card rows: a row per card, startingRow 100000", "admin",
		`{"includeCols":["recNo","name","cardType","cardNumber"],"startingRow":100000,"rowCount":50}`},
	{ContinuedQuery, "admin", continuedBody},
	{LoadQuery, "admin", ""},
	{"g: tag VIP with value gold", "admin",
		`{"tags":[{"recNo":{tag:VIP},"value":{"value":["gold"],"compareCondition":1}}],"includeCols":["recNo","name"],"rowCount":50}`},
	{"h: tag Dietary, any value, and not tag VIP", "admin",
		`{"tags":[{"recNo":{tag:Dietary}},{"recNo":{tag:VIP},"checked":false}],"includeCols":["recNo","name"],"rowCount":50}`},
	// Issue 14: "my open tasks due this week: which travelers". {agent} is
	// the agent's recNo, {today} and {week} the day of the run and six days
	// on (demo activities are dated from the day the persons were loaded).
	{"e: personActivitySearchParams, agent's open tasks this week", "agent",
		`{"personActivitySearchParams":{"appUserRecNo":{"value":[{agent}]},"type":{"value":[1]},"completed":false,` +
			`"targetDateFrom":{"date":"{today}"},"targetDateTo":{"date":"{week}"}},"includeCols":["recNo","name"],"rowCount":50}`},
	{"f: personActivitySearchParams, any open task", "admin",
		`{"personActivitySearchParams":{"type":{"value":[1]},"completed":false},"includeCols":["recNo","name"],"rowCount":50}`},
	// Filters an engine's planner misjudged at a million persons (the
	// person's own indexed columns and child rows, search_person_filters.go):
	// a range nobody passes walked every person on SQLite, a twelfth of
	// the persons was sorted whole, a Bloom filter read every action item,
	// a phone area code nobody has tested every person's communications.
	{"i: createDateTime before 2001 (nobody)", "admin",
		`{"createDateTimeTo":{"date":"2001-01-01"},"includeCols":["recNo","name"],"rowCount":50}`},
	{"j: birthdayMonth 12 (a twelfth of persons)", "admin",
		`{"birthdayMonth":{"value":[12]},"includeCols":["recNo","name"],"rowCount":50}`},
	{"k: actionItemCompleted false (open action items)", "admin",
		`{"actionItemCompleted":false,"includeCols":["recNo","name"],"rowCount":50}`},
	{"l: commValueCityArea 212 (nobody)", "admin",
		`{"commValueCityArea":{"value":["212"]},"includeCols":["recNo","name"],"rowCount":50}`},
	// A distinct search's first page: every row was grouped before it
	// (search_distinct.go).
	{"m: distinct names, first page", "admin",
		`{"distinct":true,"includeCols":["name"],"rowCount":50}`},
	// A column of few values: no page fills, so every row was grouped
	// until the walk could tell it had met them all
	// (search_distinct_domain.go).
	{"n: distinct cardType (three types and none)", "admin",
		`{"distinct":true,"includeCols":["cardType"],"rowCount":50}`},
	// The same asked the natural way, the whole answer: every row was
	// grouped (3.6 s at a million persons) until the walk answered it too.
	{"n, whole answer: distinct cardType without rowCount", "admin",
		`{"distinct":true,"includeCols":["cardType"]}`},
	// A filter on a shown group joins it: SQLite started from every
	// passing card and sorted them all (search.go, searchJoins).
	{"o: cards expiring from today, cardType shown", "admin",
		`{"cardExpirationDateFrom":{"date":"{today}"},"includeCols":["recNo","name","cardType"],"rowCount":50}`},
	// A subject fragment nobody has read every activity before the
	// subjects' trigram index (migration 00022).
	{"p: personActivitySearchParams, subject Contains a fragment nobody has", "admin",
		`{"personActivitySearchParams":{"subject":{"value":["qzx"],"compareCondition":6}},"includeCols":["recNo","name"],"rowCount":50}`},
	// A name fragment nobody has tested every person before the names'
	// trigram index (migration 00023).
	{"q: lastName Contains a fragment nobody has", "admin",
		`{"lastName":{"value":["qzx"],"compareCondition":6},"includeCols":["recNo","name"],"rowCount":50}`},
	// A card type with a subType no card of it has: PostgreSQL's planner
	// took the two columns as independent, guessed thousands of cards and
	// tested every person (past the 5 s limit) until migration 00024 gave
	// it their statistics together.
	{"r: travel documents of subType 3 (nobody)", "admin",
		`{"cardType":[3],"cardSubType":{"value":[3]},"includeCols":["recNo","name"],"rowCount":50}`},
}

// ExpandBody fills a query's placeholders ({agent}, {today}, {week}).
func ExpandBody(body string, agentID int64, today time.Time) string {
	return strings.NewReplacer("{agent}", strconv.FormatInt(agentID, 10), "{today}", today.Format(time.DateOnly),
		"{week}", today.AddDate(0, 0, 6).Format(time.DateOnly)).Replace(body)
}

// Select picks the Queries whose names start with one of the
// comma-separated prefixes ("a:" is query a alone, "a" also "a, all rows");
// "" is all of them.
func Select(prefixes string) ([]Query, error) {
	if strings.TrimSpace(prefixes) == "" {
		return Queries, nil
	}
	var out []Query
	for _, q := range append(slices.Clip(Queries), WriteQueries...) {
		for _, p := range strings.Split(prefixes, ",") {
			if p = strings.TrimSpace(p); p != "" && strings.HasPrefix(q.Name, p) {
				out = append(out, q)
				break
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no query starts with any of %q", prefixes)
	}
	return out, nil
}

// Config is what a run takes.
type Config struct {
	App         app.Config    // the database and its keys
	Persons     int           // top the DEMO agency up to this many persons first (0: as it is)
	Duration    time.Duration // per query, mode and concurrency (default 5s)
	Warmup      time.Duration // before each measurement (default 1s)
	Concurrency []int         // default 1 and 16
	Queries     []Query       // default Queries
	Progress    io.Writer     // the loader's progress bar and a line per measurement; nil: quiet
	Walk        int           // page size of a walk through every person by continuation (0: none)
}

// Result is one measurement.
type Result struct {
	Query       string
	Mode        string // "http" or "direct"
	Concurrency int
	Requests    int
	Rows        int // rows of one answer
	P50, P99    time.Duration
	Throughput  float64 // requests per second
	PeakRSS     int64   // bytes: the process's peak during this measurement (0: unknown)
	PeakAnon    int64   // bytes: the highest anonymous resident memory sampled during it, without mapped files (0: unknown)
}

// Report is a run's results and where they were measured.
type Report struct {
	Engine    string
	Persons   int64
	Started   time.Time
	GoVersion string
	CPUs      int
	Results   []Result
	Floor     []Result // GET /version over HTTP, per concurrency: what any request costs
	Duration  time.Duration
	// Settings: the engine's version and the settings that move its
	// figures (sqlstore.EngineSettings), and SQLite's memory map.
	Settings   []sqlstore.Setting
	QueryTexts []Query
	Walk       *WalkResult
	PeakRSS    int64 // bytes, the whole benchmark process (peakRSS): the highest of the measurements', or since the start where the peak cannot be reset
	PeakAnon   int64 // bytes: the highest of the measurements' PeakAnon
}

// Run prepares the database and measures every query.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Duration <= 0 {
		cfg.Duration = 5 * time.Second
	}
	if cfg.Warmup <= 0 {
		cfg.Warmup = time.Second
	}
	if len(cfg.Concurrency) == 0 {
		cfg.Concurrency = []int{1, 16}
	}
	if len(cfg.Queries) == 0 {
		cfg.Queries = Queries
	}
	progress := cfg.Progress
	if progress == nil {
		progress = io.Discard
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := app.Open(ctx, cfg.App, log, wayfarer.SystemClock{})
	if err != nil {
		return nil, err
	}
	defer a.Close()
	if err := demo.Seed(ctx, a.Admin, a.DB); err != nil {
		return nil, fmt.Errorf("seed: %w", err)
	}
	var sealer wayfarer.CardSealer
	if cfg.App.HasCardKey() {
		sealer = a.Server.Persons.Sealer
	}
	if cfg.Persons > 0 {
		fmt.Fprintf(progress, "loading DEMO up to %d persons\n", cfg.Persons)
		start := time.Now()
		added, err := demo.LoadPersons(ctx, a.DB, demo.Alias, cfg.Persons, sealer, progress)
		if err != nil {
			return nil, fmt.Errorf("load persons: %w", err)
		}
		if added > 0 {
			fmt.Fprintf(progress, "added %d persons in %s\n", added, time.Since(start).Round(time.Second))
		}
	}
	ag, err := a.DB.AgencyByAlias(ctx, demo.Alias)
	if err != nil {
		return nil, err
	}
	rep := &Report{Engine: a.DB.Dialect.Name, Started: time.Now().UTC(), GoVersion: runtime.Version(),
		CPUs: runtime.NumCPU(), Duration: cfg.Duration, QueryTexts: cfg.Queries}
	if rep.Persons, err = a.DB.CountPersons(ctx, ag.ID); err != nil {
		return nil, err
	}
	if rep.Settings, err = a.DB.EngineSettings(ctx); err != nil {
		return nil, err
	}
	if a.DB.Dialect.Name == sqlstore.SQLite.Name {
		mmap := sqlite.MmapBytes(cfg.App.SQLiteMmapSize)
		rep.Settings = append(rep.Settings, sqlstore.Setting{Name: "mmap_size", Value: strconv.FormatInt(mmap>>20, 10) + " MiB"})
	}

	// The real server on loopback, with keep-alive connections.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: a.Server, ReadHeaderTimeout: 10 * time.Second}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- whttp.Run(runCtx, srv, l, "", "", 5*time.Second) }()
	defer func() { stop(); <-done }()
	base := "http://" + l.Addr().String()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 256}, Timeout: 5 * time.Minute}

	tokens := map[string]string{}
	scopes, activityScopes := map[string]wayfarer.Scope{}, map[string]wayfarer.Scope{}
	var users []string
	for _, q := range cfg.Queries {
		users = append(users, q.User)
	}
	if cfg.Walk > 0 {
		users = append(users, "admin") // the walk's, whichever queries were chosen
	}
	for _, user := range users {
		if _, ok := tokens[user]; ok {
			continue
		}
		tok, err := login(ctx, client, base, user)
		if err != nil {
			return nil, err
		}
		sess, _, err := a.Login.Authenticate(ctx, tok)
		if err != nil {
			return nil, err
		}
		tokens[user], scopes[user] = tok, sess.Scope(wayfarer.AreaPerson)
		activityScopes[user] = sess.ActivityReach()
	}
	agent, err := a.DB.UserByName(ctx, ag.ID, "agent")
	if err != nil {
		return nil, err
	}
	today := time.Now().UTC()

	// The transport floor: a request that does no work (GET /version: no
	// token, no database) through the same client and server.
	for _, c := range cfg.Concurrency {
		r, err := measure(ctx, func(ctx context.Context) (int, error) { return get(ctx, client, base+"/version") }, c, cfg.Warmup, cfg.Duration)
		if err != nil {
			return nil, fmt.Errorf("floor (%d): %w", c, err)
		}
		r.Query, r.Mode, r.Concurrency = "floor: GET /version", "http", c
		rep.Floor = append(rep.Floor, r)
		fmt.Fprintf(progress, "%-42s %-6s c=%-2d p50 %8s  p99 %8s  %8.1f req/s\n", r.Query, r.Mode, c, ms(r.P50), ms(r.P99), r.Throughput)
	}

	for _, q := range cfg.Queries {
		var direct, overHTTP func(context.Context) (int, error)
		if q.Name == LoadQuery {
			recNo, err := typicalPerson(ctx, a.DB, scopes[q.User])
			if err != nil {
				return nil, err
			}
			direct, overHTTP = loadFuncs(a.DB, scopes[q.User], client, base, tokens[q.User], recNo)
		} else if q.Name == SaveQuery {
			if direct, overHTTP, err = saveFuncs(ctx, a.DB, scopes[q.User], client, base, tokens[q.User]); err != nil {
				return nil, err
			}
		} else {
			q.Body = ExpandBody(q.Body, agent.ID, today)
			if q.Body, err = WithTagIDs(ctx, a.DB, ag.ID, q.Body); err != nil {
				return nil, fmt.Errorf("%s: %w", q.Name, err)
			}
			if q.Name == ContinuedQuery {
				if q.Body, err = continuedAfter(ctx, a.DB, scopes[q.User], q.Body, continuedRow(rep.Persons)); err != nil {
					return nil, fmt.Errorf("%s: %w", q.Name, err)
				}
			}
			crit, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(q.Body))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", q.Name, err)
			}
			crit.ActivityScope = activityScopes[q.User] // the service's part
			direct = func(ctx context.Context) (int, error) {
				res, err := a.DB.SearchPersons(ctx, scopes[q.User], crit)
				if err != nil {
					return 0, err
				}
				return len(res.Rows), nil
			}
			overHTTP = func(ctx context.Context) (int, error) {
				return post(ctx, client, base, tokens[q.User], q.Body)
			}
		}
		for _, c := range cfg.Concurrency {
			for _, m := range []struct {
				mode string
				f    func(context.Context) (int, error)
			}{{"direct", direct}, {"http", overHTTP}} {
				r, err := measure(ctx, m.f, c, cfg.Warmup, cfg.Duration)
				if err != nil {
					return nil, fmt.Errorf("%s (%s, %d): %w", q.Name, m.mode, c, err)
				}
				r.Query, r.Mode, r.Concurrency = q.Name, m.mode, c
				rep.Results = append(rep.Results, r)
				rep.PeakRSS = max(rep.PeakRSS, r.PeakRSS)
				rep.PeakAnon = max(rep.PeakAnon, r.PeakAnon)
				fmt.Fprintf(progress, "%-42s %-6s c=%-2d p50 %8s  p99 %8s  %8.1f req/s  (%d rows)  peak RSS %d MB (anonymous %d MB)\n",
					q.Name, m.mode, c, ms(r.P50), ms(r.P99), r.Throughput, r.Rows, r.PeakRSS>>20, r.PeakAnon>>20)
			}
		}
	}
	if rep.PeakRSS == 0 { // the peak could not be reset: since the start
		rep.PeakRSS = peakRSS()
	}
	if cfg.Walk > 0 {
		w, err := walk(ctx, client, base, tokens["admin"], cfg.Walk)
		if err != nil {
			return nil, err
		}
		rep.Walk = &w
		fmt.Fprintf(progress, "walk: %d rows in %d pages of %d in %s\n", w.Rows, w.Pages, w.PageSize, w.Took.Round(time.Millisecond))
	}
	return rep, nil
}

// measure runs f on c workers for warmup, then for d, and summarizes the
// second period.
func measure(ctx context.Context, f func(context.Context) (int, error), c int, warmup, d time.Duration) (Result, error) {
	var res Result
	ownPeak := resetPeakRSS()
	run := func(d time.Duration, record bool) ([]time.Duration, error) {
		var mu sync.Mutex
		var all []time.Duration
		var firstErr atomic.Value
		var rows atomic.Int64
		deadline := time.Now().Add(d)
		var wg sync.WaitGroup
		for range c {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var mine []time.Duration
				for time.Now().Before(deadline) && ctx.Err() == nil {
					t := time.Now()
					n, err := f(ctx)
					if err != nil {
						firstErr.CompareAndSwap(nil, err)
						return
					}
					mine = append(mine, time.Since(t))
					rows.Store(int64(n))
				}
				if record {
					mu.Lock()
					all = append(all, mine...)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if err, _ := firstErr.Load().(error); err != nil {
			return nil, err
		}
		res.Rows = int(rows.Load())
		return all, ctx.Err()
	}
	if _, err := run(warmup, false); err != nil {
		return res, err
	}
	start, stopSampling := time.Now(), sampleAnonRSS()
	all, err := run(d, true)
	res.PeakAnon = stopSampling()
	if err != nil {
		return res, err
	}
	elapsed := time.Since(start)
	slices.Sort(all)
	res.Requests = len(all)
	if len(all) > 0 {
		res.P50 = percentile(all, 50)
		res.P99 = percentile(all, 99)
	}
	res.Throughput = float64(len(all)) / elapsed.Seconds()
	if ownPeak {
		res.PeakRSS = peakRSS()
	}
	return res, nil
}

// percentile is the nearest-rank percentile of sorted durations.
func percentile(sorted []time.Duration, p int) time.Duration {
	k := (len(sorted)*p + 99) / 100
	return sorted[max(k-1, 0)]
}

func login(ctx context.Context, client *http.Client, base, user string) (string, error) {
	for _, l := range demo.Logins {
		if l.Alias != demo.Alias || l.User != user {
			continue
		}
		body := fmt.Sprintf(`{"alias":%q,"userName":%q,"password":%q}`, l.Alias, l.User, l.Password)
		req, err := http.NewRequestWithContext(ctx, "POST", base+"/login", bytes.NewBufferString(body))
		if err != nil {
			return "", err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		var out struct{ IdentityToken string }
		if err := decodeJSON(resp.Body, &out); err != nil || resp.StatusCode != 200 {
			return "", fmt.Errorf("login %s: status %d %v", user, resp.StatusCode, err)
		}
		return out.IdentityToken, nil
	}
	return "", fmt.Errorf("no demo user %q", user)
}

// get sends one GET and reads the whole answer.
func get(ctx context.Context, client *http.Client, url string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return 0, err
	}
	_, err = roundTrip(client, req)
	return 0, err
}

// post sends one search and reads the whole answer, counting its rows.
func post(ctx context.Context, client *http.Client, base, token, body string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", base+"/personSearch", bytes.NewBufferString(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	b, err := roundTrip(client, req)
	if err != nil {
		return 0, err
	}
	// Rows are objects in a flat array: count the opening braces of rows.
	return bytes.Count(b, []byte("},{")) + boolInt(len(b) > 2), nil
}

// roundTrip sends req and reads the whole answer, which must be a 200 (or
// a 204: a search matching nothing, no body).
func roundTrip(client *http.Client, req *http.Request) ([]byte, error) {
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != 200 && resp.StatusCode != 204 {
		return nil, fmt.Errorf("status %d: %s", resp.StatusCode, b)
	}
	return b, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d.Microseconds())/1000) }
