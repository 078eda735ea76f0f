package demo

import (
	"context"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// DemoPersonCount is how many persons the demo agency gets.
const DemoPersonCount = 1000

// DemoPersonSeed seeds the demo persons; the same seed gives the same persons.
const DemoPersonSeed = 20261121

// Demo tags, marketing elements and affiliations.
var (
	DemoTags              = []string{"VIP", "Dietary", "Frequent Flyer", "Seat Preference"}
	DemoMarketingElements = []struct{ Code, Name string }{{"NOEMM", "No email marketing"}, {"NEWSL", "Newsletter"}, {"CRUIS", "Cruise offers"}}
	DemoAffiliations      = []string{"Star Alliance", "oneworld"}
)

// AdvisorRef is an advisor profile and its branch.
type AdvisorRef struct{ ID, BranchID int64 }

// PersonRefs are the records generated persons point at, and the sealer
// their credit card numbers are encrypted with.
type PersonRefs struct {
	Main, Harbor      int64
	Advisors          []AdvisorRef // Alice (Main), Mark (Main), Hana (Harbor), in that order
	ClientProfiles    []int64
	Tags              []int64
	MarketingElements []int64
	Affiliations      []int64
	Users             []int64 // action item assignees
	AgencyID          int64
	Sealer            wayfarer.CardSealer
}

// LoadPersonRefs finds (creating tags, marketing elements and affiliations
// where missing) what demo persons of the agency refer to. The branches,
// advisors, client profiles and users come from Seed.
func LoadPersonRefs(ctx context.Context, db *sqlstore.DB, agencyID int64, sealer wayfarer.CardSealer) (*PersonRefs, error) {
	r := &PersonRefs{AgencyID: agencyID, Sealer: sealer}
	var err error
	if r.Main, err = db.BranchByName(ctx, agencyID, "Main"); err != nil {
		return nil, fmt.Errorf("branch Main: %w", err)
	}
	if r.Harbor, err = db.BranchByName(ctx, agencyID, "Harbor"); err != nil {
		return nil, fmt.Errorf("branch Harbor: %w", err)
	}
	for _, a := range Advisors {
		id, err := db.ProfileByName(ctx, agencyID, wayfarer.ProfileAdvisor, a.Name)
		if err != nil {
			return nil, fmt.Errorf("advisor %s: %w", a.Name, err)
		}
		b := r.Main
		if a.Branch == "Harbor" {
			b = r.Harbor
		}
		r.Advisors = append(r.Advisors, AdvisorRef{id, b})
	}
	for _, name := range ClientProfiles {
		id, err := db.ProfileByName(ctx, agencyID, wayfarer.ProfileClient, name)
		if err != nil {
			return nil, fmt.Errorf("client profile %s: %w", name, err)
		}
		r.ClientProfiles = append(r.ClientProfiles, id)
	}
	for i := range DemoTags {
		id, err := db.EnsureTagDefinition(ctx, agencyID, demoTagDefinition(i))
		if err != nil {
			return nil, err
		}
		r.Tags = append(r.Tags, id)
	}
	for _, m := range DemoMarketingElements {
		id, err := db.EnsureMarketingElement(ctx, agencyID, m.Code, m.Name)
		if err != nil {
			return nil, err
		}
		r.MarketingElements = append(r.MarketingElements, id)
	}
	for _, name := range DemoAffiliations {
		id, err := db.EnsureAffiliation(ctx, agencyID, name)
		if err != nil {
			return nil, err
		}
		r.Affiliations = append(r.Affiliations, id)
	}
	if err := seedAffiliation(ctx, db, agencyID); err != nil {
		return nil, err
	}
	for _, name := range []string{"agent", "admin", "branch"} {
		u, err := db.UserByName(ctx, agencyID, name)
		if err != nil {
			return nil, fmt.Errorf("user %s: %w", name, err)
		}
		r.Users = append(r.Users, u.ID)
	}
	return r, nil
}

// SeedPersons gives the demo agency its persons unless it has some already
// (so a restart adds nothing). It returns how many it created.
func SeedPersons(ctx context.Context, db *sqlstore.DB, sealer wayfarer.CardSealer) (int, error) {
	ag, err := db.AgencyByAlias(ctx, Alias)
	if err != nil {
		return 0, err
	}
	if n, err := db.CountPersons(ctx, ag.ID); err != nil || n > 0 {
		return 0, err
	}
	refs, err := LoadPersonRefs(ctx, db, ag.ID, sealer)
	if err != nil {
		return 0, err
	}
	persons := make([]sqlstore.BulkPerson, DemoPersonCount)
	for i := range persons {
		if persons[i], err = GeneratePerson(DemoPersonSeed, i, refs); err != nil {
			return 0, err
		}
	}
	if err := db.InsertBulkPersons(ctx, ag.ID, persons); err != nil {
		return 0, err
	}
	return len(persons), nil
}

var (
	firstNames = []string{"James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth",
		"William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen", "Christopher",
		"Lisa", "Daniel", "Nancy", "Matthew", "Betty", "Anthony", "Margaret", "Mark", "Sandra", "Donald", "Ashley", "Steven",
		"Kimberly", "Paul", "Emily", "Andrew", "Donna", "Joshua", "Michelle", "Kenneth", "Carol", "Kevin", "Amanda", "Brian",
		"Melissa", "George", "Deborah", "Timothy", "Stephanie", "Ronald", "Rebecca", "Jason", "Sharon", "Edward", "Laura",
		"Jeffrey", "Cynthia", "Ryan", "Kathleen", "Jacob", "Amy", "Gary", "Angela", "Nicholas", "Shirley", "Eric", "Anna",
		"Jonathan", "Brenda", "Stephen", "Pamela", "Larry", "Emma", "Justin", "Nicole", "Scott", "Helen", "Brandon", "Samantha",
		"Ingrid", "Lars", "Sofia", "Mateo", "Yuki", "Hiroshi", "Priya", "Arjun", "Fatima", "Omar", "Chloé", "Zoë", "José", "Björn"}
	middleNames = []string{"Lee", "Ann", "Marie", "James", "Lynn", "Ray", "Jo", "Grace", "Alan", "Rose", "Jean", "Paul"}
	lastNames   = []string{"Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
		"Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee",
		"Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young",
		"Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green", "Adams", "Nelson", "Baker",
		"Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Abbott", "Ableman", "Acosta", "Baxter", "Bergström",
		"Castellanos", "Dubois", "Eriksen", "Fitzgerald", "Gallagher", "Hoffmann", "Ishikawa", "Jensen", "Kowalski",
		"Lindqvist", "Müller", "Nakamura", "O'Brien", "Petrov", "Quinn", "Rossi", "Schmidt", "Tanaka", "Usman", "Van der Berg",
		"Weber", "Xu", "Yamamoto", "Zimmermann"}
	// Public test card numbers: Luhn-valid, issued to nobody.
	testCreditNumbers = []string{"4111111111111111", "4012888888881881", "4222222222222", "5555555555554444",
		"5105105105105100", "2223000048400011", "378282246310005", "371449635398431", "6011111111111117",
		"6011000990139424", "30569309025904", "3530111333300000", "3566002020360505"}
	loyaltyPrograms = []struct{ prefix, name string }{{"UA", "United MileagePlus"}, {"DL", "Delta SkyMiles"},
		{"BA", "British Airways Avios"}, {"MR", "Marriott Bonvoy"}, {"HH", "Hilton Honors"}, {"LH", "Miles & More"}}
	docCountries  = []string{"US", "US", "US", "CA", "GB", "DE", "FR", "JP", "MX", "SE"}
	actionSubject = []string{"Call about the upcoming trip", "Passport renewal reminder", "Send anniversary offer",
		"Confirm seat preferences", "Follow up on quote", "Birthday greeting"}
	tagValues = map[int][]string{0: {"gold", "platinum", "silver"}, 1: {"vegetarian", "gluten free", "kosher", "halal"},
		2: {"weekly", "monthly"}, 3: {"aisle", "window", "exit row"}}
)

// demoEpoch anchors generated dates, so generation does not depend on the clock.
var demoEpoch = time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

// GeneratePerson returns the i-th person of the demo sequence seeded by
// seed: the same (seed, i) always gives the same person (card ciphertexts
// aside: their nonces are random), so it serves a thousand demo persons and
// a million benchmark ones alike. The first three persons of any sequence
// are Abler/Ken (Main, Alice), Abler/Sue (Harbor, Hana) and Abler/Hale
// Nicole (Main, Mark).
func GeneratePerson(seed uint64, i int, refs *PersonRefs) (sqlstore.BulkPerson, error) {
	rng := rand.New(rand.NewPCG(seed, uint64(i)))
	pick := func(n int) int { return rng.IntN(n) }
	chance := func(pct int) bool { return rng.IntN(100) < pct }

	var p sqlstore.BulkPerson
	first, last := firstNames[pick(len(firstNames))], lastNames[pick(len(lastNames))]
	var middle *string
	if chance(20) {
		middle = ptr(middleNames[pick(len(middleNames))])
	}
	// Advisor: mostly one of the three, its branch mostly the advisor's own.
	adv := refs.Advisors[i%len(refs.Advisors)]
	advisor, branch := ptr(adv.ID), ptr(adv.BranchID)
	switch r := rng.IntN(100); {
	case r < 3:
		advisor = nil
	case r < 8:
		branch = ptr(refs.Main + refs.Harbor - adv.BranchID) // the other branch
	case r < 10:
		branch = nil
	}
	switch i {
	case 0:
		first, middle, last, advisor, branch = "Ken", nil, "Abler", &refs.Advisors[0].ID, &refs.Main
	case 1:
		first, middle, last, advisor, branch = "Sue", nil, "Abler", &refs.Advisors[2].ID, &refs.Harbor
	case 2:
		first, middle, last, advisor, branch = "Hale", ptr("Nicole"), "Abler", &refs.Advisors[1].ID, &refs.Main
	}
	p.FirstName, p.MiddleName, p.LastName = &first, middle, &last
	p.AdvisorID, p.BranchID = advisor, branch
	p.UniqueID = ptr(fmt.Sprintf("WF%07d", i+1))
	switch r := rng.IntN(100); {
	case r < 85:
		p.ActiveStatus = wayfarer.ActiveStatusActive
	case r < 95:
		p.ActiveStatus = wayfarer.ActiveStatusInactive
	default:
		p.ActiveStatus = wayfarer.ActiveStatusPending
	}
	if chance(90) {
		month := int64(1 + pick(12))
		day := int64(1 + pick(28))
		p.BirthdayMonth, p.BirthdayDay = &month, &day
		if chance(85) {
			p.BirthdayYear = ptr(int64(1940 + pick(66)))
		}
		if chance(5) {
			p.BirthdayNote = ptr("Prefers no birthday calls")
		}
	}
	if chance(15) {
		p.Rem = ptr([]string{"Prefers aisle seats", "Travels with a service dog", "Corporate rate on request",
			"Do not book red-eye flights", "Needs wheelchair assistance at connections"}[pick(5)])
	}
	p.Created = demoEpoch.Add(-time.Duration(pick(5*365*24)) * time.Hour)
	p.Modified = p.Created.Add(time.Duration(pick(24*200)) * time.Hour)
	if p.Modified.After(demoEpoch) {
		p.Modified = demoEpoch
	}

	// Communications: a primary phone and a primary email, sometimes a mobile.
	p.Comms = append(p.Comms, sqlstore.BulkComm{Type: wayfarer.CommPhone, Value: ptr(fmt.Sprintf("+1 555 %03d %04d", pick(1000), pick(10000))),
		CountryDomain: ptr("1"), CityArea: ptr("555"), IsPrimary: true, PermitMarketing: chance(40)})
	p.Comms = append(p.Comms, sqlstore.BulkComm{Type: wayfarer.CommEmail, Value: ptr(emailOf(first, last, i)),
		CountryDomain: ptr("example.com"), IsPrimary: true, PermitMarketing: chance(55)})
	if chance(30) {
		p.Comms = append(p.Comms, sqlstore.BulkComm{Type: wayfarer.CommPhone, Value: ptr(fmt.Sprintf("+1 555 %03d %04d", pick(1000), pick(10000))),
			UserSpecific: ptr("mobile")})
	}

	// Cards: credit (sealed, shown masked), loyalty, travel documents.
	name := ptr(fmt.Sprintf("%s %s", upper(first), upper(last)))
	if chance(40) || i < 3 {
		digits := testCreditNumbers[pick(len(testCreditNumbers))]
		if i < 3 {
			digits = testCreditNumbers[i]
		}
		_, brand, err := wayfarer.ValidateCreditCardNumber(digits)
		if err != nil {
			return p, err
		}
		c := sqlstore.BulkCard{Type: wayfarer.CardTypeCreditDebit, Number: wayfarer.MaskCardNumber(digits, brand), NameOnCard: name,
			Expiration: ptr(fmt.Sprintf("%d-%02d-28", 2026+pick(6), 1+pick(12))), Token: ptr(demoToken(rng))}
		if refs.Sealer != nil {
			keyID, cipher, err := refs.Sealer.Seal(refs.AgencyID, digits)
			if err != nil {
				return p, fmt.Errorf("seal demo card: %w", err)
			}
			c.KeyID, c.Cipher = &keyID, cipher
		}
		if chance(20) {
			c.Description = ptr("Corporate card")
		}
		p.Cards = append(p.Cards, c)
	}
	for n := pick(3); n > 0; n-- {
		prog := loyaltyPrograms[pick(len(loyaltyPrograms))]
		p.Cards = append(p.Cards, sqlstore.BulkCard{Type: wayfarer.CardTypeLoyalty, SubType: ptr(int64(1 + pick(3))),
			Number: fmt.Sprintf("%s%08d", prog.prefix, pick(100000000)), Description: ptr(prog.name), NameOnCard: name})
	}
	if chance(35) {
		p.Cards = append(p.Cards, sqlstore.BulkCard{Type: wayfarer.CardTypeTravelDocument, SubType: ptr(int64(1)),
			Number: fmt.Sprintf("%c%08d", 'A'+rune(pick(26)), pick(100000000)), Description: ptr("Passport " + docCountries[pick(len(docCountries))]),
			Expiration: ptr(fmt.Sprintf("%d-%02d-%02d", 2026+pick(10), 1+pick(12), 1+pick(28))), NameOnCard: name})
	}

	// Tags, action items, client profiles, marketing.
	for k, tagID := range refs.Tags {
		if chance(12) {
			vals := tagValues[k%len(tagValues)]
			p.Tags = append(p.Tags, sqlstore.BulkTag{TagID: tagID, Value: ptr(vals[pick(len(vals))])})
		}
	}
	if chance(30) || i < 3 {
		fixed := demoEpoch.AddDate(0, 0, pick(540))
		date := fixed.Format("2006-01-02")
		a := sqlstore.BulkActionItem{Description: ptr(actionSubject[pick(len(actionSubject))]), TriggerIndex: ptr(int64(wayfarer.TriggerFixedDate)),
			TriggerFixedDate: &date, Date: &date}
		if len(refs.Users) > 0 {
			a.AppUserID = &refs.Users[pick(len(refs.Users))]
		}
		if chance(25) {
			done := fixed.Add(-time.Duration(pick(72)) * time.Hour)
			a.Completed = &done
		}
		p.ActionItems = append(p.ActionItems, a)
	}
	if len(refs.ClientProfiles) > 0 && chance(20) {
		p.Profiles = append(p.Profiles, refs.ClientProfiles[pick(len(refs.ClientProfiles))])
	}
	if len(refs.MarketingElements) > 0 && chance(15) {
		m := sqlstore.BulkMarketing{ElementID: refs.MarketingElements[pick(len(refs.MarketingElements))]}
		if len(refs.Affiliations) > 0 && chance(50) {
			m.AffiliationID = refs.Affiliations[pick(len(refs.Affiliations))]
		}
		p.Marketing = append(p.Marketing, m)
	}
	return p, nil
}

// demoToken is a cardNumberToken in the service's form, drawn from the
// person's generator so it is deterministic too.
func demoToken(rng *rand.Rand) string {
	for {
		var b [12]byte
		for k := range b {
			b[k] = byte(rng.UintN(256))
		}
		t := "tok_" + hex.EncodeToString(b[:])
		if !wayfarer.ContainsCardNumber(t) {
			return t
		}
	}
}

func emailOf(first, last string, i int) string {
	clean := func(s string) string {
		out := make([]rune, 0, len(s))
		for _, r := range s {
			if r >= 'A' && r <= 'Z' {
				r += 'a' - 'A'
			}
			if r >= 'a' && r <= 'z' {
				out = append(out, r)
			}
		}
		return string(out)
	}
	return fmt.Sprintf("%s.%s%d@example.com", clean(first), clean(last), i+1)
}

func upper(s string) string {
	out := []rune(s)
	for k, r := range out {
		if r >= 'a' && r <= 'z' {
			out[k] = r - ('a' - 'A')
		}
	}
	return string(out)
}
