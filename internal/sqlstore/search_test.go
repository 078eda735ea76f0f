package sqlstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"

	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// randomCriteria builds a random personSearch body from the data set's
// vocabulary, so that filters hit and miss.
func (w *world) randomCriteria(r *rand.Rand) map[string]any {
	body := map[string]any{}
	coin := func(n int) bool { return r.Intn(n) == 0 }
	var cols []string
	for _, c := range wayfarer.SearchColumns {
		if coin(6) {
			cols = append(cols, c.Name)
		}
	}
	r.Shuffle(len(cols), func(i, j int) { cols[i], cols[j] = cols[j], cols[i] })
	if len(cols) > 0 || coin(2) {
		body["includeCols"] = cols
	}
	fragments := []string{"ab", "Abler", "ABL", "ab%", "a_", "ken", "", "smith", "\\", "example", "555", "@", "%_", "é", "Bäck", "u", "gold"}
	if w.ascii {
		fragments = asciiOnly(fragments)
	}
	if w.ascii {
		fragments = asciiOnly(fragments)
	}
	// An empty value is a 407 for the conditions that compare values
	// (wayfarer.srStringParamFromMembers); Ignore, Blank and NotBlank take
	// any, "" included.
	compared := slices.DeleteFunc(slices.Clone(fragments), func(s string) bool { return s == "" })
	strParam := func() map[string]any {
		cond := r.Intn(11)
		var vals []string
		for range 1 + r.Intn(2) {
			pool := fragments
			if cond != 0 && cond != 3 && cond != 4 {
				pool = compared
			}
			v := pick(r, pool)
			if cond == 7 || cond == 8 {
				v = pick(r, []string{"abler,smith", "Zed", "ken, anna", "gold", "U-1,U-2"})
			}
			vals = append(vals, v)
		}
		if cond == 3 || cond == 4 || cond == 0 {
			if coin(2) {
				vals = nil
			}
		}
		return map[string]any{"value": vals, "compareCondition": cond}
	}
	numParam := func(pool []int64) map[string]any {
		cond := r.Intn(5)
		vals := []int64{pick(r, pool)}
		if coin(2) {
			vals = append(vals, pick(r, pool))
		}
		m := map[string]any{"value": vals}
		if cond != 1 || coin(2) {
			m["compareCondition"] = cond
		}
		return m
	}
	persons := w.persons[w.agency]
	var recNos []int64
	for range 5 {
		recNos = append(recNos, pick(r, persons).RecNo)
	}
	profiles, users := w.ids(w.profiles, w.agency), w.ids(w.users, w.agency)
	dateParam := func() map[string]any {
		d := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.Intn(900))
		if coin(2) {
			return map[string]any{"date": d.Format("01/02/2006")}
		}
		return map[string]any{"date": d.Format(time.DateOnly)}
	}
	timeParam := func() map[string]any {
		d := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(r.Int63n(int64(500 * 24 * time.Hour))))
		if coin(2) {
			return map[string]any{"date": d.Format(time.DateOnly)}
		}
		return map[string]any{"dateTime": d.Format(time.RFC3339Nano)}
	}
	shorts := func(lo, hi int) []int {
		var v []int
		for range 1 + r.Intn(2) {
			v = append(v, lo+r.Intn(hi-lo+1))
		}
		return v
	}
	params := map[string]func() any{
		"lastName":               func() any { return strParam() },
		"firstName":              func() any { return strParam() },
		"middleName":             func() any { return strParam() },
		"commValue":              func() any { return strParam() },
		"commValueCountryDomain": func() any { return strParam() },
		"commValueCityArea": func() any {
			p := strParam()
			for i, v := range p["value"].([]string) {
				if len([]rune(v)) > 4 {
					p["value"].([]string)[i] = v[:2]
				}
			}
			return p
		},
		"commValueUserSpecific":            func() any { return strParam() },
		"recNo":                            func() any { return numParam(recNos) },
		"profileRecNo":                     func() any { return numParam(profiles[2:]) },
		"birthdayMonth":                    func() any { return numParam([]int64{1, 6, 12}) },
		"cardSubType":                      func() any { return numParam([]int64{1, 2, 3}) },
		"AdvisorProfileRecNo":              func() any { return numParam(profiles[:2]) },
		"actionItemAssignedToAppUserRecNo": func() any { return numParam(users) },
		"UniqueId":                         func() any { return fmt.Sprintf("U-%d", r.Intn(30)) },
		"commType":                         func() any { return shorts(1, 4) },
		"cardType":                         func() any { return shorts(1, 3) },
		"activeStatus":                     func() any { return shorts(0, 2) },
		"birthdayMonthFrom":                func() any { return r.Intn(13) },
		"birthdayMonthTo":                  func() any { return r.Intn(13) },
		"birthdayDayFrom":                  func() any { return r.Intn(32) },
		"birthdayDayTo":                    func() any { return r.Intn(32) },
		"createDateTimeFrom":               func() any { return timeParam() },
		"createDateTimeTo":                 func() any { return timeParam() },
		"modifiedDateTimeFrom":             func() any { return timeParam() },
		"modifiedDateTimeTo":               func() any { return timeParam() },
		"cardExpirationDateFrom":           func() any { return dateParam() },
		"cardExpirationDateTo":             func() any { return dateParam() },
		"actionItemDateFrom":               func() any { return dateParam() },
		"actionItemDateTo":                 func() any { return dateParam() },
		"emailPermitMarketing":             func() any { return coin(2) },
		"phonePermitMarketing":             func() any { return coin(2) },
		"actionItemCompleted":              func() any { return coin(2) },
		"distinct":                         func() any { return coin(2) },
		"skipLookup":                       func() any { return coin(2) },
		"startingRow":                      func() any { return r.Intn(20) },
		"rowCount":                         func() any { return r.Intn(15) },
		"topRows":                          func() any { return r.Intn(40) },
		"marketing": func() any {
			m := map[string]any{"checked": coin(2)}
			switch r.Intn(3) {
			case 0:
				m["marketingElementRecNo"] = pick(r, w.ids(w.elements, w.agency))
			case 1:
				m["marketingElementId"] = pick(r, []string{"noemm", "PROMO", "nothing"})
			default:
				m["affiliation"] = 0
				m["marketingElementId"] = "NOEMM"
			}
			return []any{m}
		},
		"tags": func() any {
			// recNo is required (404 otherwise); tagRecNo is its older name
			m := map[string]any{}
			key := "recNo"
			if coin(3) {
				key = "tagRecNo"
			}
			m[key] = pick(r, w.ids(w.tags, w.agency))
			if coin(2) {
				m["checked"] = coin(2)
			}
			if coin(3) {
				m["tagName"] = pick(r, []string{"vip", "DIET", "none"})
			}
			if coin(2) {
				m["value"] = strParam()
			}
			return []any{m}
		},
	}
	names := make([]string, 0, len(params))
	for name := range params {
		names = append(names, name)
	}
	slices.Sort(names) // the same seed, the same searches
	for _, name := range names {
		if coin(7) {
			body[name] = params[name]()
		}
	}
	return body
}

