//lint:file-ignore SA1019 these tests check how the deprecated card fields (cvvCode, person_recNo) are refused and shown.

package http_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

func TestPersonCreateAndLoad(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		recNo := admin.create(kenJSON(r))
		p := admin.load(recNo)

		if p.RecNo.Value != recNo || p.FirstName.Value != "Ken" || p.BranchName.Value != "Main" || p.AdvisorName.Value != "Alice Advisor" {
			t.Fatalf("person %s", mustJSON(t, p))
		}
		// age on the test clock's day (2026-11-21), createDateTime from the clock
		if p.Age.Value != 46 || p.CreateDateTime.Value.Time() != s.Clock.Now() {
			t.Fatalf("age %v created %v", p.Age, p.CreateDateTime)
		}
		if !p.MiddleName.Present || p.MiddleName.Valid {
			t.Fatal("an unset field is shown as null")
		}
		if len(p.PersonCardLink) != 3 || len(p.PersonCommunicationLink) != 2 || len(p.PersonTag) != 1 ||
			len(p.PersonActionItemLink) != 1 || len(p.PersonMarketing) != 1 {
			t.Fatalf("children %s", mustJSON(t, p))
		}
		for _, l := range p.PersonCardLink {
			if l.PersonRecNo.Value != recNo || !l.CardRecNo.Valid || l.CardRecNo != l.Card.RecNo {
				t.Fatalf("card link ids %s", mustJSON(t, l))
			}
			// cvvCode is null on every loaded card (the reference's member
			// set); the card's person_recNo is the pre-1.8.2 shape's.
			if !l.Card.CVVCode.Present || l.Card.CVVCode.Valid || l.Card.PersonRecNo.Present {
				t.Fatalf("deprecated fields %s", mustJSON(t, l))
			}
		}
		credit := cardByType(t, p, 1).Card
		if credit.CardNumber.Value != "VI 41-XXXX-1111" || !strings.HasPrefix(credit.CardNumberToken.Value, "tok_") ||
			credit.CardNumberToken.Value == "tok_mine" || len(credit.CardNumberToken.Value) != 28 ||
			credit.ExpirationDate.Value.String() != "2028-12-31" || credit.NameOnCard.Value != "KEN ABLER" {
			t.Fatalf("credit card %s", mustJSON(t, credit))
		}
		loyalty := cardByType(t, p, 2).Card
		if loyalty.CardNumber.Value != "UA-778899" || loyalty.CardNumberToken.Valid || loyalty.SubType.Value != 4 {
			t.Fatalf("loyalty card %s", mustJSON(t, loyalty))
		}
		doc := cardByType(t, p, 3).Card
		if doc.CardNumber.Value != "X1234567" || doc.IssueDate.Value.String() != "2020-01-02" || doc.ExpirationDate.Value.String() != "2030-01-01" {
			t.Fatalf("travel document %s", mustJSON(t, doc))
		}
		for _, l := range p.PersonCommunicationLink {
			if l.PersonRecNo.Value != recNo || !l.CommunicationRecNo.Valid || l.CommunicationRecNo != l.Communication.RecNo {
				t.Fatalf("communication %s", mustJSON(t, l))
			}
		}
		tag := p.PersonTag[0]
		if tag.Name.Value != "VIP" || tag.Value.Value != "gold" || tag.TagRecNo.Value != r.vip || !tag.RecNo.Valid || tag.PersonRecNo.Value != recNo {
			t.Fatalf("tag %s", mustJSON(t, tag))
		}
		ai := p.PersonActionItemLink[0]
		if ai.PersonActionItem.AppUserID.Value != "agent" || ai.ActionItemRecNo != ai.PersonActionItem.RecNo || ai.PersonActionItem.TriggerDaysOffset.Value != -2 {
			t.Fatalf("action item %s", mustJSON(t, ai))
		}
		if m := p.PersonMarketing[0]; m.MarketingElementRecNo.Value != r.noemm || !m.AffiliationRecNo.Present || m.AffiliationRecNo.Valid {
			t.Fatalf("marketing %s", mustJSON(t, m))
		}
		// The action item's due date is computed for the search.
		var due string
		if err := s.App.DB.Primary().QueryRow(s.App.DB.Dialect.Rebind(`SELECT CAST(action_date AS TEXT) FROM person_action_item WHERE person_id = ?`), recNo).Scan(&due); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(due, "2026-11-29") {
			t.Fatalf("action_date %q", due)
		}

		// An array of one person is a create too; refresh answers the person as GET shows it.
		r2 := admin.do("POST", "/person/refresh", `[{"firstName":"Sue","lastName":"Abler","activeStatus":2,
			"personCardLink":[{"person_recNo":null,"card_recNo":null,"card":{"recNo":null,"type":1,"cardNumber":"5555-5555-5555-4444"}}]}]`)
		sue := onePerson(t, r2)
		if !sue.RecNo.Valid || sue.ActiveStatus.Value != 2 || cardByType(t, sue, 1).Card.CardNumber.Value != "CA 55-XXXX-4444" {
			t.Fatalf("refresh %s", r2.Body)
		}
		again := admin.do("GET", fmt.Sprintf("/person/%d", sue.RecNo.Value), nil)
		if !bytes.Equal(again.Body, r2.Body) {
			t.Fatalf("refresh and load differ:\n%s\n%s", r2.Body, again.Body)
		}
		if r2.Header.Get("Cache-Control") != "no-store" {
			t.Fatal("person answers must not be cached")
		}
	})
}

