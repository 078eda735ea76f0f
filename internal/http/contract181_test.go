package http_test

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Contract 1.8.1 below /v1.8.1/ (docs/compatibility.md): the person with
// the flat card array, every other route as it is. Helpers:
// contract181_helpers_test.go.

func TestContract181DevportalPerson(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		resp := admin.do("POST", base181+"/person", devportalCreateBody(t, r))
		m := wantResult(t, resp, 200, 0, "")
		if m["resultDescription"] != "Person created" {
			t.Fatalf("%s", resp.Body)
		}
		recNo := int64(m["recNo"].(float64))

		// Loaded as 1.8.1: the example's keys and JSON types.
		got := admin.load181(recNo)
		sameShape(t, "person", reflect.TypeFor[wayfarer.Person](), devportalExample(t)[0], got[0])
		cards := cardsOf(t, got)
		wantNumbers := []string{"VI 41-XXXX-1111", "4567888", "VI 41-XXXX-1111", "5656343"}
		if len(cards) != len(wantNumbers) {
			t.Fatalf("cards %s", jsonText(t, cards))
		}
		seen := map[float64]bool{}
		for i, c := range cards {
			cm := c.(map[string]any)
			id, _ := cm["recNo"].(float64)
			if cm["cardNumber"] != wantNumbers[i] || cm["person_recNo"] != float64(recNo) || id == 0 || seen[id] {
				t.Errorf("card %d: %s", i, jsonText(t, cm))
			}
			seen[id] = true
		}

		// Loaded as 1.8.2: the same cards with the same recNos, in links.
		p182 := admin.load(recNo)
		for i, l := range p182.PersonCardLink {
			cm := cards[i].(map[string]any)
			if float64(l.CardRecNo.Value) != cm["recNo"] || l.Card.RecNo != l.CardRecNo || l.PersonRecNo.Value != recNo ||
				l.Card.CardNumber.Value != cm["cardNumber"] || l.Card.Description.Value != cm["description"] {
				t.Errorf("link %d %s, card %s", i, mustJSON(t, l), jsonText(t, cm))
			}
		}
		admin.sameBothWays(recNo)

		// A card edited through 1.8.1 loads identically through 1.8.2 ...
		old := got[0]
		n := deepCopyJSON(t, old).(map[string]any)
		cardsOf(t, []any{n})[0].(map[string]any)["expirationDate"] = "2031-06-30"
		cardsOf(t, []any{n})[1].(map[string]any)["description"] = "Advantage Gold"
		refreshed := onePerson181(t, admin.do("POST", base181+"/person/refresh", dataset181(old, n)))
		after := admin.sameBothWays(recNo)
		if !reflect.DeepEqual(after[0], any(refreshed)) {
			t.Fatalf("refresh answer and load differ:\n%s\n%s", jsonText(t, refreshed), jsonText(t, after[0]))
		}
		p := admin.load(recNo)
		if d := p.PersonCardLink[0].Card.ExpirationDate.Value; d != (wayfarer.Date{Year: 2031, Month: 6, Day: 30}) ||
			p.PersonCardLink[1].Card.Description.Value != "Advantage Gold" || p.PersonCardLink[0].CardRecNo != p182.PersonCardLink[0].CardRecNo {
			t.Fatalf("1.8.2 after a 1.8.1 edit: %s", mustJSON(t, p.PersonCardLink))
		}

		// ... and one edited through 1.8.2 loads identically through 1.8.1.
		edited := clone(t, p)
		cardByType(t, edited, 1).Card.NameOnCard = wayfarer.Some("KEN ABLER")
		wantResult(t, admin.update(p, edited), 200, 0, "")
		final := admin.sameBothWays(recNo)
		if cardsOf(t, final)[0].(map[string]any)["nameOnCard"] != "KEN ABLER" {
			t.Fatalf("1.8.1 after a 1.8.2 edit: %s", jsonText(t, final))
		}
	})
}

