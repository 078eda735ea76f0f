package bench

import (
	"context"
	"runtime"
	"testing"
)

// BenchmarkWalk walks every person of the bench data set (20,000 persons,
// or WAYFARER_BENCH_PERSONS) over HTTP by continuation in pages of 1,000,
// one walk an iteration (issue 15 target 3: 1,000,000 persons within 15 s;
// `wayfarer bench --walk 1000` at full size).
//
//	go test ./internal/bench -run '^$' -bench Walk -benchtime 5x
func BenchmarkWalk(b *testing.B) { onEngines(b, benchmarkWalk) }

func benchmarkWalk(b *testing.B, engine string) {
	s, client, tok, sess := benchAdmin(b, engine)
	ctx := context.Background()
	n, err := s.App.DB.CountPersons(ctx, sess.AgencyID)
	if err != nil {
		b.Fatal(err)
	}
	var rows int64
	for b.Loop() {
		w, err := walk(ctx, client, s.URL, tok, 1000)
		if err != nil {
			b.Fatal(err)
		}
		if int64(w.Rows) != n {
			b.Fatalf("the walk read %d persons of %d", w.Rows, n)
		}
		rows += int64(w.Rows)
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "persons/s")
}

// BenchmarkSearchMemory runs each search of Queries over HTTP with 16
// clients at once and reports the process's memory meanwhile (issue 15
// target 6: at most 150 MB under every query at c=16): "anon-MB", the
// highest anonymous resident memory sampled every 10 ms (heap, stacks,
// the connections' own caches), and "rss-MB", the peak resident set
// (VmHWM), which on SQLite also counts the mapped database file's pages
// (docs/deployment.md, "SQLite: memory"). The process holds the server,
// its driver and the clients, so both bound the server's from above.
//
//	go test ./internal/bench -run '^$' -bench SearchMemory -benchtime 500x
func BenchmarkSearchMemory(b *testing.B) { onEngines(b, benchmarkSearchMemory) }

func benchmarkSearchMemory(b *testing.B, engine string) {
	s, client := benchServer(b, engine)
	ctx := context.Background()
	for _, q := range benchSearches(b, s) {
		b.Run(q.Name, func(b *testing.B) {
			resetPeakRSS()
			stop := sampleAnonRSS()
			// 16 clients: RunParallel starts parallelism × GOMAXPROCS.
			b.SetParallelism(max(1, 16/runtime.GOMAXPROCS(0)))
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := post(ctx, client, s.URL, q.tok, q.body); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(stop())/(1<<20), "anon-MB")
			b.ReportMetric(float64(peakRSS())/(1<<20), "rss-MB")
		})
	}
}