func (w *world) randomScope(r *rand.Rand) wayfarer.Scope {
	sc := wayfarer.Scope{AgencyID: w.agency}
	if r.Intn(3) == 0 {
		sc.OnlySelf = true
		ps := w.ids(w.profiles, w.agency)
		if r.Intn(4) > 0 {
			sc.AdvisorIDs = []int64{pick(r, ps[:2])}
		}
	}
	if r.Intn(3) == 0 {
		sc.OnlyBranch = true
		if r.Intn(4) > 0 {
			sc.BranchID = i64(pick(r, w.ids(w.branches, w.agency)))
		}
	}
	return sc
}

func TestSearchMatchesModel(t *testing.T) {
	t.Parallel() // its own databases; the heaviest tests of the package overlap
	for _, engine := range searchEngines() {
		// Each engine on its own database, and SQLite's cases split over
		// two databases holding the same world: the parts run side by side.
		parts := 1
		if engine == "sqlite" {
			parts = 2
		}
		for part := range parts {
			t.Run(fmt.Sprintf("%s/%d-of-%d", engine, part+1, parts), func(t *testing.T) {
				t.Parallel()
				testSearchMatchesModel(t, engine, part, parts)
			})
		}
	}
}

// testSearchMatchesModel runs the cases i with i%parts == part (every case
// is drawn in every part, so the cases are the same however they are split).
func testSearchMatchesModel(t *testing.T, engine string, part, parts int) {
	db := openSearchDB(t, engine)
	w := newWorld(t, db)
	w.ascii = engine == "postgres"
	seed := int64(1)
	if v, err := strconv.ParseInt(os.Getenv("WAYFARER_SEARCH_SEED"), 10, 64); err == nil {
		seed = v // to explore: WAYFARER_SEARCH_SEED=n
	}
	r := rand.New(rand.NewSource(seed))
	limits := rand.New(rand.NewSource(seed)) // apart, so that r draws the same cases
	w.insert(t, db, w.agency, w.randomPersons(r, w.agency, 300))
	w.insert(t, db, w.agency+1, w.randomPersons(r, w.agency+1, 100))
	ctx := context.Background()
	iterations := 1500
	switch {
	case engine == "postgres":
		iterations = 400 // a round trip per query costs more there
	case raceDetector:
		// The race detector instruments the transpiled SQLite too, about
		// ten times slower: 1,500 cases would take two minutes of the
		// suite. The same first 600 cases run; a build without -race
		// (go test ./internal/sqlstore/) runs all 1,500.
		iterations = 600
	}
	if testing.Short() {
		iterations = 200
	}
	nonEmpty, ran := 0, 0
	for i := range iterations {
		body := w.randomCriteria(r)
		raw, _ := json.Marshal(body)
		c, err := wire.DecodePersonSearch(jsoncodec.Strict, raw)
		if err != nil {
			t.Fatalf("case %d: decode %s: %v", i, raw, err)
		}
		sc := w.randomScope(r)
		// Child filters run as EXISTS or IN by how many rows pass them
		// (few: at most the limit); both forms must give the same rows.
		limit := pick(limits, []int{0, 3, 1 << 20})
		// A page past startingRow 0 skips on the persons' keys alone in
		// the deep page form (search_deep.go): the same rows either way.
		deepFrom := pick(limits, []int64{1, 1 << 40})
		// A distinct search walks its rows first, or groups them all
		// (search_distinct.go; 7 rows: the walk often stops short, mid
		// person): the same rows either way.
		distinctRows := pick(limits, []int64{0, 7, 1 << 20})
		if i%parts != part {
			continue
		}
		ran++
		restore := sqlstore.SetChildProbeLimitForTest(db, limit)
		restoreDeep := sqlstore.SetDeepPageFromForTest(db, deepFrom)
		restoreDistinct := sqlstore.SetDistinctWalkForTest(db, distinctRows)
		got, err := db.SearchPersons(ctx, sc, c)
		restoreDistinct()
		restoreDeep()
		restore()
		if err != nil {
			t.Fatalf("case %d: %s: %v", i, raw, err)
		}
		want := w.search(sc, c)
		g, wnt := resultJSON(t, got), resultJSON(t, want)
		if g != wnt {
			t.Fatalf("case %d: scope %+v body %s\n got %s\nwant %s", i, sc, raw, g, wnt)
		}
		if len(got.Rows) > 0 {
			nonEmpty++
		}
	}
	// The generator must hit as well as miss.
	if nonEmpty < ran/5 {
		t.Errorf("only %d of %d searches found rows", nonEmpty, ran)
	}
	t.Logf("%d of %d searches found rows", nonEmpty, ran)
}

