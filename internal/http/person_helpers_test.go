package http_test

import (
	"context"
	"fmt"
	"testing"

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
	return c.createAt("/person", body, "Person created")
}

// createAt POSTs a new record to path, wants its resultDescription to be
// created, and returns its recNo.
func (c personClient) createAt(path string, body any, created string) int64 {
	c.t.Helper()
	r := c.do("POST", path, body)
	m := wantResult(c.t, r, 200, 0, "")
	if m["resultDescription"] != created {
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