func TestPersonValidation(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		recNo := admin.create(kenJSON(r))
		old := admin.load(recNo)
		cases := []struct {
			name     string
			edit     func(n *wayfarer.Person)
			code     int
			contains string
		}{
			{"remarks size", func(n *wayfarer.Person) { n.Remarks = wayfarer.Some(strings.Repeat("r", 257)) }, contract.CodeInvalidValue, "remarks is longer than 256"},
			{"card description size", func(n *wayfarer.Person) {
				n.PersonCardLink[1].Card.Description = wayfarer.Some(strings.Repeat("d", 513))
			},
				contract.CodeInvalidValue, "personCardLink[1].card.description is longer than 512"},
			{"tag value size", func(n *wayfarer.Person) { n.PersonTag[0].Value = wayfarer.Some(strings.Repeat("v", 1025)) }, contract.CodeInvalidValue, "personTag[0].value is longer than 1024"},
			{"city area size", func(n *wayfarer.Person) {
				n.PersonCommunicationLink[0].Communication.CityArea = wayfarer.Some("12345")
			}, contract.CodeInvalidValue, "personCommunicationLink[0].communication.cityArea is longer than 4"},
			{"activeStatus", func(n *wayfarer.Person) { n.ActiveStatus = wayfarer.Some(5) }, contract.CodeInvalidValue, "activeStatus"},
			{"unknown branch", func(n *wayfarer.Person) { n.BranchRecNo = wayfarer.Some[int64](99999) }, contract.CodeInvalidValue, "branch_recNo 99999 does not exist"},
			{"unknown tag", func(n *wayfarer.Person) { n.PersonTag[0].TagRecNo = wayfarer.Some[int64](99999) }, contract.CodeInvalidValue, "personTag[0].tag_recNo 99999 does not exist"},
			{"newData recNo differs", func(n *wayfarer.Person) { n.RecNo = wayfarer.Some(recNo + 1000) }, contract.CodeIdentifierMismatch, "differs from oldData recNo"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				n := clone(t, old)
				n.FirstName = wayfarer.Some("Kenneth") // a valid change that must not be written either
				c.edit(n)
				m := wantResult(t, admin.update(old, n), 400, c.code, "person")
				if !strings.Contains(m["resultDescription"].(string), c.contains) {
					t.Fatalf("description %q", m["resultDescription"])
				}
				if got := admin.load(recNo); mustJSON(t, got) != mustJSON(t, old) {
					t.Fatal("written")
				}
			})
		}

		// Body shapes.
		for _, c := range []struct {
			body     string
			status   int
			code     int
			contains string
		}{
			{`{"personCardLink":[{"card":{"type":"credit"}}]}`, 400, contract.CodeDeserialization, "Path 'personCardLink[0].card.type'"},
			{`[]`, 400, contract.CodeInvalidValue, "exactly one person"},
			{`[{"activeStatus":1},{"activeStatus":1}]`, 400, contract.CodeInvalidValue, "exactly one person"},
			{`{"firstName":"A"}`, 400, contract.CodeInvalidValue, "activeStatus is required"},
			{`{"activeStatus":1,"card":[{"type":2,"cardNumber":"x"}]}`, 400, contract.CodeInvalidValue, "personCardLink"},
			{`{"recNo":5,"activeStatus":1}`, 400, contract.CodeIdentifierMismatch, "recNo must be null"},
			{`{not json`, 400, contract.CodeDeserialization, "Error deserializing Json"},
		} {
			resp := admin.do("POST", "/person", c.body)
			m := wantResult(t, resp, c.status, c.code, "person")
			if !strings.Contains(m["resultDescription"].(string), c.contains) {
				t.Fatalf("%s: description %q", c.body, m["resultDescription"])
			}
		}
	})
}

