//lint:file-ignore SA1019 these tests check how the deprecated card fields (cvvCode, person_recNo) are refused and shown.

package wire

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// devportalPerson is the example answer of the reference's devportal
// (_api/Person.md): a person of contract 1.8.1, flat card array included.
func devportalPerson(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/devportal_person_1.8.1.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodePersonSave181Devportal(t *testing.T) {
	body := devportalPerson(t)
	_, p, err := DecodePersonSave181(jsoncodec.Strict, body)
	if err != nil {
		t.Fatal(err)
	}
	if p.RecNo.Value != 1969999 || p.FirstName.Value != "Ken" || len(p.PersonCommunicationLink) != 3 || len(p.PersonTag) != 1 {
		t.Fatalf("person %s", mustMarshal(t, p))
	}
	wantIDs := []int64{156971, 156972, 156973, 156974}
	if len(p.PersonCardLink) != len(wantIDs) {
		t.Fatalf("links %s", mustMarshal(t, p.PersonCardLink))
	}
	for i, l := range p.PersonCardLink {
		if l.PersonRecNo != wayfarer.Some[int64](1969999) || l.CardRecNo != wayfarer.Some(wantIDs[i]) || l.Card.RecNo != l.CardRecNo ||
			l.Card.PersonRecNo.Present {
			t.Errorf("link %d: %s", i, mustMarshal(t, l))
		}
	}
	if c := p.PersonCardLink[0].Card; c.CardNumber.Value != "VI 41-XXXX-1111" || c.ExpirationDate.Value != (wayfarer.Date{Year: 2025, Month: 12, Day: 31}) ||
		!c.CVVCode.Present || c.CVVCode.Valid || c.Description.Value != "Visa" {
		t.Errorf("card 0 %s", mustMarshal(t, c))
	}

	// The same person as an update, both sides.
	ds := `{"oldNewDataset":{"oldData":` + string(body) + `,"newData":` + string(body) + `}}`
	old, n, err := DecodePersonSave181(jsoncodec.Strict, []byte(ds))
	if err != nil || len(old.PersonCardLink) != 4 || mustMarshal(t, old) != mustMarshal(t, n) {
		t.Fatalf("dataset: %v", err)
	}
	// An absent card array leaves the cards alone; an empty one removes them.
	_, n, _ = DecodePersonSave181(jsoncodec.Strict, []byte(`{"firstName":"A"}`))
	if n.PersonCardLink != nil {
		t.Error("absent card array must be nil links")
	}
	_, n, _ = DecodePersonSave181(jsoncodec.Strict, []byte(`{"firstName":"A","card":[]}`))
	if n.PersonCardLink == nil || len(n.PersonCardLink) != 0 {
		t.Error("an empty card array must be empty links")
	}
}

// flattenCards turns a 1.8.2 person array (generic JSON) into its 1.8.1
// form by the mapping of contract §9.3, written independently of the code.
func flattenCards(t *testing.T, persons []any) []any {
	t.Helper()
	for _, p := range persons {
		m := p.(map[string]any)
		links, ok := m["personCardLink"]
		if !ok {
			continue
		}
		delete(m, "personCardLink")
		if links == nil {
			m["card"] = nil
			continue
		}
		cards := []any{}
		for _, l := range links.([]any) {
			lm := l.(map[string]any)
			c := map[string]any{}
			if cm, ok := lm["card"].(map[string]any); ok {
				c = cm
			}
			if _, ok := c["recNo"]; !ok {
				if id, ok := lm["card_recNo"]; ok {
					c["recNo"] = id
				}
			}
			delete(c, "person_recNo")
			if pr, ok := lm["person_recNo"]; ok {
				c["person_recNo"] = pr
			}
			cards = append(cards, c)
		}
		m["card"] = cards
	}
	return persons
}

func generic(t *testing.T, b []byte) []any {
	t.Helper()
	var v []any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// The 1.8.1 answer is the 1.8.2 answer with personCardLink flattened, and
// nothing else changed: whatever field the 1.8.2 person gains shows in
// 1.8.1 too.
func TestPersonJSON181FollowsPersonJSON(t *testing.T) {
	_, p, err := DecodePersonSave(jsoncodec.Strict, []byte(`{"recNo":7,"firstName":"Ken","middleName":null,"activeStatus":1,
		"personCommunicationLink":[{"person_recNo":7,"communication_recNo":3,"communication":{"recNo":3,"type":2,"value":"k@example.com"}}],
		"personCardLink":[
			{"person_recNo":7,"card_recNo":11,"card":{"recNo":11,"type":1,"cardNumber":"VI 41-XXXX-1111","cardNumberToken":"tok_1","expirationDate":"2025-12-31","cvvCode":null,"nameOnCard":null}},
			{"person_recNo":7,"card_recNo":12,"card":{"recNo":12,"type":2,"cardNumber":"4567888","description":"Advantage"}}],
		"personTag":[{"recNo":5,"person_recNo":7,"tag_recNo":2,"name":"VIP","value":"gold"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, links := range [][]wayfarer.CardLink{p.PersonCardLink, {}, nil} {
		p.PersonCardLink = links
		b182, err := PersonJSON(p)
		if err != nil {
			t.Fatal(err)
		}
		b181, err := PersonJSON181(p)
		if err != nil {
			t.Fatal(err)
		}
		if want, got := flattenCards(t, generic(t, b182)), generic(t, b181); !reflect.DeepEqual(want, got) {
			t.Errorf("1.8.1 answer\n got %s\nwant %s", b181, mustMarshal(t, want))
		}
		if strings.Contains(string(b181), "personCardLink") {
			t.Errorf("personCardLink in a 1.8.1 answer: %s", b181)
		}
		// What a 1.8.1 client loaded comes back as the same person.
		_, back, err := DecodePersonSave181(jsoncodec.Strict, b181)
		if err != nil {
			t.Fatal(err)
		}
		if mustMarshal(t, back) != mustMarshal(t, p) {
			t.Errorf("round trip\n got %s\nwant %s", mustMarshal(t, back), mustMarshal(t, p))
		}
	}
}

func TestDecodePersonSave181Errors(t *testing.T) {
	cases := []struct {
		name, body string
		code       int
		contains   string
	}{
		{"1.8.2 links", `{"activeStatus":1,"personCardLink":[{"card":{"type":2,"cardNumber":"L1"}}]}`, contract.CodeInvalidValue,
			"personCardLink is the card shape of contract 1.8.2, which the base path without /v1.8.1 takes; under /v1.8.1/ send cards in the flat card array"},
		{"1.8.2 links in oldData", `{"oldNewDataset":{"oldData":[{"recNo":1,"personCardLink":[]}],"newData":[{"recNo":1}]}}`, contract.CodeInvalidValue, "personCardLink is the card shape of contract 1.8.2"},
		{"card type", `{"card":[{"type":1},{"type":"x"}]}`, contract.CodeDeserialization, "Path 'card[1].type'"},
		{"in dataset", `{"oldNewDataset":{"oldData":[{"recNo":1}],"newData":[{"recNo":1,"card":[{"person_recNo":"1"}]}]}}`, contract.CodeDeserialization,
			"Path 'oldNewDataset.newData[0].card[0].person_recNo'"},
		{"unknown card field", `[{"card":[{"cardNumbr":"1"}]}]`, contract.CodeDeserialization, "[0].card[0].cardNumbr: unknown field; did you mean cardNumber?"},
		{"a link member in a flat card", `{"card":[{"card_recNo":1}]}`, contract.CodeDeserialization, "card[0].card_recNo: unknown field"},
		{"not an array", `{"card":{"type":1}}`, contract.CodeDeserialization, "Path 'card'"},
		{"two persons", `[{},{}]`, contract.CodeInvalidValue, "exactly one person, got 2"},
		{"dataset beside a person", `{"card":[],"oldNewDataset":{"newData":[{}]}}`, contract.CodeInvalidValue, "a body with oldNewDataset holds nothing else"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := DecodePersonSave181(jsoncodec.Strict, []byte(c.body))
			wantCode(t, err, c.code, c.contains)
		})
	}
	// And the other way round: the flat array sent to the 1.8.2 paths.
	_, _, err := DecodePersonSave(jsoncodec.Strict, []byte(`{"activeStatus":1,"card":[{"type":2,"cardNumber":"L1"}]}`))
	wantCode(t, err, contract.CodeInvalidValue, "card is the flat card array of contract 1.8.1: send cards in personCardLink, or send this body under the base path /v1.8.1/")
}

// The core words card rules in 1.8.2 paths; a 1.8.1 client reads its own.
func TestReword181(t *testing.T) {
	for in, want := range map[string]string{
		"personCardLink[2].card.cardNumber is not a valid credit/debit card number":                     "card[2].cardNumber is not a valid credit/debit card number",
		"card type is insert-only: remove the card and add a new one (personCardLink[1].card.type)":     "card type is insert-only: remove the card and add a new one (card[1].type)",
		"oldData personCardLink[0].card_recNo is null: oldData must hold the rows as loaded":            "oldData card[0].recNo is null: oldData must hold the rows as loaded",
		"personCardLink[3].person_recNo (9) is not this person (7)":                                     "card[3].person_recNo (9) is not this person (7)",
		"personCardLink[0].card.person_recNo (9) is not this person; the link carries the relationship": "card[0].person_recNo (9) is not this person; the link carries the relationship",
		"personCardLink[4].card is required for a new card":                                             "card[4] is required for a new card",
		"personCardLink[4]: a new person cannot reference an existing card":                             "card[4]: a new person cannot reference an existing card",
		"cvvCode must not be sent: it is never stored (oldData personCardLink)":                         "cvvCode must not be sent: it is never stored (oldData card)",
		"card numbers must not be written into text fields (field personCardLink[1].card.description)":  "card numbers must not be written into text fields (field card[1].description)",
		"remarks is longer than 256": "remarks is longer than 256",
	} {
		orig := wayfarer.Errorf(wayfarer.KindInvalid, contract.CodeCardRule, wayfarer.MethodPerson, "%s", in)
		e := wayfarer.AsError(Reword181(orig))
		if e == nil || e.Message != want || e.Code != contract.CodeCardRule || e.Kind != wayfarer.KindInvalid || e.Method != wayfarer.MethodPerson {
			t.Errorf("%q: %v, want %q", in, e, want)
		}
		if orig.Message != in {
			t.Errorf("the original error changed: %q", orig.Message)
		}
	}
	if Reword181(nil) != nil {
		t.Error("nil must stay nil")
	}
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := jsoncodec.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
