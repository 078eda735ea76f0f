package sqlstore_test

// A brute-force person search in plain Go, written from the documented
// semantics (docs/search.md, wayfarer.SearchCriteria), and a random data set
// to compare it with the SQL on.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/postgres"
	"github.com/wayfarerhq/wayfarer/internal/sqlite"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"

	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// world is the data set: its lookups and its persons (of every agency).
type world struct {
	agency   int64
	branches map[int64]string
	profiles map[int64]string
	users    map[int64]string
	tags     map[int64]string
	elements map[int64]string // marketing element codes
	persons  map[int64][]sqlstore.BulkPerson
	ascii    bool // ASCII text only (PostgreSQL)
}

// searchEngines are the engines the search tests run on: SQLite, and
// PostgreSQL when the test server names one.
func searchEngines() []string {
	if os.Getenv(testserver.PostgresURLEnv) != "" || testserver.CI() {
		return []string{"sqlite", "postgres"}
	}
	return []string{"sqlite"}
}

func openSearchDB(t testing.TB, engine string) *sqlstore.DB {
	t.Helper()
	var db *sqlstore.DB
	var err error
	if engine == "postgres" {
		db, err = postgres.Open(testserver.FreshPostgres(t))
	} else {
		db, err = sqlite.Open(t.TempDir() + "/search.db")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return db
}

func mustExec(t testing.TB, db *sqlstore.DB, q string, args ...any) int64 {
	t.Helper()
	var id int64
	if err := db.Primary().QueryRow(db.Dialect.Rebind(q+" RETURNING rec_no"), args...).Scan(&id); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return id
}

// newWorld creates two agencies with their lookups; persons come later.
func newWorld(t testing.TB, db *sqlstore.DB) *world {
	w := &world{branches: map[int64]string{}, profiles: map[int64]string{}, users: map[int64]string{},
		tags: map[int64]string{}, elements: map[int64]string{}, persons: map[int64][]sqlstore.BulkPerson{}}
	now := time.Now().UTC()
	for i, alias := range []string{"SEARCH", "OTHER"} {
		a := mustExec(t, db, "INSERT INTO agency (alias, name, status, created_at) VALUES (?, ?, 1, ?)", alias, alias, now)
		if i == 0 {
			w.agency = a
		}
		for _, b := range []string{"Main", "Harbor"} {
			w.branches[mustExec(t, db, "INSERT INTO branch (agency_id, name) VALUES (?, ?)", a, b)] = b
		}
		for j, name := range []string{"Alice Advisor", "Bob Broker", "acme corp", "Zeta Group", "Beta Inc"} {
			typ := 1
			if j >= 2 {
				typ = 2
			}
			w.profiles[mustExec(t, db, "INSERT INTO profile (agency_id, type, name) VALUES (?, ?, ?)", a, typ, name)] = name
		}
		for _, u := range []string{"agent", "boss"} {
			w.users[mustExec(t, db, "INSERT INTO app_user (agency_id, user_name, user_name_key, type, password_last_modified) VALUES (?, ?, ?, 1, ?)",
				a, u, u, now)] = u
		}
		for _, tg := range []string{"VIP", "diet", "Seat"} {
			w.tags[mustExec(t, db, "INSERT INTO tag (agency_id, name) VALUES (?, ?)", a, tg)] = tg
		}
		for _, code := range []string{"NOEMM", "Promo"} {
			w.elements[mustExec(t, db, "INSERT INTO marketing_element (agency_id, code, name) VALUES (?, ?, ?)", a, code, code)] = code
		}
	}
	return w
}

// ids returns the identifiers of a lookup that belong to agency a (the
// lookups of each agency were created in one run, in order).
func (w *world) ids(m map[int64]string, a int64) []int64 {
	var all []int64
	for id := range m {
		all = append(all, id)
	}
	slices.Sort(all)
	half := len(all) / 2
	if a == w.agency {
		return all[:half]
	}
	return all[half:]
}

func (w *world) insert(t testing.TB, db *sqlstore.DB, agency int64, ps []sqlstore.BulkPerson) {
	t.Helper()
	if err := db.InsertBulkPersons(context.Background(), agency, ps); err != nil {
		t.Fatal(err)
	}
	w.persons[agency] = append(w.persons[agency], ps...)
}

// Model evaluation.

func foldPtr(s *string) *string {
	if s == nil {
		return nil
	}
	v := wayfarer.FoldASCII(*s)
	return &v
}

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func i64(v int64) *int64 { return &v }

func cardPass(c *wayfarer.SearchCriteria, k sqlstore.BulkCard) bool {
	if len(c.CardType) > 0 && !slices.Contains(c.CardType, k.Type) {
		return false
	}
	return c.CardSubType.Matches(k.SubType) && c.CardExpiration.Matches(k.Expiration)
}

func commPass(c *wayfarer.SearchCriteria, m sqlstore.BulkComm) bool {
	if len(c.CommType) > 0 && !slices.Contains(c.CommType, m.Type) {
		return false
	}
	return c.CommValue.Matches(m.Value) && c.CommValueCountryDomain.Matches(m.CountryDomain) &&
		c.CommValueCityArea.Matches(m.CityArea) && c.CommValueUserSpecific.Matches(m.UserSpecific)
}

func actionPass(c *wayfarer.SearchCriteria, a sqlstore.BulkActionItem) bool {
	if c.ActionItemCompleted != nil && *c.ActionItemCompleted != (a.Completed != nil) {
		return false
	}
	return c.ActionItemDate.Matches(a.Date) && c.ActionItemAssignedTo.Matches(a.AppUserID)
}

func primaryComm(p *sqlstore.BulkPerson, typ int64) *sqlstore.BulkComm {
	var best *sqlstore.BulkComm
	for i := range p.Comms {
		m := &p.Comms[i]
		if m.Type == typ && m.IsPrimary && (best == nil || m.RecNo < best.RecNo) {
			best = m
		}
	}
	return best
}

func (w *world) personPasses(sc wayfarer.Scope, c *wayfarer.SearchCriteria, p *sqlstore.BulkPerson) bool {
	if !sc.Allows(p.BranchID, p.AdvisorID) {
		return false
	}
	if !c.RecNo.Matches(&p.RecNo) || !c.LastName.Matches(p.LastName) || !c.FirstName.Matches(p.FirstName) ||
		!c.MiddleName.Matches(p.MiddleName) || !c.AdvisorProfileRecNo.Matches(p.AdvisorID) ||
		!c.BirthdayMonth.Matches(p.BirthdayMonth) || !c.Birthday.Matches(p.BirthdayMonth, p.BirthdayDay) {
		return false
	}
	created, modified := p.Created.UTC().Truncate(time.Microsecond), p.Modified.UTC().Truncate(time.Microsecond)
	if !c.Created.Matches(&created) || !c.Modified.Matches(&modified) {
		return false
	}
	if c.UniqueID != "" && (p.UniqueID == nil || *p.UniqueID != c.UniqueID) {
		return false
	}
	if len(c.ActiveStatus) > 0 && !slices.Contains(c.ActiveStatus, p.ActiveStatus) {
		return false
	}
	for _, pm := range []struct {
		v   *bool
		typ int64
	}{{c.EmailPermitMarketing, 2}, {c.PhonePermitMarketing, 1}} {
		if pm.v == nil {
			continue
		}
		m := primaryComm(p, pm.typ)
		if (m != nil && m.PermitMarketing) != *pm.v {
			return false
		}
	}
	if c.FiltersComms() && !slices.ContainsFunc(p.Comms, func(m sqlstore.BulkComm) bool { return commPass(c, m) }) {
		return false
	}
	if c.FiltersCards() && !slices.ContainsFunc(p.Cards, func(k sqlstore.BulkCard) bool { return cardPass(c, k) }) {
		return false
	}
	if c.FiltersActionItems() && !slices.ContainsFunc(p.ActionItems, func(a sqlstore.BulkActionItem) bool { return actionPass(c, a) }) {
		return false
	}
	if c.ProfileRecNo.Active() {
		var ok bool
		switch c.ProfileRecNo.Cond {
		case wayfarer.NumEqual:
			ok = slices.ContainsFunc(p.Profiles, func(id int64) bool { return slices.Contains(c.ProfileRecNo.Values, id) })
		case wayfarer.NumNotEqual:
			ok = !slices.ContainsFunc(p.Profiles, func(id int64) bool { return slices.Contains(c.ProfileRecNo.Values, id) })
		case wayfarer.NumBlank:
			ok = len(p.Profiles) == 0
		case wayfarer.NumNotBlank:
			ok = len(p.Profiles) > 0
		}
		if !ok {
			return false
		}
	}
	for _, m := range c.Marketing {
		has := slices.ContainsFunc(p.Marketing, func(pm sqlstore.BulkMarketing) bool {
			return (m.ElementRecNo == nil || *m.ElementRecNo == pm.ElementID) &&
				(m.Affiliation == nil || *m.Affiliation == pm.AffiliationID) &&
				(m.ElementID == nil || wayfarer.FoldASCII(*m.ElementID) == wayfarer.FoldASCII(w.elements[pm.ElementID]))
		})
		if has != m.Checked {
			return false
		}
	}
	for _, tg := range c.Tags {
		has := slices.ContainsFunc(p.Tags, func(pt sqlstore.BulkTag) bool {
			return (tg.TagRecNo == nil || *tg.TagRecNo == pt.TagID) &&
				(tg.TagName == nil || wayfarer.FoldASCII(*tg.TagName) == wayfarer.FoldASCII(w.tags[pt.TagID])) &&
				tg.Value.Matches(pt.Value)
		})
		if has != tg.Checked {
			return false
		}
	}
	return true
}

// modelRow is a result row with its sort keys.
type modelRow struct {
	keys []*string // fold(last), fold(first)
	ids  []*int64  // person, then shown children
	vals wayfarer.SearchRow
}

func (w *world) search(sc wayfarer.Scope, c *wayfarer.SearchCriteria) *wayfarer.SearchResult {
	var rows []modelRow
	for i := range w.persons[sc.AgencyID] {
		p := &w.persons[sc.AgencyID][i]
		if !w.personPasses(sc, c, p) {
			continue
		}
		var cardFilter func(sqlstore.BulkCard) bool
		if c.FiltersCards() {
			cardFilter = func(k sqlstore.BulkCard) bool { return cardPass(c, k) }
		}
		var actionFilter func(sqlstore.BulkActionItem) bool
		if c.FiltersActionItems() {
			actionFilter = func(a sqlstore.BulkActionItem) bool { return actionPass(c, a) }
		}
		cards := shown(c.ShowsGroup(wayfarer.GroupCard), p.Cards, cardFilter)
		tags := shown(c.ShowsGroup(wayfarer.GroupTag), p.Tags, nil)
		actions := shown(c.ShowsGroup(wayfarer.GroupActionItem), p.ActionItems, actionFilter)
		for _, k := range cards {
			for _, t := range tags {
				for _, a := range actions {
					r := modelRow{keys: []*string{foldPtr(p.LastName), foldPtr(p.FirstName)}, ids: []*int64{&p.RecNo}}
					if c.ShowsGroup(wayfarer.GroupCard) {
						r.ids = append(r.ids, ptrField(k, func(x *sqlstore.BulkCard) int64 { return x.RecNo }))
					}
					if c.ShowsGroup(wayfarer.GroupTag) {
						r.ids = append(r.ids, ptrField(t, func(x *sqlstore.BulkTag) int64 { return x.RecNo }))
					}
					if c.ShowsGroup(wayfarer.GroupActionItem) {
						r.ids = append(r.ids, ptrField(a, func(x *sqlstore.BulkActionItem) int64 { return x.RecNo }))
					}
					for _, col := range c.Columns {
						r.vals = append(r.vals, w.rowValue(col.Name, c, p, k, t, a))
					}
					rows = append(rows, r)
				}
			}
		}
	}
	cmpRow := func(x, y modelRow) int {
		for i := range x.keys {
			if r := cmpNull(x.keys[i], y.keys[i]); r != 0 {
				return r
			}
		}
		for i := range x.ids {
			if r := cmpNull(x.ids[i], y.ids[i]); r != 0 {
				return r
			}
		}
		return 0
	}
	slices.SortStableFunc(rows, cmpRow)
	if c.Distinct {
		// Group equal rows; a group sorts by the first person that
		// produced it (its first row's person: rows are in order), then
		// by its values.
		var groups []modelRow
		seen := map[string]bool{}
		for _, r := range rows {
			key := fmt.Sprintf("%#v", r.vals)
			if !seen[key] {
				seen[key] = true
				groups = append(groups, modelRow{keys: r.keys, ids: r.ids[:1], vals: r.vals})
			}
		}
		slices.SortStableFunc(groups, func(x, y modelRow) int {
			if r := cmpRow(x, y); r != 0 {
				return r
			}
			for i := range x.vals {
				if r := cmpValue(x.vals[i], y.vals[i]); r != 0 {
					return r
				}
			}
			return 0
		})
		rows = groups
	}
	total := int64(len(rows))
	if c.TopRows > 0 && total > c.TopRows {
		rows, total = rows[:c.TopRows], c.TopRows
	}
	if c.StartingRow >= int64(len(rows)) {
		rows = nil
	} else {
		rows = rows[c.StartingRow:]
	}
	if c.RowCount > 0 && int64(len(rows)) > c.RowCount {
		rows = rows[:c.RowCount]
	}
	res := &wayfarer.SearchResult{Columns: c.Columns, Total: -1}
	for _, r := range rows {
		for i, col := range c.Columns {
			if col.Name == "summaryCount" {
				r.vals[i] = total
				res.Total = total
			}
		}
		res.Rows = append(res.Rows, r.vals)
	}
	return res
}

func ptrField[T any](p *T, f func(*T) int64) *int64 {
	if p == nil {
		return nil
	}
	v := f(p)
	return &v
}

func resultJSON(t testing.TB, r *wayfarer.SearchResult) string {
	t.Helper()
	var b bytes.Buffer
	if err := wire.WriteSearchJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
