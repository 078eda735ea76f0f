package sqlstore_test

import (
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wire"

	"context"
	"encoding/json"
	"math/rand"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
)

// Searches of many tag and marketing filters give the model's rows. On
// PostgreSQL the filters after the fourth run as subplans instead of
// semi-joins (Dialect.subplansAfter); the rows must not change.
func TestSearchManyTagAndMarketingFilters(t *testing.T) {
	t.Parallel() // its own databases; the heaviest tests of the package overlap
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			db := openSearchDB(t, engine)
			w := newWorld(t, db)
			w.ascii = engine == "postgres"
			r := rand.New(rand.NewSource(11))
			w.insert(t, db, w.agency, w.randomPersons(r, w.agency, 200))
			ctx := context.Background()
			subplans, nonEmpty := 0, 0
			for i := range 80 {
				body := map[string]any{"includeCols": []string{"recNo", "name", "tagName", "summaryCount"}}
				if r.Intn(2) == 0 {
					body = w.randomCriteria(r)
				}
				// Up to twelve filters drawn from a few: persons pass the
				// repeated ones alike, so that some pass all of them.
				var pool []map[string]any
				for len(pool) < 3 {
					extra := w.randomCriteria(r)
					for _, key := range []string{"tags", "marketing"} {
						if fs, ok := extra[key].([]any); ok {
							pool = append(pool, map[string]any{key: fs[0]})
						}
					}
				}
				var tags, marketing []any
				for range 3 + r.Intn(10) {
					f := pick(r, pool)
					if v, ok := f["tags"]; ok {
						tags = append(tags, v)
					} else {
						marketing = append(marketing, f["marketing"])
					}
				}
				body["tags"], body["marketing"] = tags, marketing
				raw, _ := json.Marshal(body)
				c, err := wire.DecodePersonSearch(jsoncodec.Strict, raw)
				if err != nil {
					t.Fatalf("case %d: decode %s: %v", i, raw, err)
				}
				sc := w.randomScope(r)
				q, _, err := sqlstore.SearchSQLForTest(ctx, db, sc, c)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(q, "OFFSET 0)") {
					subplans++
				}
				got, err := db.SearchPersons(ctx, sc, c)
				if err != nil {
					t.Fatalf("case %d: %s: %v", i, raw, err)
				}
				if g, want := resultJSON(t, got), resultJSON(t, w.search(sc, c)); g != want {
					t.Fatalf("case %d: scope %+v body %s\n got %s\nwant %s", i, sc, raw, g, want)
				}
				if len(got.Rows) > 0 {
					nonEmpty++
				}
			}
			t.Logf("%d of 80 searches found rows, %d with subplans", nonEmpty, subplans)
			if nonEmpty == 0 {
				t.Errorf("no search found rows")
			}
			if engine == "postgres" && subplans == 0 {
				t.Errorf("no search ran filters as subplans")
			}
		})
	}
}