func TestContract181Update(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		recNo := admin.create(kenJSON(r)) // a credit card, a loyalty card and a travel document
		cardRows := func() int {
			var n int
			if err := s.App.DB.Primary().QueryRow(`SELECT COUNT(*) FROM card`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		byType := func(cards []any, typ float64) map[string]any {
			for _, c := range cards {
				if cm := c.(map[string]any); cm["type"] == typ {
					return cm
				}
			}
			t.Fatalf("no card of type %v in %s", typ, jsonText(t, cards))
			return nil
		}

		t.Run("edit, add and remove cards in one update; the masked number stays", func(t *testing.T) {
			old := admin.load181(recNo)[0].(map[string]any)
			before := cardRows()
			decrypted := cardByType(t, admin.load(recNo, "decrypt=true"), 1).Card.CardNumber.Value
			n := deepCopyJSON(t, old).(map[string]any)
			credit := byType(cardsOf(t, []any{n}), 1)
			credit["expirationDate"] = "2032-01-31" // the masked cardNumber and the token go back unchanged
			var kept []any
			for _, c := range cardsOf(t, []any{n}) {
				if c.(map[string]any)["type"] != float64(3) { // the travel document is removed
					kept = append(kept, c)
				}
			}
			kept = append(kept, map[string]any{"recNo": nil, "person_recNo": recNo, "type": 1,
				"cardNumber": "5555 5555 5555 4444", "nameOnCard": "KEN ABLER", "expirationDate": "2029-05-31"})
			n["card"] = kept
			got := onePerson181(t, admin.do("POST", base181+"/person/refresh", dataset181(old, n)))
			cards := got["card"].([]any)
			if len(cards) != 3 || cardRows() != before {
				t.Fatalf("cards %s (rows %d→%d)", jsonText(t, cards), before, cardRows())
			}
			oldCredit := byType(old["card"].([]any), 1)
			gc := cards[0].(map[string]any)
			if gc["recNo"] != oldCredit["recNo"] || gc["cardNumber"] != "VI 41-XXXX-1111" || gc["cardNumberToken"] != oldCredit["cardNumberToken"] ||
				!strings.HasPrefix(gc["expirationDate"].(string), "2032-01-31") {
				t.Fatalf("edited card %s, was %s", jsonText(t, gc), jsonText(t, oldCredit))
			}
			added := cards[2].(map[string]any)
			if added["cardNumber"] != "CA 55-XXXX-4444" || added["person_recNo"] != float64(recNo) || added["recNo"] == nil ||
				!strings.HasPrefix(added["cardNumberToken"].(string), "tok_") {
				t.Fatalf("added card %s", jsonText(t, added))
			}
			if cardByType(t, admin.load(recNo, "decrypt=true"), 1).Card.CardNumber.Value != decrypted {
				t.Fatal("the stored number of the kept card changed")
			}
			admin.sameBothWays(recNo)
		})

		t.Run("refusals write nothing", func(t *testing.T) {
			old := admin.load181(recNo)[0].(map[string]any)
			before182 := admin.load182(recNo)
			cases := []struct {
				name     string
				edit     func(n map[string]any)
				status   int
				code     int
				contains string
			}{
				{"type change", func(n map[string]any) { byType(n["card"].([]any), 2)["type"] = 3 },
					400, contract.CodeCardRule, "card type is insert-only: remove the card and add a new one (card[1].type)"},
				{"cvvCode", func(n map[string]any) { byType(n["card"].([]any), 1)["cvvCode"] = "8642" },
					400, contract.CodeCardRule, "cvvCode"},
				{"card number in a description", func(n map[string]any) { byType(n["card"].([]any), 2)["description"] = "backup 6011-1111-1111-1117" },
					400, contract.CodeCardRule, "card numbers must not be written into text fields (field card[1].description)"},
				{"masked number as a new card", func(n map[string]any) {
					n["card"] = append(n["card"].([]any), map[string]any{"type": 1, "cardNumber": "VI 41-XXXX-1111"})
				}, 400, contract.CodeCardRule, "masked card number cannot be saved (card[3].cardNumber)"},
				{"invalid new number", func(n map[string]any) {
					n["card"] = append(n["card"].([]any), map[string]any{"type": 1, "cardNumber": "4111111111111112"})
				}, 400, contract.CodeCardRule, "card[3].cardNumber is not a valid credit/debit card number"},
				{"person_recNo of another person", func(n map[string]any) { n["card"].([]any)[0].(map[string]any)["person_recNo"] = recNo + 1000 },
					400, contract.CodeIdentifierMismatch, fmt.Sprintf("card[0].person_recNo (%d) is not this person (%d)", recNo+1000, recNo)},
				{"recNo reset to null", func(n map[string]any) { n["card"].([]any)[0].(map[string]any)["recNo"] = nil },
					400, contract.CodeCardRule, "masked card number cannot be saved (card[0].cardNumber)"},
				{"a card that is not this person's", func(n map[string]any) { n["card"].([]any)[1].(map[string]any)["recNo"] = 999999 },
					400, contract.CodeIdentifierMismatch, "card[1].recNo 999999 is not a card of this person in oldData"},
				{"the 1.8.2 links", func(n map[string]any) {
					n["personCardLink"] = []any{}
				}, 400, contract.CodeInvalidValue, "personCardLink is the card shape of contract 1.8.2, which the base path without /v1.8.1 takes"},
			}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					for _, path := range []string{"/person", "/person/refresh"} {
						n := deepCopyJSON(t, old).(map[string]any)
						n["remarks"] = "must not be written"
						c.edit(n)
						resp := admin.do("POST", base181+path, dataset181(old, n))
						m := wantResult(t, resp, c.status, c.code, "person")
						if d := m["resultDescription"].(string); !strings.Contains(d, c.contains) || strings.Contains(d, "personCardLink[") {
							t.Fatalf("%s: description %q, want %q", path, d, c.contains)
						}
						if strings.Contains(string(resp.Body), "8642") || strings.Contains(string(resp.Body), "6011") {
							t.Fatalf("echoed: %s", resp.Body)
						}
					}
					if got := admin.load182(recNo); !reflect.DeepEqual(got, before182) {
						t.Fatalf("written:\n%s\n%s", jsonText(t, got), jsonText(t, before182))
					}
				})
			}
			if strings.Contains(s.Logs.String(), "8642") {
				t.Fatal("cvv logged")
			}
		})

		t.Run("a new person's card names no person", func(t *testing.T) {
			body := `{"lastName":"Flat","activeStatus":1,"card":[{"recNo":null,"person_recNo":%s,"type":2,"cardNumber":"UA-1"}]}`
			resp := admin.do("POST", base181+"/person", fmt.Sprintf(body, "5"))
			if d := wantResult(t, resp, 400, contract.CodeIdentifierMismatch, "person")["resultDescription"]; d != "card[0].person_recNo must be null for a new person" {
				t.Fatalf("description %q", d)
			}
			p := onePerson181(t, admin.do("POST", base181+"/person/refresh", fmt.Sprintf(body, "null")))
			c := p["card"].([]any)[0].(map[string]any)
			if c["person_recNo"] != p["recNo"] || c["recNo"] == nil || c["cardNumber"] != "UA-1" {
				t.Fatalf("created %s", jsonText(t, p))
			}
		})

		t.Run("the flat array on the 1.8.2 paths names the 1.8.1 base path", func(t *testing.T) {
			resp := admin.do("POST", "/person", `{"lastName":"Flat","activeStatus":1,"card":[{"type":2,"cardNumber":"UA-1"}]}`)
			d := wantResult(t, resp, 400, contract.CodeInvalidValue, "person")["resultDescription"].(string)
			if !strings.Contains(d, "send cards in personCardLink, or send this body under the base path /v1.8.1/") {
				t.Fatalf("description %q", d)
			}
		})
	})
}

