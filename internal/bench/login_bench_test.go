package bench

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/password"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// A request's token check (LoginService.Authenticate: signature and expiry,
// then the session) with the session cache and without it, the way every
// request paid before it, on each engine:
//
//	WAYFARER_TEST_POSTGRES_URL=... go test ./internal/bench -run '^$' -bench TokenCheck -count 5
func BenchmarkTokenCheck(b *testing.B) {
	for _, engine := range testserver.Engines() {
		for _, c := range []struct {
			name  string
			cache int
		}{{"store every request", -1}, {"session cache", 0}} {
			b.Run(engine+"/"+c.name, func(b *testing.B) {
				s := testserver.Start(b, testserver.Options{Engine: engine, Config: func(cfg *app.Config) { cfg.SessionCache = c.cache }})
				tok := s.LoginDemo(b, "agent")
				ctx := context.Background()
				if _, _, err := s.App.Login.Authenticate(ctx, tok); err != nil { // warm: cached, statement prepared
					b.Fatal(err)
				}
				for b.Loop() {
					if _, _, err := s.App.Login.Authenticate(ctx, tok); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// What following the revocation log costs each instance: one read of the
// log with nothing new, as it runs every 500 ms.
//
//	WAYFARER_TEST_POSTGRES_URL=... go test ./internal/bench -run '^$' -bench RevocationPoll -count 5
func BenchmarkRevocationPoll(b *testing.B) {
	for _, engine := range testserver.Engines() {
		b.Run(engine, func(b *testing.B) {
			s := testserver.Start(b, testserver.Options{Engine: engine})
			ctx := context.Background()
			// A log with some history, as a running service has.
			for range 200 {
				tok := s.LoginDemo(b, "admin")
				if r := s.Do(b, "GET", "/logout", nil, testserver.Bearer(tok)...); r.Status != 200 {
					b.Fatal(r.Status)
				}
			}
			last, err := s.App.DB.LastRevocation(ctx)
			if err != nil || last < 200 {
				b.Fatalf("log at %d: %v", last, err)
			}
			for b.Loop() {
				if revs, _, err := s.App.DB.RevocationsSince(ctx, last, 1000); err != nil || len(revs) != 0 {
					b.Fatal(len(revs), err)
				}
			}
		})
	}
}

// TestRunFloodSmall keeps the flood measurement working, with cheap
// password hashing (the real run: `wayfarer bench flood`, BENCHMARKS.md).
func TestRunFloodSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("runs phases of real time")
	}
	var progress bytes.Buffer
	rep, err := RunFlood(context.Background(), FloodConfig{
		App:  app.Config{DB: filepath.Join(t.TempDir(), "flood.db"), CardKeys: testserver.TestCardKeys, PasswordParams: testserver.CheapPasswords, HashSlots: 1},
		Rate: 50, Loaders: 2, Flooders: 4, Phase: 300 * time.Millisecond, Rounds: 1, Progress: &progress,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Phases) != 2 || rep.Quiet.Loads == 0 || rep.Flood.Loads == 0 || rep.Flood.Logins["200"] == 0 || rep.Quiet.Logins["200"] != 0 {
		t.Fatalf("%+v", rep)
	}
	var md bytes.Buffer
	if err := rep.WriteMarkdown(&md); err != nil || !strings.Contains(md.String(), "| **all flood** |") || !strings.Contains(md.String(), "p99 during the flood") {
		t.Fatalf("%v\n%s", err, md.String())
	}
}

func TestMain(m *testing.M) {
	password.ServeWorkerIfChild() // BenchmarkLoginFlood's password worker is this binary
	os.Exit(m.Run())
}

// BenchmarkLoginFlood is the flood measurement as a go test benchmark,
// with the production password parameters; it reports the person-load p99
// with and without the flood and their ratio. One iteration runs
// WAYFARER_FLOOD_ROUNDS (default 15) rounds of 2 s phases.
//
//	go test ./internal/bench -run '^$' -bench LoginFlood -benchtime 1x -timeout 10m
func BenchmarkLoginFlood(b *testing.B) {
	rounds, _ := strconv.Atoi(os.Getenv("WAYFARER_FLOOD_ROUNDS"))
	for b.Loop() {
		rep, err := RunFlood(context.Background(), FloodConfig{
			App: app.Config{DB: filepath.Join(b.TempDir(), "flood.db"), CardKeys: testserver.TestCardKeys, PasswordParams: password.DefaultParams,
				HashProcess: os.Getenv("WAYFARER_HASH_PROCESS") != "false"},
			Rounds: rounds,
		})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(rep.Quiet.P99.Microseconds())/1000, "quiet-p99-ms")
		b.ReportMetric(float64(rep.Flood.P99.Microseconds())/1000, "flood-p99-ms")
		b.ReportMetric(rep.Ratio(), "p99-ratio")
		b.ReportMetric(rep.MedianRatio(), "p99-ratio-median-round")
		b.ReportMetric(float64(rep.Flood.Logins["429"]), "logins-429")
		b.ReportMetric(float64(rep.Flood.Logins["timeout"]), "logins-timeout")
		var md bytes.Buffer
		_ = rep.WriteMarkdown(&md)
		b.Log("\n" + md.String())
	}
}
