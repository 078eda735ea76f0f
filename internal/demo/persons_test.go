package demo_test

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/demo"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

func TestDemoPersons(t *testing.T) {
	testserver.Each(t, testserver.Options{}, testDemoPersons)
}

func testDemoPersons(t *testing.T, s *testserver.Server) {
	ctx := context.Background()
	sealer := s.App.Server.Persons.Sealer
	db := s.App.DB
	ag, err := db.AgencyByAlias(ctx, demo.Alias)
	if err != nil {
		t.Fatal(err)
	}
	n, err := db.CountPersons(ctx, ag.ID)
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 { // unless the app's demo seeding did it already
		created, err := demo.SeedPersons(ctx, db, sealer)
		if err != nil || created != demo.DemoPersonCount {
			t.Fatalf("seed: %d %v", created, err)
		}
	}
	if again, err := demo.SeedPersons(ctx, db, sealer); err != nil || again != 0 {
		t.Fatalf("seeding twice added %d (%v)", again, err)
	}
	refs, err := demo.LoadPersonRefs(ctx, db, ag.ID, sealer)
	if err != nil {
		t.Fatal(err)
	}

	// Deterministic: the same seed and index give the same person.
	a, _ := demo.GeneratePerson(7, 42, refs)
	b, _ := demo.GeneratePerson(7, 42, refs)
	for _, p := range []*sqlstore.BulkPerson{&a, &b} {
		for k := range p.Cards {
			p.Cards[k].Cipher = nil
		}
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("generation is not deterministic")
	}

	// Who sees what: scopes as the demo users have them.
	scopes := map[string]wayfarer.Scope{
		"admin":  {AgencyID: ag.ID},
		"agent":  {AgencyID: ag.ID, OnlySelf: true, AdvisorIDs: []int64{refs.Advisors[0].ID}, OnlyBranch: true, BranchID: &refs.Main},
		"branch": {AgencyID: ag.ID, OnlyBranch: true, BranchID: &refs.Harbor},
	}
	// Who sees what: one scoped search each, counting matches.
	seen := map[string]int64{}
	crit, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(`{"includeCols":["recNo","summaryCount"],"rowCount":1}`))
	if err != nil {
		t.Fatal(err)
	}
	for user, sc := range scopes {
		res, err := db.SearchPersons(ctx, sc, crit)
		if err != nil {
			t.Fatal(err)
		}
		seen[user] = res.Total
	}
	if seen["admin"] != demo.DemoPersonCount {
		t.Fatalf("admin sees %d persons, want %d", seen["admin"], demo.DemoPersonCount)
	}
	for _, u := range []string{"agent", "branch"} {
		if seen[u] == 0 || seen[u] >= seen["admin"] {
			t.Fatalf("%s sees %d of %d", u, seen[u], seen["admin"])
		}
	}

	// The spread, on the three Ablers (the first persons) and every 7th
	// person after them: loading all 1000 takes minutes under -race.
	var ken, sue, hale int64
	var sampled, credit, loyalty, docs, tags, actions int
	advisors := map[int64]bool{}
	branches := map[int64]bool{}
	for recNo := int64(1); recNo <= demo.DemoPersonCount; recNo++ {
		if recNo > 3 && recNo%7 != 0 {
			continue
		}
		p, err := db.LoadPerson(ctx, scopes["admin"], recNo)
		if err != nil {
			t.Fatalf("load %d: %v", recNo, err)
		}
		sampled++
		name := fmt.Sprintf("%s/%s", p.LastName.Value, p.FirstName.Value)
		if p.MiddleName.Valid {
			name += " " + p.MiddleName.Value
		}
		switch name {
		case "Abler/Ken":
			ken = recNo
		case "Abler/Sue":
			sue = recNo
		case "Abler/Hale Nicole":
			hale = recNo
		}
		advisors[p.AdvisorProfileRecNo.Value] = true
		branches[p.BranchRecNo.Value] = true
		for _, l := range p.PersonCardLink {
			switch l.Card.Type.Value {
			case 1:
				credit++
				if !contract.IsMaskedCardNumber(l.Card.CardNumber.Value) || l.Card.Sealed == nil {
					t.Fatalf("credit card stored in clear: %+v", l.Card)
				}
			case 2:
				loyalty++
			case 3:
				docs++
			}
		}
		tags += len(p.PersonTag)
		actions += len(p.PersonActionItemLink)
		if len(p.PersonCommunicationLink) < 2 {
			t.Fatalf("person %d lacks communications", recNo)
		}
	}
	if ken == 0 || sue == 0 || hale == 0 {
		t.Fatalf("Ken %d Sue %d Hale %d", ken, sue, hale)
	}
	// per 145 sampled persons
	if len(advisors) < 3 || len(branches) < 2 || credit < 15 || loyalty < 15 || docs < 15 || tags < 7 || actions < 15 {
		t.Fatalf("spread over %d persons: advisors %d branches %d credit %d loyalty %d docs %d tags %d actions %d",
			sampled, len(advisors), len(branches), credit, loyalty, docs, tags, actions)
	}

	// Through the server: the agent sees Ken but not Sue or Hale; the branch user Sue but not Ken.
	get := func(user string, recNo int64, query string) *testserver.Response {
		return s.Do(t, "GET", fmt.Sprintf("/person/%d%s", recNo, query), nil, testserver.Bearer(s.LoginDemo(t, user))...)
	}
	for _, c := range []struct {
		user   string
		recNo  int64
		status int
	}{{"agent", ken, 200}, {"agent", sue, 204}, {"agent", hale, 204}, {"branch", sue, 200}, {"branch", ken, 204}, {"admin", hale, 200}} {
		if r := get(c.user, c.recNo, ""); r.Status != c.status {
			t.Errorf("%s GET %d: %d, want %d", c.user, c.recNo, r.Status, c.status)
		}
	}
	// Demo card numbers decrypt for the admin.
	r := get("admin", ken, "?decrypt=true")
	var ps []wayfarer.Person
	if err := jsoncodec.Strict.Decode(r.Body, &ps, "test"); err != nil || len(ps) != 1 {
		t.Fatalf("%s", r.Body)
	}
	found := false
	for _, l := range ps[0].PersonCardLink {
		if l.Card.Type.Value == 1 {
			if _, _, err := wayfarer.ValidateCreditCardNumber(l.Card.CardNumber.Value); err != nil {
				t.Fatalf("decrypted %v", err)
			}
			found = true
		}
	}
	if !found {
		t.Fatal("Ken has no credit card")
	}
}

