package bench

import (
	"context"
	"runtime"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// BenchmarkLoadPerson is target 4 of issue 15: a typical demo person
// loaded directly (sqlstore.DB.LoadPerson) and over HTTP (GET
// /person/{recNo}), beside the transport floor.
//
//	go test ./internal/bench -run '^$' -bench LoadPerson -benchtime 2000x -count 3
func BenchmarkLoadPerson(b *testing.B) { onEngines(b, benchmarkLoadPerson) }

func benchmarkLoadPerson(b *testing.B, engine string) {
	s, client, tok, sess := benchAdmin(b, engine)
	ctx := context.Background()
	scope := sess.Scope(wayfarer.AreaPerson)
	recNo, err := typicalPerson(ctx, s.App.DB, scope)
	if err != nil {
		b.Fatal(err)
	}
	direct, overHTTP := loadFuncs(s.App.DB, scope, client, s.URL, tok, recNo)
	for _, m := range []struct {
		name string
		f    func(context.Context) (int, error)
	}{
		{"direct", direct}, {"http", overHTTP},
		{"floor", func(ctx context.Context) (int, error) { return get(ctx, client, s.URL+"/version") }},
	} {
		b.Run(m.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := m.f(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
		// Target 4's c=16: sixteen clients at once (8 per core on the
		// 2-core machines); ns/op is then the inverse of the throughput.
		b.Run(m.name+" c=16", func(b *testing.B) {
			b.SetParallelism((16 + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := m.f(ctx); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