func TestSearchNeverLeavesAgency(t *testing.T) {
	db := openSearchDB(t, "sqlite")
	w := newWorld(t, db)
	r := rand.New(rand.NewSource(2))
	w.insert(t, db, w.agency, w.randomPersons(r, w.agency, 50))
	w.insert(t, db, w.agency+1, w.randomPersons(r, w.agency+1, 50))
	mine := map[int64]bool{}
	for _, p := range w.persons[w.agency] {
		mine[p.RecNo] = true
	}
	c, _ := wire.DecodePersonSearch(jsoncodec.Strict, []byte(`{"includeCols":["recNo"]}`))
	res, err := db.SearchPersons(context.Background(), wayfarer.Scope{AgencyID: w.agency}, c)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 50 {
		t.Errorf("%d rows, want 50", len(res.Rows))
	}
	for _, row := range res.Rows {
		if !mine[row[0].(int64)] {
			t.Errorf("row of another agency: %v", row)
		}
	}
}

func TestSearchSQLHasNoInput(t *testing.T) {
	// Every value reaches SQL as an argument: a hostile value never shows
	// up in the statement's text.
	db := openSearchDB(t, "sqlite")
	w := newWorld(t, db)
	evil := `x'); DROP TABLE person; --`
	body := fmt.Sprintf(`{"lastName":{"value":[%[1]q],"compareCondition":5},"firstName":{"value":[%[1]q],"compareCondition":6},
		"commValue":{"value":[%[1]q],"compareCondition":7},"UniqueId":%[1]q,"tags":[{"recNo":1,"tagName":%[1]q}],
		"marketing":[{"marketingElementId":%[1]q}],"includeCols":["recNo","summaryCount"]}`, evil)
	c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	q, args := sqlstore.BuildSearchForTest(db, wayfarer.Scope{AgencyID: w.agency}, c)
	if strings.Contains(q, "DROP") || len(args) < 6 {
		t.Errorf("input in SQL text: %s", q)
	}
	if _, err := db.SearchPersons(context.Background(), wayfarer.Scope{AgencyID: w.agency}, c); err != nil {
		t.Fatal(err)
	}
}