// LoadPersons tops an agency up in batches through the bulk loader, which
// ends with the engine's statistics statement (VACUUM ANALYZE on PostgreSQL).
func TestLoadPersonsTopsUp(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := context.Background()
		sealer := s.App.Server.Persons.Sealer
		var progress bytes.Buffer // not a terminal: plain lines
		added, err := demo.LoadPersons(ctx, s.App.DB, demo.Alias, 1500, sealer, &progress)
		if err != nil || added != 1500 {
			t.Fatalf("first load added %d: %v", added, err)
		}
		if p := progress.String(); strings.Contains(p, "\r") || !strings.Contains(p, "persons of DEMO: 1500/1500 (100%), done in") {
			t.Fatalf("progress: %q", p)
		}
		if added, err := demo.LoadPersons(ctx, s.App.DB, demo.Alias, 1500, sealer, nil); err != nil || added != 0 {
			t.Fatalf("second load added %d: %v", added, err)
		}
		ag, _ := s.App.DB.AgencyByAlias(ctx, demo.Alias)
		if n, err := s.App.DB.CountPersons(ctx, ag.ID); err != nil || n != 1500 {
			t.Fatalf("%d persons: %v", n, err)
		}
		// identifiers continue after the loaded ones: a created person gets a fresh recNo
		tok := s.LoginDemo(t, "admin")
		r := s.Do(t, "POST", "/person", `{"lastName":"After","firstName":"Load","activeStatus":1}`, testserver.Bearer(tok)...)
		if r.Status != 200 || r.JSON(t)["recNo"].(float64) <= 1500 {
			t.Fatalf("create after bulk load: %d %s", r.Status, r.Body)
		}
	})
}

// The README's example: the agent's open tasks due this week have persons.
func TestDemoActivities(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := context.Background()
		if _, err := demo.SeedPersons(ctx, s.App.DB, s.App.Server.Persons.Sealer); err != nil {
			t.Fatal(err)
		}
		tok := testserver.Bearer(s.LoginDemo(t, "agent"))
		agent, err := s.App.DB.UserByName(ctx, mustAgency(t, s), "agent")
		if err != nil {
			t.Fatal(err)
		}
		today := time.Now().UTC()
		body := fmt.Sprintf(`{"includeCols":["recNo","name"],"personActivitySearchParams":{"appUserRecNo":{"value":[%d]},"type":{"value":[1]},"completed":false,`+
			`"targetDateFrom":{"date":"%s"},"targetDateTo":{"date":"%s"}}}`, agent.ID, today.AddDate(0, 0, -1).Format(time.DateOnly), today.AddDate(0, 0, 7).Format(time.DateOnly))
		r := s.Do(t, "POST", "/personSearch", body, tok...)
		if r.Status != 200 || !strings.Contains(string(r.Body), "Abler/Ken") {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		r = s.Do(t, "POST", "/activitySearch", `{"type":{"value":[2]},"includeCols":["recNo","summaryCount"],"rowCount":1}`, testserver.Bearer(s.LoginDemo(t, "admin"))...)
		if r.Status != 200 {
			t.Fatalf("appointments: %d %s", r.Status, r.Body)
		}
	})
}

func mustAgency(t *testing.T, s *testserver.Server) int64 {
	t.Helper()
	ag, err := s.App.DB.AgencyByAlias(context.Background(), demo.Alias)
	if err != nil {
		t.Fatal(err)
	}
	return ag.ID
}
