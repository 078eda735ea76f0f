package sqlstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// TestUpdatePersonRow: the conditional save of a person's own fields
// writes only when the stored row is in scope and holds what the save
// expects (each expected field's value, null as null, and one of the
// versions); otherwise it writes nothing and says so. A save that writes
// more than the row is not taken.
func TestUpdatePersonRow(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			year := int64(1980)
			db, sc, recNo := onePerson(t, engine, sqlstore.BulkPerson{BirthdayYear: &year})
			ctx := context.Background()
			load := func() *wayfarer.Person {
				t.Helper()
				p, err := db.LoadPerson(ctx, sc, recNo)
				if err != nil {
					t.Fatal(err)
				}
				return p
			}
			save := func(sc wayfarer.Scope, expect wayfarer.RowExpect, n *wayfarer.Person, fields ...string) bool {
				t.Helper()
				ok, err := db.UpdatePersonRow(ctx, sc, recNo, expect, &wayfarer.PersonWrite{
					Changes: &wayfarer.PersonChanges{RecNo: recNo, Old: expect.Old, New: n, Fields: fields}, Now: time.Now()})
				if err != nil {
					t.Fatal(err)
				}
				return ok
			}
			expectLast := func(v string, versions ...int64) wayfarer.RowExpect {
				return wayfarer.RowExpect{Old: &wayfarer.Person{LastName: wayfarer.Some(v)}, Fields: []string{"lastName"}, Versions: versions}
			}
			renamed := func(v string) *wayfarer.Person { return &wayfarer.Person{LastName: wayfarer.Some(v)} }

			v0 := load().Version
			if !save(sc, expectLast("Abler", v0), renamed("Baker"), "lastName") {
				t.Fatal("a save whose expectations hold did not write")
			}
			if p := load(); p.LastName.Value != "Baker" || p.Version != v0+1 {
				t.Fatalf("after the save: %v, version %d (was %d)", p.LastName, p.Version, v0)
			}
			refused := map[string]bool{
				"a stale value":   save(sc, expectLast("Abler"), renamed("Cole"), "lastName"),
				"another version": save(sc, expectLast("Baker", v0, v0+5), renamed("Cole"), "lastName"),
				"another agency":  save(wayfarer.Scope{AgencyID: sc.AgencyID + 1}, expectLast("Baker"), renamed("Cole"), "lastName"),
				"another branch":  save(wayfarer.Scope{AgencyID: sc.AgencyID, OnlyBranch: true, BranchID: &recNo}, expectLast("Baker"), renamed("Cole"), "lastName"),
				"no advisors":     save(wayfarer.Scope{AgencyID: sc.AgencyID, OnlySelf: true}, expectLast("Baker"), renamed("Cole"), "lastName"),
				"null where a value is stored": save(sc, wayfarer.RowExpect{Old: &wayfarer.Person{LastName: wayfarer.Null[string]()}, Fields: []string{"lastName"}},
					renamed("Cole"), "lastName"),
				"null in a column that has a default": save(sc, wayfarer.RowExpect{Old: &wayfarer.Person{ActiveStatus: wayfarer.Null[int]()}, Fields: []string{"activeStatus"}},
					&wayfarer.Person{ActiveStatus: wayfarer.Some(2)}, "activeStatus"),
				"a birthday (moves action items)": save(sc, wayfarer.RowExpect{Old: &wayfarer.Person{}}, &wayfarer.Person{BirthdayMonth: wayfarer.Some(4)}, "birthdayMonth"),
			}
			for name, wrote := range refused {
				if wrote {
					t.Errorf("%s: written", name)
				}
			}
			if p := load(); p.LastName.Value != "Baker" || p.Version != v0+1 || p.BirthdayMonth.Valid || p.ActiveStatus.Value != 1 {
				t.Fatalf("refused saves wrote: %v, version %d, birthday month %v, status %v", p.LastName, p.Version, p.BirthdayMonth, p.ActiveStatus)
			}

			nullRemarks := wayfarer.RowExpect{Old: &wayfarer.Person{Remarks: wayfarer.Null[string]()}, Fields: []string{"remarks"}}
			if !save(sc, nullRemarks, &wayfarer.Person{Remarks: wayfarer.Some("aisle")}, "remarks") {
				t.Error("null expected where null is stored: not written")
			}
			if save(sc, nullRemarks, &wayfarer.Person{Remarks: wayfarer.Some("window")}, "remarks") {
				t.Error("null expected where a value is stored: written")
			}
			if !save(sc, wayfarer.RowExpect{Old: &wayfarer.Person{BirthdayYear: wayfarer.Some(1980)}, Fields: []string{"birthdayYear"}},
				&wayfarer.Person{BirthdayYear: wayfarer.Some(1981)}, "birthdayYear") {
				t.Error("a number expected as stored: not written")
			}
			if p := load(); p.Remarks.Value != "aisle" || p.BirthdayYear.Value != 1981 || p.Version != v0+3 {
				t.Fatalf("remarks %v, year %v, version %d", p.Remarks, p.BirthdayYear, p.Version)
			}
		})
	}
}

// onePerson is a store on a fresh database of engine holding p (last name
// Abler unless set, active), the scope of its agency and its recNo.
func onePerson(t *testing.T, engine string, p sqlstore.BulkPerson) (*sqlstore.DB, wayfarer.Scope, int64) {
	t.Helper()
	db := openSearchDB(t, engine)
	w := newWorld(t, db)
	if p.LastName == nil {
		p.LastName = i64str("Abler")
	}
	p.ActiveStatus, p.Created, p.Modified = 1, time.Now(), time.Now()
	ps := []sqlstore.BulkPerson{p}
	w.insert(t, db, w.agency, ps)
	return db, wayfarer.Scope{AgencyID: w.agency}, ps[0].RecNo
}