// TestPersonConflict: two clients save from the same load; exactly one wins.
func TestPersonConflict(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		recNo := admin.create(kenJSON(r))

		t.Run("one after the other", func(t *testing.T) {
			old := admin.load(recNo)
			a, b := clone(t, old), clone(t, old)
			a.FirstName = wayfarer.Some("Kenneth")
			b.FirstName = wayfarer.Some("Kenny")
			wantResult(t, admin.update(old, a), 200, 0, "")
			m := wantResult(t, admin.update(old, b), 409, contract.CodeConcurrencyConflict, "person")
			if !strings.Contains(m["resultDescription"].(string), "reload") {
				t.Fatalf("%v", m)
			}
			if admin.load(recNo).FirstName.Value != "Kenneth" {
				t.Fatal("the loser wrote")
			}
		})

		t.Run("card edits from the same load", func(t *testing.T) {
			old := admin.load(recNo)
			a, b := clone(t, old), clone(t, old)
			cardByType(t, a, 1).Card.NameOnCard = wayfarer.Some("A")
			cardByType(t, b, 1).Card.NameOnCard = wayfarer.Some("B")
			wantResult(t, admin.update(old, a), 200, 0, "")
			wantResult(t, admin.update(old, b), 409, contract.CodeConcurrencyConflict, "person")
			// A card deleted by one client cannot be edited by the other.
			old = admin.load(recNo)
			a, b = clone(t, old), clone(t, old)
			a.PersonCardLink = []wayfarer.CardLink{}
			cardByType(t, b, 2).Card.Description = wayfarer.Some("edited")
			wantResult(t, admin.update(old, a), 200, 0, "")
			wantResult(t, admin.update(old, b), 409, contract.CodeConcurrencyConflict, "person")
		})

		t.Run("changes to different fields both apply", func(t *testing.T) {
			old := admin.load(recNo)
			a, b := clone(t, old), clone(t, old)
			a.MiddleName = wayfarer.Some("M")
			b.Remarks = wayfarer.Some("quiet room")
			wantResult(t, admin.update(old, a), 200, 0, "")
			wantResult(t, admin.update(old, b), 200, 0, "")
			got := admin.load(recNo)
			if got.MiddleName.Value != "M" || got.Remarks.Value != "quiet room" {
				t.Fatal("lost update")
			}
		})

		t.Run("concurrently", func(t *testing.T) {
			saveAtOnce(t, s, admin, admin.load(recNo), 8)
		})
	})
}

// TestPersonNotFound: missing, another agency's and out-of-scope persons get
// one and the same answer: a load 204 with no body (the reference's), a
// save 404/601.
func TestPersonNotFound(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		hale := admin.create(fmt.Sprintf(`{"firstName":"Hale","middleName":"Nicole","lastName":"Abler","activeStatus":1,"branch_recNo":%d,"advisorProfile_recNo":%d}`, r.main, r.mark))
		old := admin.load(hale)
		other := personClient{t, s, testserver.Bearer(s.Login(t, "OTHER", "admin", "demo-admin"))}
		agent := clientFor(t, s, "agent")
		branch := clientFor(t, s, "branch")

		var bodies []string
		check := func(c personClient, method, path string, body any) {
			t.Helper()
			resp := c.do(method, path, body)
			wantResult(t, resp, 404, contract.CodeRecordNotFound, "person")
			bodies = append(bodies, string(resp.Body))
		}
		for _, c := range []struct {
			c    personClient
			path string
		}{
			{admin, "/person/999999"}, {admin, "/person/abc"}, {admin, "/person/-3"}, {admin, "/person/0"},
			{other, fmt.Sprintf("/person/%d", hale)},
			{agent, fmt.Sprintf("/person/%d", hale)},  // Mark's person: not the agent's advisor
			{branch, fmt.Sprintf("/person/%d", hale)}, // Main: not the branch user's branch
		} {
			resp := c.c.do("GET", c.path, nil)
			wantNoContent(t, resp)
			if resp.Header.Get("ETag") != "" {
				t.Fatalf("GET %s: an ETag on a 204", c.path)
			}
		}
		n := clone(t, old)
		n.FirstName = wayfarer.Some("X")
		check(other, "POST", "/person", dataset(old, n))
		check(agent, "POST", "/person", dataset(old, n))
		check(agent, "POST", "/person/refresh", dataset(old, n))
		missing := clone(t, old)
		missing.RecNo = wayfarer.Some[int64](999999)
		check(admin, "POST", "/person", dataset(missing, missing))
		for _, b := range bodies {
			if b != bodies[0] {
				t.Fatalf("not-found bodies differ:\n%s\n%s", bodies[0], b)
			}
		}
		if bodies[0] != `{"resultCode":601,"resultDescription":"Person not found","method":"person"}` {
			t.Fatalf("body %s", bodies[0])
		}
		if admin.load(hale).FirstName.Value != "Hale" {
			t.Fatal("written")
		}
	})
}

