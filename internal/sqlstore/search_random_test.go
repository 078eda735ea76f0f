package sqlstore_test

// Random persons for the model tests (search_model_test.go): names, values
// and dates drawn from small lists full of edge cases (case, accents, LIKE's
// wildcards, empty strings).

import (
	"fmt"
	"math/rand"
	"strings"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
)

var (
	lastNames   = []string{"Abler", "abler", "Able", "ABLEMAN", "Baker", "Bäcker", "O'Neil", "Smith", "smith", "Zed", "Ab%le", "A_bler", "", "Ab\\l"}
	firstNames  = []string{"Ken", "Hale", "ken", "Anna", "Zoe", "", "Émile", "Bob"}
	middleNames = []string{"Nicole", "J", "", "Lee"}
	commValues  = []string{"ken@example.com", "KEN@Example.org", "+1 555 0100", "555-0199", "hale@test.io", "www.abler.com", "@abler", "100%_sure"}
	domains     = []string{"US", "uk", "DE", ""}
	areas       = []string{"555", "20", "", "A1"}
	tagValues   = []string{"gold", "Silver", "", "gold star", "veg,vegan"}
)

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.Intn(len(xs))] }

func maybeStr(r *rand.Rand, xs []string) *string {
	if r.Intn(5) == 0 {
		return nil
	}
	v := pick(r, xs)
	return &v
}

func maybeInt(r *rand.Rand, lo, hi int64) *int64 {
	if r.Intn(5) == 0 {
		return nil
	}
	return i64(lo + r.Int63n(hi-lo+1))
}

func randomDate(r *rand.Rand) *string {
	if r.Intn(5) == 0 {
		return nil
	}
	d := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.Intn(900)).Format(time.DateOnly)
	return &d
}

// asciiOnly drops the non-ASCII names: PostgreSQL folds their case
// (lower() is Unicode-aware there), SQLite and the model do not.
func asciiOnly(xs []string) []string {
	var out []string
	for _, x := range xs {
		if strings.IndexFunc(x, func(r rune) bool { return r > 0x7f }) < 0 {
			out = append(out, x)
		}
	}
	return out
}

func (w *world) randomPersons(r *rand.Rand, agency int64, n int) []sqlstore.BulkPerson {
	lastNames, firstNames := lastNames, firstNames
	if w.ascii {
		lastNames, firstNames = asciiOnly(lastNames), asciiOnly(firstNames)
	}
	branches, profiles, users := w.ids(w.branches, agency), w.ids(w.profiles, agency), w.ids(w.users, agency)
	tags, elements := w.ids(w.tags, agency), w.ids(w.elements, agency)
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	ps := make([]sqlstore.BulkPerson, n)
	for i := range ps {
		p := &ps[i]
		p.LastName, p.FirstName, p.MiddleName = maybeStr(r, lastNames), maybeStr(r, firstNames), maybeStr(r, middleNames)
		if r.Intn(2) == 0 {
			p.UniqueID = i64str(fmt.Sprintf("U-%d", r.Intn(30)))
		}
		p.BirthdayMonth, p.BirthdayDay, p.BirthdayYear = maybeInt(r, 1, 12), maybeInt(r, 1, 31), maybeInt(r, 1950, 2010)
		p.BirthdayNote, p.Rem = maybeStr(r, []string{"note"}), maybeStr(r, []string{"remark", "=1+1"})
		if r.Intn(4) > 0 {
			p.BranchID = i64(pick(r, branches))
		}
		if r.Intn(4) > 0 {
			p.AdvisorID = i64(pick(r, profiles[:2]))
		}
		p.ActiveStatus = int64(r.Intn(3))
		p.Created = base.Add(time.Duration(r.Int63n(int64(400 * 24 * time.Hour))))
		p.Modified = p.Created.Add(time.Duration(r.Int63n(int64(100 * 24 * time.Hour))))
		for range r.Intn(4) {
			p.Comms = append(p.Comms, sqlstore.BulkComm{Type: int64(1 + r.Intn(4)), Value: maybeStr(r, commValues),
				CountryDomain: maybeStr(r, domains), CityArea: maybeStr(r, areas), UserSpecific: maybeStr(r, []string{"x", "Home"}),
				IsPrimary: r.Intn(2) == 0, PermitMarketing: r.Intn(2) == 0})
		}
		for range r.Intn(3) {
			typ := int64(1 + r.Intn(3))
			num := pick(r, []string{"VI 41-XXXX-1111", "CA 55-XXXX-4444"})
			if typ != 1 {
				num = pick(r, []string{"FF123", "P9876543", "ab-77"})
			}
			p.Cards = append(p.Cards, sqlstore.BulkCard{Type: typ, SubType: maybeInt(r, 1, 3), Number: num,
				Expiration: randomDate(r), Description: maybeStr(r, []string{"work card", "Personal"}),
				NameOnCard: maybeStr(r, []string{"KEN ABLER", "H ABLER"})})
		}
		for range r.Intn(3) {
			p.Tags = append(p.Tags, sqlstore.BulkTag{TagID: pick(r, tags), Value: maybeStr(r, tagValues)})
		}
		for range r.Intn(3) {
			a := sqlstore.BulkActionItem{Description: maybeStr(r, []string{"call", "send card"}), TriggerIndex: maybeInt(r, 1, 3),
				TriggerFixedDate: randomDate(r), Date: randomDate(r), AppUserID: nil}
			if r.Intn(3) > 0 {
				a.AppUserID = i64(pick(r, users))
			}
			if r.Intn(2) == 0 {
				done := base.Add(time.Duration(r.Int63n(int64(300 * 24 * time.Hour))))
				a.Completed = &done
			}
			p.ActionItems = append(p.ActionItems, a)
		}
		for _, pr := range profiles[2:] {
			if r.Intn(3) == 0 {
				p.Profiles = append(p.Profiles, pr)
			}
		}
		for _, el := range elements {
			if r.Intn(3) == 0 {
				p.Marketing = append(p.Marketing, sqlstore.BulkMarketing{ElementID: el})
			}
		}
	}
	return ps
}

func i64str(s string) *string { return &s }
