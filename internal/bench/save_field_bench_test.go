package bench

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// BenchmarkSaveOneField is the second half of target 4 (issue 15): a save
// that changes one field of a typical person (its remarks) through the
// person service, beside the engine's own single-row UPDATE of that column
// (prepared) in a transaction of its own and on its own (autocommit), with
// the same durability setting (the defaults: SQLite synchronous=full), and
// the UPDATE a save sends. The ratio of the save's rate to the engine's is
// the target (≥ 0.8). PostgreSQL too when WAYFARER_TEST_POSTGRES_URL is
// set.
//
//	go test ./internal/bench -run '^$' -bench SaveOneField -benchtime 2s -count 3
func BenchmarkSaveOneField(b *testing.B) {
	for _, engine := range testserver.Engines() {
		s := testserver.Start(b, testserver.Options{Engine: engine})
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
		recNo, err := s.App.Server.Persons.Create(ctx, sess, p)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(engine+"/service: one field", func(b *testing.B) {
			old, err := s.App.Server.Persons.Load(ctx, sess, recNo, false)
			if err != nil {
				b.Fatal(err)
			}
			i := 0
			for b.Loop() {
				i++
				next := *old
				next.Remarks = wayfarer.Some(fmt.Sprintf("remark %d", i))
				v, err := s.App.Server.Persons.Update(ctx, sess, old, &next)
				if err != nil {
					b.Fatal(err)
				}
				next.Version = v
				old = &next
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "saves/s")
		})
		// The baseline is the engine's, not Wayfarer's: the one statement
		// a save of one field cannot do without, in a transaction of its own.
		b.Run(engine+"/engine: single-row UPDATE", func(b *testing.B) {
			benchUpdate(b, s, `UPDATE person SET remarks = ? WHERE agency_id = ? AND rec_no = ?`, sess.AgencyID, recNo)
		})
		// The same statement on its own, committed as it ends (autocommit):
		// on SQLite a save of one field is that (UpdatePersonRow).
		b.Run(engine+"/engine: single-row UPDATE, autocommit", func(b *testing.B) {
			benchUpdateAutocommit(b, s, `UPDATE person SET remarks = ? WHERE agency_id = ? AND rec_no = ?`, sess.AgencyID, recNo)
		})
		// The same with the two columns every save also writes (its time
		// and version); last_modified_date_time is indexed, so on
		// PostgreSQL this UPDATE is not HOT and touches every index.
		b.Run(engine+"/engine: the save's UPDATE", func(b *testing.B) {
			benchUpdate(b, s, `UPDATE person SET remarks = ?, last_modified_date_time = CURRENT_TIMESTAMP, row_version = row_version + 1 WHERE agency_id = ? AND rec_no = ?`, sess.AgencyID, recNo)
		})
	}
}

// benchUpdate runs query (its first argument the new remarks, then args)
// in a transaction of its own per iteration and reports the rate. The
// statement is prepared once, as the engine's best case (a save's are).
func benchUpdate(b *testing.B, s *testserver.Server, query string, args ...any) {
	ctx := context.Background()
	stmt := prepare(b, s, query)
	i := 0
	for b.Loop() {
		i++
		tx, err := s.App.DB.Primary().BeginTx(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tx.StmtContext(ctx, stmt).ExecContext(ctx, append([]any{fmt.Sprintf("raw %d", i)}, args...)...); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "saves/s")
}

// benchUpdateAutocommit is benchUpdate without BEGIN and COMMIT: the
// statement is its own transaction.
func benchUpdateAutocommit(b *testing.B, s *testserver.Server, query string, args ...any) {
	ctx := context.Background()
	stmt := prepare(b, s, query)
	i := 0
	for b.Loop() {
		i++
		if _, err := stmt.ExecContext(ctx, append([]any{fmt.Sprintf("raw %d", i)}, args...)...); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "saves/s")
}

func prepare(b *testing.B, s *testserver.Server, query string) *sql.Stmt {
	stmt, err := s.App.DB.Primary().PrepareContext(context.Background(), s.App.DB.Dialect.Rebind(query))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stmt.Close() })
	return stmt
}