func TestPersonPermissions(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		ctx := context.Background()
		admin := clientFor(t, s, "admin")
		agent := clientFor(t, s, "agent")
		branch := clientFor(t, s, "branch")
		viewer := clientFor(t, s, "viewer")

		mine := admin.create(kenJSON(r)) // Main, Alice: the agent's
		harbor := admin.create(fmt.Sprintf(`{"firstName":"Sue","lastName":"Abler","activeStatus":1,"branch_recNo":%d,"advisorProfile_recNo":%d}`, r.harbor, r.hana))

		// Read, Insert, Update each needed.
		for _, c := range []struct {
			method, path string
			body         any
		}{
			{"GET", fmt.Sprintf("/person/%d", mine), nil},
			{"POST", "/person", kenJSON(r)},
			{"POST", "/person/refresh", kenJSON(r)},
		} {
			resp := viewer.do(c.method, c.path, c.body)
			wantResult(t, resp, 403, contract.CodePermissionDenied, "person")
		}
		viewerUser, err := s.App.DB.UserByName(ctx, r.agency, "viewer")
		if err != nil {
			t.Fatal(err)
		}
		// Read and Insert only (everywhere): no update.
		if err := s.App.DB.SetUserPermissions(ctx, r.agency, viewerUser.ID, map[wayfarer.Area]wayfarer.Permission{
			wayfarer.AreaPerson: wayfarer.PermSelect | wayfarer.PermRead | wayfarer.PermInsert | wayfarer.PermAllUsers | wayfarer.PermAllBranches}); err != nil {
			t.Fatal(err)
		}
		// New permissions end the user's sessions: a new login has them.
		wantResult(t, viewer.do("GET", fmt.Sprintf("/person/%d", mine), nil), 401, contract.CodeTokenNotInStore, "identityToken")
		viewer = clientFor(t, s, "viewer")
		old := viewer.load(mine)
		n := clone(t, old)
		n.FirstName = wayfarer.Some("Kenneth")
		m := wantResult(t, viewer.update(old, n), 403, contract.CodePermissionDenied, "person")
		if !strings.Contains(m["resultDescription"].(string), "update") {
			t.Fatalf("%v", m)
		}
		viewer.create(kenJSON(r))

		// Decrypt needs the Decrypt permission.
		wantResult(t, agent.do("GET", fmt.Sprintf("/person/%d?decrypt=true", mine), nil), 403, contract.CodePermissionDenied, "person")
		wantResult(t, agent.do("GET", fmt.Sprintf("/person/%d?decrypt=maybe", mine), nil), 400, contract.CodeInvalidValue, "")

		// OnlySelf/OnlyBranch: the agent sees and saves the persons of its advisor in its branch.
		agent.load(mine)
		old = agent.load(mine)
		n = clone(t, old)
		n.Remarks = wayfarer.Some("agent was here")
		wantResult(t, agent.update(old, n), 200, 0, "")
		// ...but may not move one out of reach,
		for _, move := range []func(p *wayfarer.Person){
			func(p *wayfarer.Person) { p.BranchRecNo = wayfarer.Some(r.harbor) },
			func(p *wayfarer.Person) { p.AdvisorProfileRecNo = wayfarer.Some(r.mark) },
		} {
			old = agent.load(mine)
			n = clone(t, old)
			move(n)
			wantResult(t, agent.update(old, n), 403, contract.CodePermissionDenied, "person")
		}
		// ...nor create one outside its scope; absent branch and advisor default to its own.
		wantResult(t, agent.do("POST", "/person", fmt.Sprintf(`{"lastName":"X","activeStatus":1,"branch_recNo":%d}`, r.harbor)), 403, contract.CodePermissionDenied, "person")
		wantResult(t, agent.do("POST", "/person", fmt.Sprintf(`{"lastName":"X","activeStatus":1,"advisorProfile_recNo":%d}`, r.mark)), 403, contract.CodePermissionDenied, "person")
		p := onePerson(t, agent.do("POST", "/person/refresh", `{"lastName":"Agentmade","activeStatus":1}`))
		if p.BranchRecNo.Value != r.main || p.AdvisorProfileRecNo.Value != r.alice {
			t.Fatalf("defaults %s", mustJSON(t, p))
		}
		// The branch user (OnlyBranch Harbor, AllUsers) sees Harbor, not Main.
		branch.load(harbor)
		wantNoContent(t, branch.do("GET", fmt.Sprintf("/person/%d", mine), nil))
		hp := onePerson(t, branch.do("POST", "/person/refresh", fmt.Sprintf(`{"lastName":"Harborite","activeStatus":1,"advisorProfile_recNo":%d}`, r.mark)))
		if hp.BranchRecNo.Value != r.harbor {
			t.Fatal("branch default")
		}
	})
}

