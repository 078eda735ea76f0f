//lint:file-ignore SA1019 these tests check how the deprecated card fields (cvvCode, person_recNo) are refused and shown.

package http_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Card numbers the suite saves (public test numbers). After the suite, none
// of them may be found in clear in the database file or the logs.
var testCardNumbers = []string{
	"4111111111111111", "5555555555554444", "378282246310005", "4012888888881881",
	"6011111111111117", "4222222222222",
}

// personRefs are the demo agency's records the tests point persons at.
type personRefs struct {
	agency, main, harbor, alice, mark, hana int64
	vip, diet, noemm, affiliation           int64
	agentUser, adminUser                    int64
}

func loadRefs(t testing.TB, a *app.App) personRefs {
	t.Helper()
	ctx := context.Background()
	var r personRefs
	must := func(id int64, err error) int64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	ag, err := a.DB.AgencyByAlias(ctx, "DEMO")
	if err != nil {
		t.Fatal(err)
	}
	r.agency = ag.ID
	r.main = must(a.DB.BranchByName(ctx, r.agency, "Main"))
	r.harbor = must(a.DB.BranchByName(ctx, r.agency, "Harbor"))
	r.alice = must(a.DB.ProfileByName(ctx, r.agency, wayfarer.ProfileAdvisor, "Alice Advisor"))
	r.mark = must(a.DB.ProfileByName(ctx, r.agency, wayfarer.ProfileAdvisor, "Mark Mainwaring"))
	r.hana = must(a.DB.ProfileByName(ctx, r.agency, wayfarer.ProfileAdvisor, "Hana Harbor"))
	r.vip = must(a.DB.EnsureTag(ctx, r.agency, "VIP"))
	r.diet = must(a.DB.EnsureTag(ctx, r.agency, "Dietary"))
	r.noemm = must(a.DB.EnsureMarketingElement(ctx, r.agency, "NOEMM", "No email marketing"))
	r.affiliation = must(a.DB.EnsureAffiliation(ctx, r.agency, "Star Alliance"))
	u, err := a.DB.UserByName(ctx, r.agency, "agent")
	if err != nil {
		t.Fatal(err)
	}
	r.agentUser = u.ID
	u, err = a.DB.UserByName(ctx, r.agency, "admin")
	if err != nil {
		t.Fatal(err)
	}
	r.adminUser = u.ID
	return r
}

// startPersons starts an instance with the person service wired.
func startPersons(t *testing.T, engine string) (*testserver.Server, personRefs) {
	t.Helper()
	s := testserver.Start(t, testserver.Options{Engine: engine})
	return s, loadRefs(t, s.App)
}

// eachEngine runs f on a fresh instance of every engine.
func eachEngine(t *testing.T, f func(t *testing.T, s *testserver.Server, r personRefs)) {
	for _, e := range testserver.Engines() {
		t.Run(e, func(t *testing.T) {
			s, r := startPersons(t, e)
			f(t, s, r)
			if e == "sqlite" {
				assertNoClearCardNumbers(t, s)
			}
		})
	}
}

// personClient is a logged-in client of the person endpoints.
type personClient struct {
	t   *testing.T
	s   *testserver.Server
	tok []string
}

func clientFor(t *testing.T, s *testserver.Server, user string) personClient {
	return personClient{t, s, testserver.Bearer(s.LoginDemo(t, user))}
}

func (c personClient) do(method, path string, body any) *testserver.Response {
	c.t.Helper()
	return c.s.Do(c.t, method, path, body, c.tok...)
}

// load GETs a person and expects 200 with an array of one.
func (c personClient) load(recNo int64, query ...string) *wayfarer.Person {
	c.t.Helper()
	path := fmt.Sprintf("/person/%d", recNo)
	if len(query) > 0 {
		path += "?" + query[0]
	}
	r := c.do("GET", path, nil)
	return onePerson(c.t, r)
}