// TestContract181EveryRoute: every route answers below /v1.8.1/ as it
// does without it (serverRoutes lists the routes of server.go); only the
// version and the person's cards differ.
func TestContract181EveryRoute(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		r := loadRefs(t, s.App)
		// Without a token or body, each route answers the same under both paths.
		for _, route := range serverRoutes {
			method, path, _ := strings.Cut(route, " ")
			path = concretePath(path)
			a, b := s.Do(t, method, path, nil), s.Do(t, method, base181+path, nil)
			if a.Status != b.Status || (path != "/version" && string(a.Body) != string(b.Body)) {
				t.Errorf("%s: %d %s, below %s: %d %s", route, a.Status, a.Body, base181, b.Status, b.Body)
			}
		}

		// The version.
		if v := wantResult(t, s.Do(t, "GET", base181+"/version", nil), 200, 0, "")["version"]; v != "1.8.1.6" {
			t.Errorf("1.8.1 version %v", v)
		}
		if v := wantResult(t, s.Do(t, "GET", "/version", nil), 200, 0, "")["version"]; v != contract.ContractVersion {
			t.Errorf("1.8.2 version %v", v)
		}

		// Login both ways; a token works under both paths.
		lr := s.Do(t, "POST", base181+"/login", map[string]string{"alias": "DEMO", "userName": "admin", "password": "demo-admin"})
		tok := wantResult(t, lr, 200, 0, "")["identityToken"].(string)
		br := s.Do(t, "GET", base181+"/Login/DEMO", nil, "Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte("agent:demo-agent")))
		if wantResult(t, br, 200, 0, "")["identityToken"] == "" {
			t.Fatal("basic login")
		}
		admin := personClient{t, s, testserver.Bearer(tok)}

		// Person save, refresh, load; the prefix and method names in any case.
		recNo := admin.create(kenJSON(r))
		if m := wantResult(t, admin.do("POST", base181+"/person", `{"lastName":"Prefix","activeStatus":1}`), 200, 0, ""); m["resultDescription"] != "Person created" {
			t.Fatalf("create %v", m)
		}
		if p := onePerson181(t, admin.do("GET", fmt.Sprintf("/V1.8.1/Person/%d", recNo), nil)); p["recNo"] != float64(recNo) {
			t.Fatalf("load %v", p)
		}
		old := admin.load181(recNo)[0]
		n := deepCopyJSON(t, old).(map[string]any)
		n["remarks"] = "window"
		if p := onePerson181(t, admin.do("POST", "/v1.8.1/PERSON/REFRESH", dataset181(old, n))); p["remarks"] != "window" {
			t.Fatalf("refresh %v", p)
		}
		n2 := deepCopyJSON(t, n).(map[string]any)
		n2["remarks"] = "aisle"
		if m := wantResult(t, admin.do("POST", base181+"/person", dataset181(n, n2)), 200, 0, ""); m["resultDescription"] != "Person updated" {
			t.Fatalf("save %v", m)
		}

		// Search rows are the same in both contracts.
		search := `{"lastName":{"value":["Abler"],"compareCondition":1},"includeCols":["recNo","name","cardType","cardNumber","cardRecNo"]}`
		a, b := admin.do("POST", "/personSearch", search), admin.do("POST", base181+"/PersonSearch", search)
		if a.Status != 200 || b.Status != 200 || string(a.Body) != string(b.Body) || !strings.Contains(string(b.Body), "XXXX") {
			t.Fatalf("search: %d %s\n%d %s", a.Status, a.Body, b.Status, b.Body)
		}

		// Refresh and logout.
		rr := admin.do("GET", base181+"/refreshIdentityToken", nil)
		newTok := wantResult(t, rr, 200, 0, "")["refreshIdentityToken"].(string)
		onePerson(t, s.Do(t, "GET", fmt.Sprintf("/person/%d", recNo), nil, testserver.Bearer(newTok)...))
		wantResult(t, admin.do("GET", base181+"/logout", nil), 200, 0, "")
		wantResult(t, admin.do("GET", fmt.Sprintf("/person/%d", recNo), nil), 401, contract.CodeTokenNotInStore, "identityToken")
		wantResult(t, admin.do("GET", fmt.Sprintf("%s/person/%d", base181, recNo), nil), 401, contract.CodeTokenNotInStore, "identityToken")

		// Wrong verbs and unknown paths below the base path.
		if resp := s.Do(t, "DELETE", base181+"/person/refresh", nil); resp.Status != 405 || resp.Header.Get("Allow") != "POST" {
			t.Errorf("DELETE below the base path: %d Allow %q", resp.Status, resp.Header.Get("Allow"))
		}
		for _, path := range []string{base181, base181 + "/", base181 + "/nosuch", base181 + base181 + "/version", "/v1.8.2/version", "/v1.8/version", "/version" + base181} {
			if resp := s.Do(t, "GET", path, nil); resp.Status != 404 || len(resp.Body) != 0 {
				t.Errorf("GET %s: %d %s, want 404 with an empty body", path, resp.Status, resp.Body)
			}
		}
		if !slices.ContainsFunc(strings.Split(s.Logs.String(), "\n"), func(l string) bool { return strings.Contains(l, "path=/V1.8.1/Person/") }) {
			t.Error("the access log does not show the path as sent")
		}
	})
}