// TestPersonActionItemCompletedBy: the server records who completed an
// action item (the saving user), clears it with completed, and ignores a
// completedBy_appUserRecNo sent by the client.
func TestPersonActionItemCompletedBy(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		agent := clientFor(t, s, "agent")
		recNo := admin.create(kenJSON(r)) // Main, Alice: within the agent's reach
		item := func(p *wayfarer.Person) *wayfarer.PersonActionItem {
			t.Helper()
			if len(p.PersonActionItemLink) != 1 || p.PersonActionItemLink[0].PersonActionItem == nil {
				t.Fatalf("action items %s", mustJSON(t, p.PersonActionItemLink))
			}
			return p.PersonActionItemLink[0].PersonActionItem
		}
		wantBy := func(what string, p *wayfarer.Person, by wayfarer.Opt[int64]) {
			t.Helper()
			a := item(p)
			if !a.CompletedByAppUserRecNo.Present || !a.CompletedByAppUserRecNo.Equal(by) {
				t.Fatalf("%s: completedBy_appUserRecNo %s, want %v", what, mustJSON(t, a), by)
			}
		}
		open := admin.load(recNo)
		wantBy("open item", open, wayfarer.Null[int64]())

		// The agent marks it completed through refresh, claiming the admin did.
		n := clone(t, open)
		item(n).Completed = wayfarer.Some(wayfarer.TimestampOf(s.Clock.Now()))
		item(n).CompletedByAppUserRecNo = wayfarer.Some(r.adminUser)
		saved := onePerson(t, agent.do("POST", "/person/refresh", dataset(open, n)))
		wantBy("refresh answer", saved, wayfarer.Some(r.agentUser))
		done := admin.load(recNo)
		wantBy("load after completing", done, wayfarer.Some(r.agentUser))
		if !item(done).Completed.Equal(item(n).Completed) {
			t.Fatalf("completed %s", mustJSON(t, item(done)))
		}

		// A client's completedBy alone changes nothing, and a re-dated
		// completion keeps who completed it.
		n = clone(t, done)
		item(n).CompletedByAppUserRecNo = wayfarer.Some(r.adminUser)
		wantResult(t, admin.update(done, n), 200, 0, "")
		wantBy("completedBy sent alone", admin.load(recNo), wayfarer.Some(r.agentUser))
		n = clone(t, done)
		item(n).Completed = wayfarer.Some(wayfarer.TimestampOf(s.Clock.Now().Add(-time.Hour)))
		wantResult(t, admin.update(done, n), 200, 0, "")
		redated := admin.load(recNo)
		wantBy("re-dated", redated, wayfarer.Some(r.agentUser))

		// Cleared: completedBy goes with it, even when the client keeps it.
		n = clone(t, redated)
		item(n).Completed = wayfarer.Null[wayfarer.Timestamp]()
		wantResult(t, admin.update(redated, n), 200, 0, "")
		cleared := admin.load(recNo)
		wantBy("cleared", cleared, wayfarer.Null[int64]())
		if item(cleared).Completed.Valid {
			t.Fatalf("completed %s", mustJSON(t, item(cleared)))
		}

		// Completed again, now by the admin, with a stale completedBy in the body.
		n = clone(t, cleared)
		item(n).Completed = wayfarer.Some(wayfarer.TimestampOf(s.Clock.Now()))
		item(n).CompletedByAppUserRecNo = wayfarer.Some(r.agentUser)
		wantResult(t, admin.update(cleared, n), 200, 0, "")
		wantBy("completed by the admin", admin.load(recNo), wayfarer.Some(r.adminUser))

		// A new item saved completed: the creating user; a new open item: null.
		p := onePerson(t, agent.do("POST", "/person/refresh", fmt.Sprintf(`{"lastName":"Doneby","activeStatus":1,
			"personActionItemLink":[{"personActionItem":{"description":"welcome call","completed":"2026-11-20T09:30:00Z","completedBy_appUserRecNo":%d}}]}`, r.adminUser)))
		wantBy("created completed", p, wayfarer.Some(r.agentUser))
		wantBy("created completed, loaded", agent.load(p.RecNo.Value), wayfarer.Some(r.agentUser))
		p = onePerson(t, agent.do("POST", "/person/refresh", fmt.Sprintf(`{"lastName":"Openby","activeStatus":1,
			"personActionItemLink":[{"personActionItem":{"description":"welcome call","completedBy_appUserRecNo":%d}}]}`, r.adminUser)))
		wantBy("created open", p, wayfarer.Null[int64]())
	})
}

