package http_test

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Contract 1.8.1 below /v1.8.1/ (docs/compatibility.md): the person with
// the flat card array, every other route as it is.

const base181 = "/v1.8.1"

// devportalExample is the devportal's example answer of GET /person
// (_api/Person.md), a person of contract 1.8.1.
func devportalExample(t *testing.T) []any {
	t.Helper()
	b, err := os.ReadFile("../wire/testdata/devportal_person_1.8.1.json")
	if err != nil {
		t.Fatal(err)
	}
	return jsonArray(t, b)
}

func jsonArray(t *testing.T, b []byte) []any {
	t.Helper()
	var v []any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("not a JSON array: %v: %s", err, b)
	}
	return v
}

func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// deepCopyJSON copies generic JSON.
func deepCopyJSON(t *testing.T, v any) any {
	t.Helper()
	var c any
	if err := json.Unmarshal([]byte(jsonText(t, v)), &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// devportalCreateBody is the example as a new person of the demo agency:
// every identifier null (the server assigns them), the full test number
// behind the masked Visa numbers, and the tag and marketing rows pointed
// at the demo agency's own records. Nothing else changes.
func devportalCreateBody(t *testing.T, r personRefs) map[string]any {
	t.Helper()
	p := devportalExample(t)[0].(map[string]any)
	p["recNo"] = nil
	nullIDs := func(m map[string]any, keys ...string) {
		for _, k := range keys {
			if _, ok := m[k]; ok {
				m[k] = nil
			}
		}
	}
	for _, l := range p["personCommunicationLink"].([]any) {
		lm := l.(map[string]any)
		nullIDs(lm, "person_recNo", "communication_recNo")
		nullIDs(lm["communication"].(map[string]any), "recNo")
	}
	for _, c := range p["card"].([]any) {
		cm := c.(map[string]any)
		nullIDs(cm, "recNo", "person_recNo")
		if cm["cardNumber"] == "VI 41-XXXX-1111" {
			cm["cardNumber"] = "4111111111111111"
		}
	}
	for _, m := range p["personMarketing"].([]any) {
		mm := m.(map[string]any)
		nullIDs(mm, "person_recNo")
		mm["affiliation_recNo"] = r.affiliation
	}
	p["personMarketing"].([]any)[0].(map[string]any)["marketingElement_recNo"] = r.noemm
	p["personMarketing"] = p["personMarketing"].([]any)[:1]
	for _, tg := range p["personTag"].([]any) {
		tm := tg.(map[string]any)
		nullIDs(tm, "recNo", "person_recNo")
		tm["tag_recNo"] = r.vip
		delete(tm, "name") // read-only, and the demo's tag has its own
	}
	for _, l := range p["personActionItemLink"].([]any) {
		lm := l.(map[string]any)
		nullIDs(lm, "person_recNo", "actionItem_recNo")
		nullIDs(lm["personActionItem"].(map[string]any), "recNo")
	}
	return p
}

// flatten182 is the 1.8.1 form of a 1.8.2 person answer, by contract §9.3
// and written independently of the server: personCardLink[i] becomes
// card[i], the nested card with the link's person_recNo.
func flatten182(t *testing.T, persons []any) []any {
	t.Helper()
	out := deepCopyJSON(t, persons).([]any)
	for _, p := range out {
		m := p.(map[string]any)
		links, ok := m["personCardLink"].([]any)
		if !ok {
			continue
		}
		delete(m, "personCardLink")
		cards := []any{}
		for _, l := range links {
			lm := l.(map[string]any)
			c := lm["card"].(map[string]any)
			if c["recNo"] != lm["card_recNo"] {
				t.Fatalf("link and card disagree: %s", jsonText(t, lm))
			}
			c["person_recNo"] = lm["person_recNo"]
			cards = append(cards, c)
		}
		m["card"] = cards
	}
	return out
}

// notServedYet reports whether the reference's member key has no served
// field on the record type t: Wayfarer has no such field, or declares it
// only to refuse it (wf:"unsupported", wf:"in"). Derived from the types,
// so a field served later is required from then on.
func notServedYet(t reflect.Type, key string) bool {
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous {
			if notServedYet(sf.Type, key) {
				continue
			}
			return false
		}
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name != key {
			continue
		}
		wf := "," + sf.Tag.Get("wf") + ","
		return strings.Contains(wf, ",unsupported,") || strings.Contains(wf, ",in,")
	}
	return true
}

// recordType is the Go record type a member of t holds (the element type
// for arrays); the flat card of 1.8.1 is the 1.8.2 card.
func recordType(t reflect.Type, key string) reflect.Type {
	if t == reflect.TypeFor[wayfarer.Person]() && key == "card" {
		return reflect.TypeFor[wayfarer.Card]()
	}
	for i := range t.NumField() {
		sf := t.Field(i)
		if name, _, _ := strings.Cut(sf.Tag.Get("json"), ","); name == key {
			ft := sf.Type
			for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
				ft = ft.Elem()
			}
			return ft
		}
	}
	return nil
}

