package demo_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/demo"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// BenchmarkBulkLoad is target 5 of issue 15: the demo's bulk load
// (demo.LoadPersons: generation, sealing and writing, indexes included)
// against the plain insert into the same schema, in the same run, on every
// engine (PostgreSQL with WAYFARER_TEST_POSTGRES_URL). The plain insert
// writes the same persons, generated beforehand and not timed, each row
// with its own single-row prepared INSERT (sqlstore.InsertPlainPersons),
// in transactions of the loader's size, on the schema with all its indexes
// and triggers, same durability. Each iteration loads into two fresh
// databases, plain first. WAYFARER_BULK_PERSONS sets the persons (default
// 20,000); SQLite files go to WAYFARER_BENCH_DIR when set;
// WAYFARER_BULK_PLAIN=0 leaves the baseline out (to profile the loader).
//
//	go test ./internal/demo -run '^$' -bench BulkLoad -benchtime 1x
func BenchmarkBulkLoad(b *testing.B) {
	n := 20000
	if v := os.Getenv("WAYFARER_BULK_PERSONS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			b.Fatal(err)
		}
	}
	for _, engine := range testserver.Engines() {
		b.Run(fmt.Sprintf("%s/persons=%d", engine, n), func(b *testing.B) {
			var plain, loader time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				if os.Getenv("WAYFARER_BULK_PLAIN") != "0" {
					plain += plainInsert(b, freshInstance(b, engine, "plain"), n)
				}
				s := freshInstance(b, engine, "loader")
				b.StartTimer()
				start := time.Now()
				added, err := demo.LoadPersons(context.Background(), s.App.DB, demo.Alias, n, s.App.Server.Persons.Sealer, nil)
				if err != nil || added != n {
					b.Fatalf("load: %d %v", added, err)
				}
				loader += time.Since(start)
			}
			pr := float64(n*b.N) / plain.Seconds()
			lr := float64(n*b.N) / loader.Seconds()
			b.ReportMetric(lr, "loader-persons/s")
			if plain > 0 {
				b.ReportMetric(pr, "plain-persons/s")
				b.ReportMetric(lr/pr, "loader/plain")
			}
			b.ReportMetric(0, "ns/op")
		})
	}
}

// freshInstance is a new seeded instance of engine; a SQLite file lives in
// WAYFARER_BENCH_DIR when set.
func freshInstance(b *testing.B, engine, name string) *testserver.Server {
	opt := testserver.Options{Engine: engine}
	if dir := os.Getenv("WAYFARER_BENCH_DIR"); dir != "" && engine == "sqlite" {
		opt.DB = filepath.Join(dir, "bulk-"+name+".db")
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(opt.DB + suffix)
		}
		b.Cleanup(func() {
			for _, suffix := range []string{"", "-wal", "-shm"} {
				os.Remove(opt.DB + suffix)
			}
		})
	}
	return testserver.Start(b, opt)
}

// plainInsert generates n demo persons, then times writing them with
// single-row INSERTs in transactions of the loader's size.
func plainInsert(b *testing.B, s *testserver.Server, n int) time.Duration {
	ctx := context.Background()
	db := s.App.DB
	ag, err := db.AgencyByAlias(ctx, demo.Alias)
	if err != nil {
		b.Fatal(err)
	}
	refs, err := demo.LoadPersonRefs(ctx, db, ag.ID, s.App.Server.Persons.Sealer)
	if err != nil {
		b.Fatal(err)
	}
	persons := make([]sqlstore.BulkPerson, n)
	for i := range persons {
		if persons[i], err = demo.GeneratePerson(demo.DemoPersonSeed, i, refs); err != nil {
			b.Fatal(err)
		}
	}
	start := time.Now()
	for lo := 0; lo < n; lo += demo.BulkBatch {
		if err := db.InsertPlainPersons(ctx, ag.ID, persons[lo:min(lo+demo.BulkBatch, n)]); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(start)
}