// TestPersonRefreshWrongVerb: /person/refresh belongs to the save for every
// verb; GET is a wrong method there (405, Allow: POST), not a recNo of
// GET /person/{recNo}. Method names stay case-insensitive and numeric (and
// other) recNos still load.
func TestPersonRefreshWrongVerb(t *testing.T) {
	s, r := startPersons(t, "")
	admin := clientFor(t, s, "admin")
	for _, c := range []struct{ method, path string }{
		{"GET", "/person/refresh"},
		{"GET", "/Person/REFRESH"},
		{"GET", "/person/refresh/"},
		{"DELETE", "/person/refresh"},
		{"PUT", "/person/Refresh"},
	} {
		for _, tok := range [][]string{admin.tok, nil} { // routing comes before the token
			resp := s.Do(t, c.method, c.path, nil, tok...)
			if resp.Status != 405 || resp.Header.Get("Allow") != "POST" {
				t.Fatalf("%s %s: %d Allow %q %s, want 405 Allow POST", c.method, c.path, resp.Status, resp.Header.Get("Allow"), resp.Body)
			}
		}
	}
	recNo := admin.create(kenJSON(r))
	for _, path := range []string{fmt.Sprintf("/person/%d", recNo), fmt.Sprintf("/PERSON/%d", recNo)} {
		if p := onePerson(t, admin.do("GET", path, nil)); p.RecNo.Value != recNo {
			t.Fatalf("GET %s: %s", path, mustJSON(t, p))
		}
	}
	wantNoContent(t, admin.do("GET", "/person/999999", nil))
	wantNoContent(t, admin.do("GET", "/person/refreshed", nil))
	if resp := admin.do("POST", fmt.Sprintf("/person/%d", recNo), nil); resp.Status != 405 || resp.Header.Get("Allow") != "GET" {
		t.Fatalf("POST /person/%d: %d Allow %q", recNo, resp.Status, resp.Header.Get("Allow"))
	}
	if resp := admin.do("DELETE", "/person", nil); resp.Status != 405 || resp.Header.Get("Allow") != "POST" {
		t.Fatalf("DELETE /person: %d Allow %q", resp.Status, resp.Header.Get("Allow"))
	}
	// The refresh save itself still answers.
	old := admin.load(recNo)
	n := clone(t, old)
	n.FirstName = wayfarer.Some("Kenneth")
	if p := onePerson(t, admin.do("POST", "/Person/Refresh", dataset(old, n))); p.FirstName.Value != "Kenneth" {
		t.Fatalf("refresh %s", mustJSON(t, p))
	}
}
