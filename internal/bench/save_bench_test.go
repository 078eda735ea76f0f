package bench

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// savedPerson is a new person with a card of each type, two
// communications, a tag and an action item: one save writes about ten rows.
const savedPerson = `{"firstName":"Ken","lastName":"Abler","activeStatus":1,"birthdayDay":15,"birthdayMonth":3,
	"personCommunicationLink":[{"communication":{"type":1,"value":"+1 555 0100","isPrimary":true}},
	                           {"communication":{"type":2,"value":"ken@example.com","isPrimary":true,"permitMarketing":true}}],
	"personCardLink":[{"card":{"type":1,"cardNumber":"4111 1111 1111 1111","expirationDate":"2028-12-31","nameOnCard":"KEN ABLER"}},
	                  {"card":{"type":2,"cardNumber":"UA-778899","description":"MileagePlus"}},
	                  {"card":{"type":3,"cardNumber":"X1234567","issuingCountry":"US"}}],
	"personTag":[{"tag_recNo":%d,"value":"gold"}],
	"personActionItemLink":[{"personActionItem":{"description":"Call","triggerIndex":1,"triggerFixedDate":"2026-12-01"}}]}`

// BenchmarkSavePerson is the save rate of SQLite by --sqlite-synchronous:
// person creations through the person service (one transaction each),
// one client at a time and 8 at once (SQLite takes one writer at a time:
// the others wait for its lock). docs/benchmarks/first-sessions.md, "Saves and durability".
// The file lives in WAYFARER_BENCH_DIR when set (the disk to measure),
// else in the test's temporary directory.
//
//	go test ./internal/bench -run '^$' -bench SavePerson -benchtime 2s -count 3
func BenchmarkSavePerson(b *testing.B) {
	for _, mode := range []string{"normal", "full"} {
		dir := os.Getenv("WAYFARER_BENCH_DIR")
		if dir == "" {
			dir = b.TempDir()
		}
		path := fmt.Sprintf("%s/save-%s.db", dir, mode)
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(path + suffix)
		}
		s := testserver.Start(b, testserver.Options{DB: path, Config: func(c *app.Config) { c.SQLiteSynchronous = mode }})
		ctx := context.Background()
		sess, _, err := s.App.Login.Authenticate(ctx, s.LoginDemo(b, "admin"))
		if err != nil {
			b.Fatal(err)
		}
		tag, err := s.App.DB.EnsureTag(ctx, sess.AgencyID, "VIP")
		if err != nil {
			b.Fatal(err)
		}
		_, p, err := wire.DecodePersonSave(jsoncodec.Strict, fmt.Appendf(nil, savedPerson, tag))
		if err != nil {
			b.Fatal(err)
		}
		save := func() {
			if _, err := s.App.Server.Persons.Create(ctx, sess, p); err != nil {
				b.Fatal(err)
			}
		}
		b.Run("synchronous="+mode+"/c=1", func(b *testing.B) {
			for b.Loop() {
				save()
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "saves/s")
		})
		b.Run("synchronous="+mode+"/c=8", func(b *testing.B) {
			b.SetParallelism(4) // 2 cores: 8 goroutines
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					save()
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "saves/s")
		})
	}
}