func TestSearchReadOnlyIntentUsesReplica(t *testing.T) {
	primary, replica := openSearchDB(t, "sqlite"), openSearchDB(t, "sqlite")
	wp, wr := newWorld(t, primary), newWorld(t, replica)
	r := rand.New(rand.NewSource(3))
	wp.insert(t, primary, wp.agency, wp.randomPersons(r, wp.agency, 5))
	wr.insert(t, replica, wr.agency, wr.randomPersons(r, wr.agency, 2))
	primary.SetReplica(replica.Primary())
	count := func(body string) int {
		c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		res, err := primary.SearchPersons(context.Background(), wayfarer.Scope{AgencyID: wp.agency}, c)
		if err != nil {
			t.Fatal(err)
		}
		return len(res.Rows)
	}
	if n := count(`{"includeCols":["recNo"]}`); n != 5 {
		t.Errorf("primary: %d rows", n)
	}
	if n := count(`{"includeCols":["recNo","summaryCount"],"readOnlyIntent":true}`); n != 2 {
		t.Errorf("replica: %d rows", n)
	}
}

func TestSearchTrigramCandidates(t *testing.T) {
	// The trigram index offers candidates (SQLite: FTS5, sized up first;
	// PostgreSQL: pg_trgm, asked for at most three trigrams of a Contains
	// fragment): the fragment itself still decides.
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) { testSearchTrigramCandidates(t, engine) })
	}
}

