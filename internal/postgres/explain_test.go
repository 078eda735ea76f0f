package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/bench"
	"github.com/wayfarerhq/wayfarer/internal/demo"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/postgres"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// tracer records the statements a search sends, by text: stdlib executes
// prepared statements by name, so the names are mapped back.
type tracer struct {
	mu    sync.Mutex
	names map[string]string
	sent  []traced
}

type traced struct {
	sql  string
	args []any
}

func (tr *tracer) TracePrepareStart(ctx context.Context, _ *pgx.Conn, d pgx.TracePrepareStartData) context.Context {
	tr.mu.Lock()
	tr.names[d.Name] = d.SQL
	tr.mu.Unlock()
	return ctx
}
func (tr *tracer) TracePrepareEnd(context.Context, *pgx.Conn, pgx.TracePrepareEndData) {}
func (tr *tracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	tr.mu.Lock()
	q := d.SQL
	if s, ok := tr.names[q]; ok {
		q = s
	}
	tr.sent = append(tr.sent, traced{q, slices.Clone(d.Args)})
	tr.mu.Unlock()
	return ctx
}
func (tr *tracer) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// TestExplainBenchQueries prints, for each query of the search benchmark,
// the server-side execution time of its SQL (EXPLAIN ANALYZE, median of
// runs) and its plan: the "time on the database" beside the benchmark's
// direct and HTTP times. Not a test: run by hand on the benchmark database,
//
//	WAYFARER_EXPLAIN_DB=postgres://... go test ./internal/postgres -run TestExplainBenchQueries -v
func TestExplainBenchQueries(t *testing.T) {
	url := os.Getenv("WAYFARER_EXPLAIN_DB")
	if url == "" {
		t.Skip("WAYFARER_EXPLAIN_DB not set")
	}
	ctx := context.Background()
	a, err := app.Open(ctx, app.Config{DB: url, CardKeys: testserver.TestCardKeys},
		slog.New(slog.NewTextHandler(io.Discard, nil)), wayfarer.SystemClock{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()

	dsn, _, err := postgres.ParsePool(url)
	if err != nil {
		t.Fatal(err)
	}
	cc, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	tr := &tracer{names: map[string]string{}}
	cc.Tracer = tr
	traced := sqlstore.New(stdlib.OpenDB(*cc), sqlstore.Postgres, postgres.Migrations())
	defer traced.Close()

	const runs = 16
	for _, q := range bench.Queries {
		var pw string
		for _, l := range demo.Logins {
			if l.Alias == demo.Alias && l.User == q.User {
				pw = l.Password
			}
		}
		tok, err := a.Login.Login(ctx, wayfarer.LoginRequest{Alias: demo.Alias, UserName: q.User, Password: pw})
		if err != nil {
			t.Fatal(err)
		}
		sess, _, err := a.Login.Authenticate(ctx, tok)
		if err != nil {
			t.Fatal(err)
		}
		if q.Name == bench.LoadQuery {
			continue // not a search
		}
		agent, err := a.DB.UserByName(ctx, sess.AgencyID, "agent")
		if err != nil {
			t.Fatal(err)
		}
		body, err := bench.WithTagIDs(ctx, a.DB, sess.AgencyID, bench.ExpandBody(q.Body, agent.ID, time.Now().UTC()))
		if err != nil {
			t.Fatal(err)
		}
		crit, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		crit.ActivityScope = sess.ActivityReach() // the service's part
		tr.mu.Lock()
		tr.sent = nil
		tr.mu.Unlock()
		if _, err := traced.SearchPersons(ctx, sess.Scope(wayfarer.AreaPerson), crit); err != nil {
			t.Fatal(err)
		}
		tr.mu.Lock()
		sent := slices.Clone(tr.sent)
		tr.mu.Unlock()
		var total []time.Duration
		var plans []string
		for _, s := range sent {
			if len(s.args) == 0 && !strings.Contains(s.sql, "SELECT") {
				continue // BEGIN and the like
			}
			var times []time.Duration
			var plan string
			for i := range runs {
				// Per-node timing costs more than a fast query: only the
				// last run, whose plan is shown, has it.
				opts := "ANALYZE, TIMING OFF, FORMAT JSON"
				if i == runs-1 {
					opts = "ANALYZE, BUFFERS, FORMAT JSON"
				}
				var out []byte
				if err := a.DB.Primary().QueryRowContext(ctx, "EXPLAIN ("+opts+") "+s.sql, s.args...).Scan(&out); err != nil {
					t.Fatalf("%s: explain: %v\n%s", q.Name, err, s.sql)
				}
				var ex []struct {
					Plan          json.RawMessage `json:"Plan"`
					ExecutionTime float64         `json:"Execution Time"`
					PlanningTime  float64         `json:"Planning Time"`
				}
				if err := json.Unmarshal(out, &ex); err != nil || len(ex) != 1 {
					t.Fatalf("explain output: %v %s", err, out)
				}
				if i < runs-1 {
					times = append(times, time.Duration((ex[0].ExecutionTime+ex[0].PlanningTime)*float64(time.Millisecond)))
				}
				plan = string(out)
			}
			slices.Sort(times)
			total = append(total, times[len(times)/2])
			plans = append(plans, s.sql+"\n"+plan)
		}
		var sum time.Duration
		for _, d := range total {
			sum += d
		}
		fmt.Printf("| %s | %d | %.2fms |\n", q.Name, len(total), float64(sum)/float64(time.Millisecond))
		if testing.Verbose() {
			for _, p := range plans {
				t.Logf("%s:\n%s", q.Name, p)
			}
		}
	}
}