// wantNoContent checks the reference's "nothing to return": 204, no body,
// no Content-Type.
func wantNoContent(t testing.TB, r *testserver.Response) {
	t.Helper()
	if r.Status != 204 || len(r.Body) != 0 || r.Header.Get("Content-Type") != "" {
		t.Fatalf("want 204 with no body and no Content-Type; got %d %q %q", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
}

// noRows reports a search answer matching nothing: 204 with no body.
func noRows(r *testserver.Response) bool {
	return r.Status == 204 && len(r.Body) == 0 && r.Header.Get("Content-Type") == ""
}

func onePerson(t *testing.T, r *testserver.Response) *wayfarer.Person {
	t.Helper()
	if r.Status != 200 {
		t.Fatalf("status %d: %s", r.Status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Fatalf("content type %q", ct)
	}
	var ps []*wayfarer.Person
	if err := jsoncodec.Strict.Decode(r.Body, &ps, "test"); err != nil || len(ps) != 1 {
		t.Fatalf("want an array of one person: %v %s", err, r.Body)
	}
	return ps[0]
}

// create POSTs a new person and returns its recNo.
func (c personClient) create(body any) int64 {
	c.t.Helper()
	r := c.do("POST", "/person", body)
	m := wantResult(c.t, r, 200, 0, "")
	if m["resultDescription"] != "Person created" {
		c.t.Fatalf("body %s", r.Body)
	}
	return int64(m["recNo"].(float64))
}

func dataset(old, new *wayfarer.Person) map[string]any {
	return map[string]any{"oldNewDataset": map[string]any{"oldData": []*wayfarer.Person{old}, "newData": []*wayfarer.Person{new}}}
}

// update sends old and new through POST /person.
func (c personClient) update(old, new *wayfarer.Person) *testserver.Response {
	c.t.Helper()
	return c.do("POST", "/person", dataset(old, new))
}

func clone(t *testing.T, p *wayfarer.Person) *wayfarer.Person {
	t.Helper()
	b, err := jsoncodec.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var c wayfarer.Person
	if err := jsoncodec.Strict.Decode(b, &c, "test"); err != nil {
		t.Fatal(err)
	}
	return &c
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := jsoncodec.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// kenJSON is a new person with a card of every type and one row of every
// child table.
func kenJSON(r personRefs) string {
	return fmt.Sprintf(`{"recNo":null,"firstName":"Ken","lastName":"Abler","activeStatus":1,
		"branch_recNo":%d,"advisorProfile_recNo":%d,"birthdayDay":15,"birthdayMonth":3,"birthdayYear":1980,
		"remarks":"prefers aisle seats","branchName":"ignored","age":99,
		"personCommunicationLink":[{"person_recNo":null,"communication_recNo":null,"communication":{"recNo":null,"type":1,"value":"+1 555 0100","isPrimary":true,"permitMarketing":false}},
		                           {"communication":{"type":2,"value":"ken@example.com","isPrimary":true,"permitMarketing":true}}],
		"personCardLink":[
			{"person_recNo":null,"card_recNo":null,"card":{"recNo":null,"type":1,"cardNumber":"4111 1111 1111 1111","expirationDate":"2028-12-31","nameOnCard":"KEN ABLER","cardNumberToken":"tok_mine"}},
			{"person_recNo":null,"card_recNo":null,"card":{"recNo":null,"type":2,"cardNumber":"UA-778899","description":"MileagePlus","subType":4}},
			{"person_recNo":null,"card_recNo":null,"card":{"recNo":null,"type":3,"cardNumber":"X1234567","issuingCountry":"US","issueDate":"01/02/2020","expirationDate":"2030-01-01T00:00:00"}}],
		"personTag":[{"tag_recNo":%d,"value":"gold"}],
		"personActionItemLink":[{"personActionItem":{"description":"Call about renewal","triggerIndex":1,"triggerFixedDate":"2026-12-01","triggerDaysOffset":-2,"appUser_recNo":%d}}],
		"personMarketing":[{"marketingElement_recNo":%d,"affiliation_recNo":null}]}`,
		r.main, r.alice, r.vip, r.agentUser, r.noemm)
}

func cardByType(t *testing.T, p *wayfarer.Person, typ int) *wayfarer.CardLink {
	t.Helper()
	for i := range p.PersonCardLink {
		if p.PersonCardLink[i].Card.Type.Value == typ {
			return &p.PersonCardLink[i]
		}
	}
	t.Fatalf("no card of type %d in %s", typ, mustJSON(t, p.PersonCardLink))
	return nil
}

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

// TestPersonCardLinkTable covers every row of contract §3's card-link table,
// through POST /person and POST /person/refresh.
func TestPersonCardLinkTable(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		cardRows := func() int {
			var n int
			if err := s.App.DB.Primary().QueryRow(`SELECT COUNT(*) FROM card`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}

		t.Run("row 1: a link in oldData absent from newData is deleted, with its card", func(t *testing.T) {
			recNo := admin.create(kenJSON(r))
			old := admin.load(recNo)
			before := cardRows()
			n := clone(t, old)
			loyalty := cardByType(t, old, 2).CardRecNo.Value
			var keep []wayfarer.CardLink
			for _, l := range n.PersonCardLink {
				if l.CardRecNo.Value != loyalty {
					keep = append(keep, l)
				}
			}
			n.PersonCardLink = keep
			wantResult(t, admin.update(old, n), 200, 0, "")
			got := admin.load(recNo)
			if len(got.PersonCardLink) != 2 || cardRows() != before-1 {
				t.Fatalf("after removal %s (cards %d→%d)", mustJSON(t, got.PersonCardLink), before, cardRows())
			}
			// The kept cards are untouched: same ids, number and token.
			if mustJSON(t, got.PersonCardLink) != mustJSON(t, keep) {
				t.Fatalf("kept links changed:\n%s\n%s", mustJSON(t, got.PersonCardLink), mustJSON(t, keep))
			}
		})

		t.Run("row 2: an empty personCardLink removes every old link", func(t *testing.T) {
			recNo := admin.create(kenJSON(r))
			old := admin.load(recNo)
			before := cardRows()
			n := clone(t, old)
			n.PersonCardLink = []wayfarer.CardLink{}
			got := onePerson(t, admin.do("POST", "/person/refresh", dataset(old, n)))
			if len(got.PersonCardLink) != 0 || cardRows() != before-3 {
				t.Fatalf("after []: %s", mustJSON(t, got.PersonCardLink))
			}
			// Other child tables were not touched.
			if len(got.PersonCommunicationLink) != 2 || len(got.PersonTag) != 1 {
				t.Fatal("children lost")
			}
		})

		t.Run("absent personCardLink leaves the cards alone", func(t *testing.T) {
			recNo := admin.create(kenJSON(r))
			old := admin.load(recNo)
			n := clone(t, old)
			n.PersonCardLink = nil
			n.Remarks = wayfarer.Some("window now")
			got := onePerson(t, admin.do("POST", "/person/refresh", dataset(old, n)))
			if mustJSON(t, got.PersonCardLink) != mustJSON(t, old.PersonCardLink) || got.Remarks.Value != "window now" {
				t.Fatalf("cards changed %s", mustJSON(t, got))
			}
		})

		t.Run("row 3: a new link with null card ids and the person's person_recNo adds a card", func(t *testing.T) {
			recNo := admin.create(kenJSON(r))
			old := admin.load(recNo)
			n := clone(t, old)
			n.PersonCardLink = append(n.PersonCardLink, wayfarer.CardLink{PersonRecNo: wayfarer.Some(recNo), CardRecNo: wayfarer.Null[int64](),
				Card: &wayfarer.Card{RecNo: wayfarer.Null[int64](), Type: wayfarer.Some(1), CardNumber: wayfarer.Some("378282246310005"),
					NameOnCard: wayfarer.Some("KEN ABLER")}})
			got := onePerson(t, admin.do("POST", "/person/refresh", dataset(old, n)))
			if len(got.PersonCardLink) != 4 {
				t.Fatalf("links %s", mustJSON(t, got.PersonCardLink))
			}
			added := got.PersonCardLink[3]
			if added.PersonRecNo.Value != recNo || !added.CardRecNo.Valid || added.CardRecNo != added.Card.RecNo ||
				added.Card.CardNumber.Value != "AX 37-XXXX-0005" || !strings.HasPrefix(added.Card.CardNumberToken.Value, "tok_") {
				t.Fatalf("added %s", mustJSON(t, added))
			}
			for i := range 3 {
				if mustJSON(t, got.PersonCardLink[i]) != mustJSON(t, old.PersonCardLink[i]) {
					t.Fatal("existing links changed")
				}
			}
		})

		t.Run("row 4: all three identifiers preserved and changed card fields edit the card", func(t *testing.T) {
			recNo := admin.create(kenJSON(r))
			old := admin.load(recNo)
			n := clone(t, old)
			c := cardByType(t, n, 1)
			c.Card.ExpirationDate = wayfarer.Some(wayfarer.Date{Year: 2031, Month: 6, Day: 30})
			c.Card.NameOnCard = wayfarer.Some("K. ABLER")
			d := cardByType(t, n, 2)
			d.Card.Description = wayfarer.Some("United MileagePlus")
			before := cardRows()
			wantResult(t, admin.update(old, n), 200, 0, "")
			got := admin.load(recNo)
			if mustJSON(t, got.PersonCardLink) != mustJSON(t, n.PersonCardLink) || cardRows() != before {
				t.Fatalf("edit in place:\n got %s\nwant %s", mustJSON(t, got.PersonCardLink), mustJSON(t, n.PersonCardLink))
			}
		})

		t.Run("identifiers that disagree are a 400 and nothing is written", func(t *testing.T) {
			recNo := admin.create(kenJSON(r))
			other := admin.create(kenJSON(r))
			otherCard := cardByType(t, admin.load(other), 2).CardRecNo.Value
			old := admin.load(recNo)
			cases := map[string]func(n *wayfarer.Person){
				"card_recNo differs from card.recNo": func(n *wayfarer.Person) {
					n.PersonCardLink[0].Card.RecNo = n.PersonCardLink[1].CardRecNo
				},
				"card.recNo reset to null": func(n *wayfarer.Person) { n.PersonCardLink[0].Card.RecNo = wayfarer.Null[int64]() },
				"card_recNo reset to null": func(n *wayfarer.Person) { n.PersonCardLink[0].CardRecNo = wayfarer.Null[int64]() },
				"person_recNo of another person": func(n *wayfarer.Person) {
					n.PersonCardLink[0].PersonRecNo = wayfarer.Some(other)
				},
				"a card linked to another person": func(n *wayfarer.Person) {
					n.PersonCardLink = append(n.PersonCardLink, wayfarer.CardLink{PersonRecNo: wayfarer.Some(recNo), CardRecNo: wayfarer.Some(otherCard),
						Card: &wayfarer.Card{RecNo: wayfarer.Some(otherCard), Description: wayfarer.Some("mine now")}})
				},
				"deprecated card.person_recNo of another person": func(n *wayfarer.Person) {
					n.PersonCardLink[1].Card.PersonRecNo = wayfarer.Some(other)
				},
			}
			for name, edit := range cases {
				t.Run(name, func(t *testing.T) {
					n := clone(t, old)
					n.Remarks = wayfarer.Some("must not be written")
					edit(n)
					wantResult(t, admin.update(old, n), 400, contract.CodeIdentifierMismatch, "person")
					if got := admin.load(recNo); mustJSON(t, got) != mustJSON(t, old) {
						t.Fatalf("written:\n%s\n%s", mustJSON(t, got), mustJSON(t, old))
					}
				})
			}
			if cardByType(t, admin.load(other), 2).Card.Description.Value != "MileagePlus" {
				t.Fatal("another person's card changed")
			}
		})
	})
}

// TestPersonCardRules covers contract §4.6.
func TestPersonCardRules(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		recNo := admin.create(kenJSON(r))

		refused := func(t *testing.T, old, n *wayfarer.Person, code int, contains string) {
			t.Helper()
			for _, path := range []string{"/person", "/person/refresh"} {
				resp := admin.do("POST", path, dataset(old, n))
				m := wantResult(t, resp, 400, code, "person")
				if !strings.Contains(m["resultDescription"].(string), contains) {
					t.Fatalf("description %q, want %q", m["resultDescription"], contains)
				}
			}
			if got := admin.load(recNo); mustJSON(t, got) != mustJSON(t, old) {
				t.Fatalf("written:\n%s\n%s", mustJSON(t, got), mustJSON(t, old))
			}
		}

		t.Run("1,2: identifiers preserved; rebuilding the list as new cards is refused", func(t *testing.T) {
			old := admin.load(recNo)
			n := clone(t, old)
			for i := range n.PersonCardLink {
				l := &n.PersonCardLink[i]
				l.CardRecNo, l.Card.RecNo, l.PersonRecNo = wayfarer.Null[int64](), wayfarer.Null[int64](), wayfarer.Null[int64]()
			}
			refused(t, old, n, contract.CodeCardRule, "masked card number cannot be saved")
		})

		t.Run("3: a new or changed credit number is validated", func(t *testing.T) {
			old := admin.load(recNo)
			for _, bad := range []string{"4111111111111112", "4111", "4111-1111-1111-111a", "41111111111111111111"} {
				n := clone(t, old)
				cardByType(t, n, 1).Card.CardNumber = wayfarer.Some(bad)
				refused(t, old, n, contract.CodeCardRule, "personCardLink[0].card.cardNumber is not a valid credit/debit card number")
			}
			resp := admin.do("POST", "/person", strings.Replace(kenJSON(r), "4111 1111 1111 1111", "4111 1111 1111 1112", 1))
			wantResult(t, resp, 400, contract.CodeCardRule, "person")
		})

		t.Run("3: a changed credit number is tokenized anew", func(t *testing.T) {
			old := admin.load(recNo)
			n := clone(t, old)
			cardByType(t, n, 1).Card.CardNumber = wayfarer.Some("4012 8888 8888 1881")
			got := onePerson(t, admin.do("POST", "/person/refresh", dataset(old, n)))
			oc, gc := cardByType(t, old, 1), cardByType(t, got, 1)
			if gc.CardRecNo != oc.CardRecNo || gc.Card.CardNumber.Value != "VI 40-XXXX-1881" ||
				gc.Card.CardNumberToken.Value == oc.Card.CardNumberToken.Value || !strings.HasPrefix(gc.Card.CardNumberToken.Value, "tok_") {
				t.Fatalf("changed number: %s", mustJSON(t, gc))
			}
			dec := clientFor(t, s, "admin").load(recNo, "decrypt=true")
			if cardByType(t, dec, 1).Card.CardNumber.Value != "4012888888881881" {
				t.Fatal("the new number is not what was sealed")
			}
		})

		t.Run("4: the masked number and token are kept when other fields change", func(t *testing.T) {
			old := admin.load(recNo)
			n := clone(t, old)
			c := cardByType(t, n, 1)
			c.Card.ExpirationDate = wayfarer.Some(wayfarer.Date{Year: 2032, Month: 1, Day: 31})
			c.Card.NameOnCard = wayfarer.Some("KENNETH ABLER")
			got := onePerson(t, admin.do("POST", "/person/refresh", dataset(old, n)))
			if mustJSON(t, cardByType(t, got, 1)) != mustJSON(t, c) {
				t.Fatalf("got %s want %s", mustJSON(t, cardByType(t, got, 1)), mustJSON(t, c))
			}
			dec := admin.load(recNo, "decrypt=true")
			if cardByType(t, dec, 1).Card.CardNumber.Value != "4012888888881881" {
				t.Fatal("stored number changed")
			}
		})

		t.Run("4: a masked number as a new card's number is refused", func(t *testing.T) {
			old := admin.load(recNo)
			n := clone(t, old)
			n.PersonCardLink = append(n.PersonCardLink, wayfarer.CardLink{Card: &wayfarer.Card{Type: wayfarer.Some(1), CardNumber: wayfarer.Some("VI 41-XXXX-1111")}})
			refused(t, old, n, contract.CodeCardRule, "masked card number cannot be saved")
		})

		t.Run("4: a masked pattern differing from the stored one is refused", func(t *testing.T) {
			old := admin.load(recNo)
			n := clone(t, old)
			cardByType(t, n, 1).Card.CardNumber = wayfarer.Some("VI 41-XXXX-1111")
			refused(t, old, n, contract.CodeCardRule, "masked card number cannot be saved")
		})

		t.Run("5: the card type is insert-only", func(t *testing.T) {
			old := admin.load(recNo)
			n := clone(t, old)
			cardByType(t, n, 2).Card.Type = wayfarer.Some(3)
			refused(t, old, n, contract.CodeCardRule, "card type is insert-only: remove the card and add a new one")
		})

		t.Run("6: a cvvCode is refused, never stored, never logged", func(t *testing.T) {
			old := admin.load(recNo)
			n := clone(t, old)
			cardByType(t, n, 1).Card.CVVCode = wayfarer.Some("8642")
			refused(t, old, n, contract.CodeCardRule, "cvvCode")
			resp := admin.do("POST", "/person", strings.Replace(kenJSON(r), `"nameOnCard":"KEN ABLER"`, `"nameOnCard":"KEN ABLER","cvvCode":"8642"`, 1))
			wantResult(t, resp, 400, contract.CodeCardRule, "person")
			if strings.Contains(string(resp.Body), "8642") || strings.Contains(s.Logs.String(), "8642") {
				t.Fatal("cvv echoed or logged")
			}
		})

		t.Run("card numbers never go into text fields", func(t *testing.T) {
			old := admin.load(recNo)
			edits := map[string]func(n *wayfarer.Person){
				"remarks":      func(n *wayfarer.Person) { n.Remarks = wayfarer.Some("card 6011 1111 1111 1117 exp 12/29") },
				"birthdayNote": func(n *wayfarer.Person) { n.BirthdayNote = wayfarer.Some("6011111111111117") },
				"personCardLink[1].card.description": func(n *wayfarer.Person) {
					cardByType(t, n, 2).Card.Description = wayfarer.Some("backup 6011-1111-1111-1117")
				},
				"personCommunicationLink[0].communication.description": func(n *wayfarer.Person) {
					n.PersonCommunicationLink[0].Communication.Description = wayfarer.Some("pay with 6011111111111117")
				},
				"personActionItemLink[0].personActionItem.notes": func(n *wayfarer.Person) {
					n.PersonActionItemLink[0].PersonActionItem.Notes = wayfarer.Some("6011111111111117")
				},
				"personTag[0].value":   func(n *wayfarer.Person) { n.PersonTag[0].Value = wayfarer.Some("6011111111111117") },
				"emergencyContactName": func(n *wayfarer.Person) { n.EmergencyContactName = wayfarer.Some("6011111111111117") },
			}
			for field, edit := range edits {
				n := clone(t, old)
				edit(n)
				refused(t, old, n, contract.CodeCardRule, "card numbers must not be written into text fields (field "+field+")")
			}
		})

		t.Run("7: loyalty and travel-document numbers are stored and shown as given", func(t *testing.T) {
			old := admin.load(recNo)
			n := clone(t, old)
			cardByType(t, n, 2).Card.CardNumber = wayfarer.Some("UA 0012 3456 789")
			cardByType(t, n, 3).Card.CardNumber = wayfarer.Some("P-99 887 766")
			got := onePerson(t, admin.do("POST", "/person/refresh", dataset(old, n)))
			if cardByType(t, got, 2).Card.CardNumber.Value != "UA 0012 3456 789" || cardByType(t, got, 3).Card.CardNumber.Value != "P-99 887 766" {
				t.Fatalf("%s", mustJSON(t, got.PersonCardLink))
			}
		})

		t.Run("a client that loaded with decrypt can save unchanged numbers", func(t *testing.T) {
			old := admin.load(recNo, "decrypt=true")
			n := clone(t, old)
			cardByType(t, n, 1).Card.NameOnCard = wayfarer.Some("K ABLER")
			wantResult(t, admin.update(old, n), 200, 0, "")
			got := admin.load(recNo)
			if cardByType(t, got, 1).Card.NameOnCard.Value != "K ABLER" || cardByType(t, got, 1).Card.CardNumber.Value != "VI 40-XXXX-1881" {
				t.Fatalf("%s", mustJSON(t, got.PersonCardLink))
			}
		})
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

func TestPersonDecryptAudit(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		ctx := context.Background()
		admin := clientFor(t, s, "admin")
		recNo := admin.create(kenJSON(r))
		old := admin.load(recNo)
		n := clone(t, old)
		n.PersonCardLink = append(n.PersonCardLink, wayfarer.CardLink{Card: &wayfarer.Card{Type: wayfarer.Some(1), CardNumber: wayfarer.Some("4222222222222")}})
		wantResult(t, admin.update(old, n), 200, 0, "")

		audits, _ := s.App.DB.CardDecryptAudits(ctx, r.agency)
		if len(audits) != 0 {
			t.Fatal("audit without decrypt")
		}
		masked := admin.load(recNo, "decrypt=false")
		dec := admin.load(recNo, "Decrypt=TRUE")
		var clear []string
		for _, l := range dec.PersonCardLink {
			if l.Card.Type.Value == 1 {
				clear = append(clear, l.Card.CardNumber.Value)
			}
		}
		if strings.Join(clear, ",") != "4111111111111111,4222222222222" {
			t.Fatalf("decrypted %v", clear)
		}
		if cardByType(t, dec, 2).Card.CardNumber != cardByType(t, masked, 2).Card.CardNumber || cardByType(t, dec, 1).Card.CardNumberToken != cardByType(t, masked, 1).Card.CardNumberToken {
			t.Fatal("decrypt changed other fields")
		}
		audits, err := s.App.DB.CardDecryptAudits(ctx, r.agency)
		if err != nil {
			t.Fatal(err)
		}
		if len(audits) != 2 {
			t.Fatalf("audits %+v", audits)
		}
		for i, a := range audits {
			if a.UserID != r.adminUser || a.PersonID != recNo || a.CardID != dec.PersonCardLink[[]int{0, 3}[i]].CardRecNo.Value || !a.ReadAt.Equal(s.Clock.Now()) {
				t.Fatalf("audit %+v", a)
			}
		}
	})
}

// assertNoClearCardNumbers scans the SQLite files and the logs for the
// suite's card numbers, with and without separators.
func assertNoClearCardNumbers(t *testing.T, s *testserver.Server) {
	t.Helper()
	if _, err := s.App.DB.Primary().Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(s.DBPath + "*")
	var data [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, b)
	}
	data = append(data, []byte(s.Logs.String()))
	for _, num := range testCardNumbers {
		forms := []string{num, spaced(num, " "), spaced(num, "-")}
		for i, b := range data {
			for _, f := range forms {
				if bytes.Contains(b, []byte(f)) {
					name := "logs"
					if i < len(files) {
						name = files[i]
					}
					t.Errorf("card number %s…%s found in clear in %s", num[:2], num[len(num)-4:], name)
				}
			}
		}
	}
}

func spaced(num, sep string) string {
	var parts []string
	for i := 0; i < len(num); i += 4 {
		parts = append(parts, num[i:min(i+4, len(num))])
	}
	return strings.Join(parts, sep)
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