func testSearchTrigramCandidates(t *testing.T, engine string) {
	db := openSearchDB(t, engine)
	w := newWorld(t, db)
	ps := []sqlstore.BulkPerson{
		{LastName: i64str("One"), Comms: []sqlstore.BulkComm{{Type: 2, Value: i64str("ÉMILE@Example.org")}}},
		{LastName: i64str("Two"), Comms: []sqlstore.BulkComm{{Type: 2, Value: i64str(`say "hi" OR NOT x`)}}},
		{LastName: i64str("Three"), Comms: []sqlstore.BulkComm{{Type: 1, Value: i64str("555-0100")}}},
		// holds the first, middle and last trigram of "ryan.jensen", the
		// index's candidates for it, but not the fragment
		{LastName: i64str("Four"), Comms: []sqlstore.BulkComm{{Type: 2, Value: i64str("sen.ryan@x.je")}}},
		{LastName: i64str("Five"), Comms: []sqlstore.BulkComm{{Type: 2, Value: i64str("Ryan.Jensen@example.org")}}},
		// the pieces of "ryan.jensen" in its order, apart ("rya", "jen",
		// "sen"), but not the fragment; and LIKE's wildcards as text
		{LastName: i64str("Six"), Comms: []sqlstore.BulkComm{{Type: 2, Value: i64str("rya-jen-sen@x.org")}}},
		{LastName: i64str("Seven"), Comms: []sqlstore.BulkComm{{Type: 4, Value: i64str(`100%_off\deal`)}}},
		// a combining mark after a letter (no piece ends before it)
		{LastName: i64str("Eight"), Comms: []sqlstore.BulkComm{{Type: 2, Value: i64str("abcI\u0307def@x.org")}}},
		// every trigram of "4711" ("471", "711"), apart, and the fragment
		{LastName: i64str("Nine"), Comms: []sqlstore.BulkComm{{Type: 1, Value: i64str("+1 471 0711")}}},
		{LastName: i64str("Ten"), Comms: []sqlstore.BulkComm{{Type: 1, Value: i64str("+1 555 4711")}}},
	}
	for i := range ps {
		ps[i].Created, ps[i].Modified = time.Now(), time.Now()
	}
	w.insert(t, db, w.agency, ps)
	// an update and a delete keep the index in step
	mustExec(t, db, "UPDATE communication SET value = '555-0199' WHERE value = '555-0100'")
	names := func(body string) string {
		c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(`{"includeCols":["lastName"],`+body+`}`))
		if err != nil {
			t.Fatal(err)
		}
		res, err := db.SearchPersons(context.Background(), wayfarer.Scope{AgencyID: w.agency}, c)
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		var out []string
		for _, r := range res.Rows {
			out = append(out, r[0].(string))
		}
		return strings.Join(out, ",")
	}
	cases := []struct{ body, want string }{
		{`"commValue":{"value":["mile@EXAMPLE"],"compareCondition":6}`, "One"},
		{`"commValue":{"value":["ÉMILE@ex"],"compareCondition":6}`, "One"},
		{`"commValue":{"value":["ÉMILE"],"compareCondition":5}`, "One"},
		{`"commValue":{"value":["\"hi\" or"],"compareCondition":6}`, "Two"},
		{`"commValue":{"value":["0199","xyz"],"compareCondition":6}`, "Three"},
		{`"commValue":{"value":["0100"],"compareCondition":6}`, ""},
		{`"commValue":{"value":["555-0199, nothing"],"compareCondition":7}`, "Three"},
		{`"commValue":{"value":["55"],"compareCondition":5}`, "Three"}, // too short for trigrams: scanned
		{`"commValue":{"value":["ryan.jensen"],"compareCondition":6}`, "Five"},
		{`"commValue":{"value":["sen.ryan@x.je","ryan.jensen@example.org"],"compareCondition":1}`, "Five,Four"},
		{`"commValue":{"value":["ryan.jensen"],"compareCondition":10}`, "Eight,Four,Nine,One,Seven,Six,Ten,Three,Two"},
		{`"commValue":{"value":["4711"],"compareCondition":6}`, "Ten"},
		{`"commValue":{"value":["1 0711"],"compareCondition":6}`, "Nine"},
		{`"commValue":{"value":["RYAN.jensen@EX"],"compareCondition":6}`, "Five"},
		{`"commValue":{"value":["jensen"],"compareCondition":6}`, "Five"},
		{`"commValue":{"value":["jen-sen"],"compareCondition":6}`, "Six"},
		{`"commValue":{"value":["sen@"],"compareCondition":6}`, "Five,Six"},
		{`"commValue":{"value":["0%_OFF\\d"],"compareCondition":6}`, "Seven"},
		{`"commValue":{"value":["0_%off"],"compareCondition":6}`, ""},
		{`"commValue":{"value":["ryan.jensen","off"],"compareCondition":6}`, "Five,Seven"},
		{`"commValue":{"value":["bcI\u0307de"],"compareCondition":6}`, "Eight"},
		{`"commValue":{"value":["ryan.jensen","off"],"compareCondition":10}`, "Eight,Four,Nine,One,Six,Ten,Three,Two"},
	}
	if engine == "sqlite" {
		// ASCII folding, as everywhere on SQLite (PostgreSQL's lower() folds É)
		cases = append(cases, struct{ body, want string }{`"commValue":{"value":["émile"],"compareCondition":6}`, ""},
			struct{ body, want string }{`"commValue":{"value":["émile@example.org"],"compareCondition":1}`, ""})
	}
	for _, limit := range []int{2000, 0} {
		// 0: every fragment has too many candidates, so the filter is sized
		// up by walking the index's candidates (and then runs either way)
		restore := sqlstore.SetTrigramLimitForTest(db, limit)
		for _, tc := range cases {
			if got := names(tc.body); got != tc.want {
				t.Errorf("trigram limit %d: %s: %q, want %q", limit, tc.body, got, tc.want)
			}
		}
		restore()
	}
	// Both engines start from the candidates when few: SQLite's from the
	// FTS5 index, PostgreSQL's from a probe of a fragment longer than its
	// one piece (probeContains): "sen@" ("sen", as "0199" "019"), not
	// "ryan.jensen" (three pieces) or "off" (its own piece).
	fromCandidates := func(body string) bool {
		c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(`{"includeCols":["lastName"],`+body+`}`))
		if err != nil {
			t.Fatal(err)
		}
		q, _, err := sqlstore.SearchSQLForTest(context.Background(), db, wayfarer.Scope{AgencyID: w.agency}, c)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Contains(q, "cm.rec_no IN (SELECT")
	}
	for body, want := range map[string]bool{
		`"commValue":{"value":["ryan.jensen"],"compareCondition":6}`: engine == "sqlite",
		`"commValue":{"value":["sen@"],"compareCondition":6}`:        true,
		`"commValue":{"value":["0199","xyz"],"compareCondition":6}`:  true,
		`"commValue":{"value":["4711"],"compareCondition":6}`:        true,
		`"commValue":{"value":["off"],"compareCondition":6}`:         engine == "sqlite",
		// negated: no index can offer candidates; SQLite lists the few
		// communications passing it by reading them (scanComms)
		`"commValue":{"value":["ryan.jensen"],"compareCondition":10}`: engine == "sqlite",
	} {
		if got := fromCandidates(body); got != want {
			t.Errorf("%s: from the candidates %v, want %v", body, got, want)
		}
	}
	mustExec(t, db, "DELETE FROM communication WHERE value = '555-0199'")
	if got := names(`"commValue":{"value":["0199"],"compareCondition":6}`); got != "" {
		t.Errorf("after delete: %q", got)
	}
}

