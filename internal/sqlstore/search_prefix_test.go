package sqlstore_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// TestSearchCommStartingWithSized: a communication value StartingWith is
// sized up first; on PostgreSQL, when few persons have a value with the
// prefix (the probe's limit, here 20), the search starts from the list of
// them, whose planner otherwise guessed a prefix nobody has for thousands
// of persons and tested every person for a page. The rows are the
// filter's either way, on both engines.
func TestSearchCommStartingWithSized(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			db := openSearchDB(t, engine)
			w := newWorld(t, db)
			var ps []sqlstore.BulkPerson
			for i := range 300 {
				ps = append(ps, sqlstore.BulkPerson{LastName: i64str(fmt.Sprintf("Name%05d", i)),
					Comms: []sqlstore.BulkComm{{Type: 1, Value: i64str(fmt.Sprintf("+1 555 %04d", i))},
						{Type: 2, Value: i64str(fmt.Sprintf("name%d@example.org", i))}}})
			}
			w.insert(t, db, w.agency, ps)
			defer sqlstore.SetTrigramLimitForTest(db, 20)()
			ctx, sc := context.Background(), wayfarer.Scope{AgencyID: w.agency}
			for _, tc := range []struct {
				prefix string
				pass   func(i int) bool
				listed bool // PostgreSQL starts from the listed persons
			}{
				{"1 5", func(int) bool { return false }, true},
				{"Name12", func(i int) bool { return strings.HasPrefix(fmt.Sprint(i), "12") }, true}, // 11 persons
				{"name1", func(i int) bool { return strings.HasPrefix(fmt.Sprint(i), "1") }, false},  // 111
				{"+1 555 02", func(i int) bool { return i >= 200 && i < 300 }, false},
			} {
				body := `{"includeCols":["recNo"],"rowCount":50,"commValue":{"value":["` + tc.prefix + `"],"compareCondition":5}}`
				c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(body))
				if err != nil {
					t.Fatal(err)
				}
				if engine == "postgres" {
					q, _, err := sqlstore.SearchSQLForTest(ctx, db, sc, c)
					if err != nil {
						t.Fatal(err)
					}
					if listed := strings.Contains(q, "p.rec_no IN (SELECT CAST(value AS bigint)"); listed != tc.listed {
						t.Errorf("%s: from the listed persons %v, want %v: %s", tc.prefix, listed, tc.listed, q)
					}
				}
				if got, want := searchRecNos(t, db, sc, c), firstPassing(ps, tc.pass); !slices.Equal(got, want) {
					t.Errorf("%s: %v, want %v", tc.prefix, got, want)
				}
			}
		})
	}
}