// deliberateExtras are the members Wayfarer shows that the devportal's
// example does not (docs/compatibility.md).
var deliberateExtras = map[string]bool{"lastModifiedDateTime": true}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	}
	return "object"
}

// sameShape compares an answer with the example: the same keys (but for
// members not served yet and the deliberate extras) and, where both hold
// a value, the same JSON type; array elements against the example's first.
func sameShape(t *testing.T, path string, typ reflect.Type, example, got any) {
	t.Helper()
	if example == nil || got == nil {
		return
	}
	if ek, gk := jsonKind(example), jsonKind(got); ek != gk {
		t.Errorf("%s: %s in the answer, %s in the example", path, gk, ek)
		return
	}
	switch e := example.(type) {
	case []any:
		if len(e) == 0 {
			return
		}
		for i, g := range got.([]any) {
			sameShape(t, fmt.Sprintf("%s[%d]", path, i), typ, e[0], g)
		}
	case map[string]any:
		g := got.(map[string]any)
		for k, ev := range e {
			k = strings.TrimSpace(k)
			gv, ok := g[k]
			if !ok {
				if typ != nil && notServedYet(typ, k) {
					t.Logf("%s.%s: in the example, not served yet", path, k)
				} else {
					t.Errorf("%s.%s: in the example, missing from the answer", path, k)
				}
				continue
			}
			var sub reflect.Type
			if typ != nil {
				sub = recordType(typ, k)
			}
			sameShape(t, path+"."+k, sub, ev, gv)
		}
		for k := range g {
			if _, ok := e[k]; !ok && !deliberateExtras[k] {
				t.Errorf("%s.%s: in the answer, not in the example", path, k)
			}
		}
	}
}

func cardsOf(t *testing.T, persons []any) []any {
	t.Helper()
	cards, ok := persons[0].(map[string]any)["card"].([]any)
	if !ok {
		t.Fatalf("no card array in %s", jsonText(t, persons))
	}
	return cards
}

func (c personClient) load181(recNo int64) []any {
	c.t.Helper()
	r := c.do("GET", fmt.Sprintf("%s/person/%d", base181, recNo), nil)
	onePerson181(c.t, r)
	return jsonArray(c.t, r.Body)
}

func (c personClient) load182(recNo int64) []any {
	c.t.Helper()
	r := c.do("GET", fmt.Sprintf("/person/%d", recNo), nil)
	onePerson(c.t, r)
	return jsonArray(c.t, r.Body)
}

// onePerson181 checks a 1.8.1 person answer: an array of one person with
// a card array and no personCardLink.
func onePerson181(t *testing.T, r *testserver.Response) map[string]any {
	t.Helper()
	if r.Status != 200 || r.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Fatalf("status %d %q: %s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
	ps := jsonArray(t, r.Body)
	if len(ps) != 1 {
		t.Fatalf("want one person: %s", r.Body)
	}
	p := ps[0].(map[string]any)
	if _, ok := p["personCardLink"]; ok {
		t.Fatalf("personCardLink in a 1.8.1 answer: %s", r.Body)
	}
	return p
}

// sameBothWays checks that a person loads identically through both
// contracts: the 1.8.1 answer is the 1.8.2 answer with its links flattened.
func (c personClient) sameBothWays(recNo int64) []any {
	c.t.Helper()
	p181, p182 := c.load181(recNo), c.load182(recNo)
	if want := flatten182(c.t, p182); !reflect.DeepEqual(p181, want) {
		c.t.Fatalf("the contracts disagree:\n1.8.1 %s\n1.8.2 flattened %s", jsonText(c.t, p181), jsonText(c.t, want))
	}
	return p181
}

func dataset181(old, new any) map[string]any {
	return map[string]any{"oldNewDataset": map[string]any{"oldData": []any{old}, "newData": []any{new}}}
}