func TestSearchChildFilterForms(t *testing.T) {
	// A child filter runs as EXISTS or, when few rows pass it, as IN over
	// their persons: both give the same rows and summaryCount, within the
	// agency, for filters matching nobody, few persons, or every one.
	db := openSearchDB(t, "sqlite")
	w := newWorld(t, db)
	now := time.Now()
	ps := []sqlstore.BulkPerson{
		{LastName: i64str("Ames"), Comms: []sqlstore.BulkComm{{Type: 1, Value: i64str("555-0100")}},
			Cards:       []sqlstore.BulkCard{{Type: 2, SubType: i64(5), Number: "L-1"}},
			ActionItems: []sqlstore.BulkActionItem{{Date: i64str("2026-12-01")}}},
		{LastName: i64str("Baker"), Comms: []sqlstore.BulkComm{{Type: 1, Value: i64str("555-0101")}, {Type: 2, Value: i64str("b@example.org")}},
			Cards: []sqlstore.BulkCard{{Type: 2, SubType: i64(2), Number: "L-2"}, {Type: 3, Number: "T-2"}}},
		{LastName: i64str("Cole"), Comms: []sqlstore.BulkComm{{Type: 1, Value: i64str("555-0102")}},
			Cards: []sqlstore.BulkCard{{Type: 2, SubType: i64(2), Number: "L-3"}}},
		{LastName: i64str("Dunn")},
	}
	// the other agency has what this one lacks: social media, a December 2 action item
	other := []sqlstore.BulkPerson{{LastName: i64str("Ames"), Comms: []sqlstore.BulkComm{{Type: 3, Value: i64str("@ames")}},
		Cards: []sqlstore.BulkCard{{Type: 2, SubType: i64(2), Number: "L-9"}}, ActionItems: []sqlstore.BulkActionItem{{Date: i64str("2026-12-02")}}}}
	for _, p := range [][]sqlstore.BulkPerson{ps, other} {
		for i := range p {
			p[i].Created, p[i].Modified = now, now
		}
	}
	w.insert(t, db, w.agency, ps)
	w.insert(t, db, w.agency+1, other)

	cases := []struct{ body, want string }{
		{`"commType":[3]`, ""},
		{`"commType":[2]`, "Baker"},
		{`"commType":[1]`, "Ames,Baker,Cole"},
		{`"cardSubType":{"value":[2],"compareCondition":1}`, "Baker,Cole"},
		{`"cardSubType":{"value":[2],"compareCondition":1},"commType":[3]`, ""},
		{`"cardSubType":{"value":[2],"compareCondition":1},"commType":[2]`, "Baker"},
		{`"cardType":[3],"cardSubType":{"value":[2],"compareCondition":1}`, ""}, // per card: no travel document of subType 2
		{`"actionItemDateFrom":{"date":"2026-12-02"},"actionItemDateTo":{"date":"2026-12-02"}`, ""},
		{`"actionItemDateFrom":{"date":"2026-12-01"},"actionItemDateTo":{"date":"2026-12-02"}`, "Ames"},
		{`"cardSubType":{"value":[2],"compareCondition":1},"includeCols":["lastName","cardNumber","summaryCount"]`, "Baker L-2,Cole L-3"},
	}
	ctx := context.Background()
	sc := wayfarer.Scope{AgencyID: w.agency}
	for _, limit := range []int{0, 1000} { // 0: EXISTS unless nobody passes; 1000: IN
		restore := sqlstore.SetChildProbeLimitForTest(db, limit)
		for _, tc := range cases {
			body := `{"includeCols":["lastName","summaryCount"],` + tc.body + `}`
			if strings.Contains(tc.body, "includeCols") {
				body = `{` + tc.body + `}`
			}
			c, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(body))
			if err != nil {
				t.Fatal(err)
			}
			res, err := db.SearchPersons(ctx, sc, c)
			if err != nil {
				t.Fatalf("%s: %v", body, err)
			}
			var got []string
			for _, r := range res.Rows {
				s := r[0].(string)
				if len(r) == 3 {
					s += " " + r[1].(string)
				}
				got = append(got, s)
				if r[len(r)-1] != int64(len(res.Rows)) {
					t.Errorf("limit %d, %s: summaryCount %v, %d rows", limit, body, r[len(r)-1], len(res.Rows))
				}
			}
			if g := strings.Join(got, ","); g != tc.want {
				t.Errorf("limit %d, %s: %q, want %q", limit, body, g, tc.want)
			}
			// the form follows the limit
			q, _, err := sqlstore.SearchSQLForTest(ctx, db, sc, c)
			if err != nil {
				t.Fatal(err)
			}
			if in := strings.Contains(q, "p.rec_no IN (SELECT"); in != (limit > 0 || tc.want == "") {
				t.Errorf("limit %d, %s: IN form %v in %s", limit, body, in, q)
			}
		}
		restore()
	}
}
