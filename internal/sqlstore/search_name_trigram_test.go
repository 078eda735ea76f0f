package sqlstore_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// TestSearchNameTrigram: a name Contains (last, first, middle) finds the
// same persons whether the search starts from the names' trigram index
// (few match: SQLite's IN form reads person_trigram; PostgreSQL plans its
// pg_trgm indexes itself) or walks the persons testing each; the index
// only offers candidates, the fragment decides. Saves, renames and deletes
// keep the index in step (triggers), and FTS5's integrity check against
// person passes.
func TestSearchNameTrigram(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) { testSearchNameTrigram(t, engine) })
	}
}

func testSearchNameTrigram(t *testing.T, engine string) {
	db := openSearchDB(t, engine)
	w := newWorld(t, db)
	now := time.Now()
	person := func(last, first, middle string) sqlstore.BulkPerson {
		p := sqlstore.BulkPerson{ActiveStatus: 1, Created: now, Modified: now}
		for _, f := range []struct {
			v   string
			dst **string
		}{{last, &p.LastName}, {first, &p.FirstName}, {middle, &p.MiddleName}} {
			if f.v != "" {
				*f.dst = i64str(f.v)
			}
		}
		return p
	}
	w.insert(t, db, w.agency, []sqlstore.BulkPerson{
		person("Jensen", "Ryan", ""),
		person("Hansen", "Ann", "Sen"),
		person(`O"Neil`, "Sean", "Mae"),
		person("100%_Off", "Zoe", ""),
		// every trigram of "jensen" apart, not the fragment
		person("Jen-Sen", "Enso", ""),
		person("", "Kensington", "Jensen"),
	})
	// The other agency holds the fragments too, and is never found.
	w.insert(t, db, w.agency+1, []sqlstore.BulkPerson{person("Jensen", "Ryan", "Sen")})
	ctx := context.Background()
	sc := wayfarer.Scope{AgencyID: w.agency}
	decode := func(body string) *wayfarer.SearchCriteria {
		t.Helper()
		c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(`{"includeCols":["name"],`+body+`}`))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	names := func(body string) string {
		t.Helper()
		res, err := db.SearchPersons(ctx, sc, decode(body))
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		var out []string
		for _, r := range res.Rows {
			s, _ := r[0].(string)
			out = append(out, s)
		}
		return strings.Join(out, ";")
	}
	cases := []struct{ body, want string }{
		{`"lastName":{"value":["jensen"],"compareCondition":6}`, "Jensen/Ryan"},
		{`"lastName":{"value":["SEN"],"compareCondition":6}`, "Hansen/Ann Sen;Jen-Sen/Enso;Jensen/Ryan"},
		{`"lastName":{"value":["nsen","qzx"],"compareCondition":6}`, "Hansen/Ann Sen;Jensen/Ryan"},
		{`"lastName":{"value":["o\"ne"],"compareCondition":6}`, `O"Neil/Sean Mae`},
		{`"lastName":{"value":["0%_o"],"compareCondition":6}`, "100%_Off/Zoe"},
		{`"lastName":{"value":["0_%o"],"compareCondition":6}`, ""},
		{`"lastName":{"value":["qzx"],"compareCondition":6}`, ""},
		{`"lastName":{"value":["en"],"compareCondition":6}`, "Hansen/Ann Sen;Jen-Sen/Enso;Jensen/Ryan"}, // too short for a trigram
		{`"lastName":{"value":["jensen"],"compareCondition":10}`, "/Kensington Jensen;100%_Off/Zoe;Hansen/Ann Sen;Jen-Sen/Enso;O\"Neil/Sean Mae"},
		{`"firstName":{"value":["ENS"],"compareCondition":6}`, "/Kensington Jensen;Jen-Sen/Enso"},
		{`"middleName":{"value":["jensen"],"compareCondition":6}`, "/Kensington Jensen"},
		{`"middleName":{"value":["sen"],"compareCondition":6},"lastName":{"value":["han"],"compareCondition":6}`, "Hansen/Ann Sen"},
		{`"lastName":{"value":["jen"],"compareCondition":5},"firstName":{"value":["nso"],"compareCondition":6}`, "Jen-Sen/Enso"},
	}
	check := func(when string) {
		t.Helper()
		for _, limit := range []int{2000, 0} {
			// 0: every name filter is too common to start from: walked
			restore := sqlstore.SetChildProbeLimitForTest(db, limit)
			for _, tc := range cases {
				if got := names(tc.body); got != tc.want {
					t.Errorf("%s, probe limit %d: %s: %q, want %q", when, limit, tc.body, got, tc.want)
				}
			}
			restore()
		}
	}
	check("inserted")
	if engine == "sqlite" {
		q, _, err := sqlstore.SearchSQLForTest(ctx, db, sc, decode(`"lastName":{"value":["jensen"],"compareCondition":6}`))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(q, "p.rec_no IN (SELECT fp.rec_no FROM person_trigram ct") {
			t.Errorf("a rare last name fragment does not start from person_trigram: %s", q)
		}
	}
	// A rename, a save of another column and a delete.
	for _, q := range []string{
		`UPDATE person SET last_name = 'Larsen' WHERE agency_id = ? AND last_name = 'Hansen'`,
		`UPDATE person SET remarks = 'x' WHERE agency_id = ? AND last_name = 'Jensen'`,
		`DELETE FROM person WHERE agency_id = ? AND last_name = 'Jen-Sen'`,
	} {
		if _, err := db.Primary().ExecContext(ctx, db.Dialect.Rebind(q), w.agency); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	cases = []struct{ body, want string }{
		{`"lastName":{"value":["hansen"],"compareCondition":6}`, ""},
		{`"lastName":{"value":["larsen"],"compareCondition":6}`, "Larsen/Ann Sen"},
		{`"lastName":{"value":["jensen"],"compareCondition":6}`, "Jensen/Ryan"},
		{`"firstName":{"value":["ENS"],"compareCondition":6}`, "/Kensington Jensen"},
	}
	check("changed")
	if engine == "sqlite" {
		if _, err := db.Primary().ExecContext(ctx, `INSERT INTO person_trigram (person_trigram, rank) VALUES ('integrity-check', 1)`); err != nil {
			t.Errorf("person_trigram: %v", err)
		}
	}
}
