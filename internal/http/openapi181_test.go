package http_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// The 1.8.1 half of docs/openapi.json is derived from the 1.8.2 half:
// every path again below /v1.8.1/ with the same operation (its
// operationId suffixed V181, tagged "contract 1.8.1", the person schemas
// swapped for their 1.8.1 forms), and the 1.8.1 person as the 1.8.2 one
// with the flat card array. A change to a 1.8.2 operation fails here until
// its 1.8.1 copy follows; the message shows the copy to paste.

var schemas181 = map[string]string{
	"Person": "Person181", "PersonArray": "PersonArray181", "PersonSaveBody": "PersonSaveBody181", "OldNewDataset": "OldNewDataset181",
}

// as181 is v with the person schema references of contract 1.8.1.
func as181(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if ref, ok := e.(string); ok && k == "$ref" {
				name := strings.TrimPrefix(ref, "#/components/schemas/")
				if to, ok := schemas181[name]; ok && name != ref {
					e = "#/components/schemas/" + to
				}
			}
			out[k] = as181(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = as181(e)
		}
		return out
	}
	return v
}

func TestOpenAPIContract181(t *testing.T) {
	doc := loadOpenAPI(t)
	paths := doc.get(t, "paths")
	for path, item := range paths {
		if strings.HasPrefix(path, base181+"/") {
			if _, ok := paths[strings.TrimPrefix(path, base181)]; !ok {
				t.Errorf("%s: no 1.8.2 path %s", path, strings.TrimPrefix(path, base181))
			}
			continue
		}
		want := as181(item).(map[string]any)
		for verb, op := range want {
			if m, ok := op.(map[string]any); ok && m["operationId"] != nil {
				m["operationId"] = m["operationId"].(string) + "V181"
				m["tags"] = []any{"contract 1.8.1"}
				want[verb] = m
			}
		}
		if got := paths[base181+path]; !reflect.DeepEqual(got, any(want)) {
			b, _ := json.MarshalIndent(want, "    ", "  ")
			t.Errorf("%s%s is not %s below the base path; it should be:\n    %q: %s", base181, path, path, base181+path, b)
		}
	}

	// The 1.8.1 forms of the save body, the dataset and the answer: the
	// 1.8.2 ones over Person181 (descriptions aside).
	for from, to := range schemas181 {
		if from == "Person" {
			continue
		}
		want := as181(doc.get(t, "components", "schemas", from)).(map[string]any)
		got := map[string]any{}
		for k, v := range doc.get(t, "components", "schemas", to) {
			got[k] = v
		}
		delete(want, "description")
		delete(got, "description")
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s is not %s over Person181", to, from)
		}
	}

	// Person181 is the Person with the flat card array instead of personCardLink.
	p := doc.get(t, "components", "schemas", "Person181")
	if b, _ := json.Marshal(p["allOf"]); string(b) != `[{"$ref":"#/components/schemas/Person"}]` {
		t.Errorf("Person181 allOf %s", b)
	}
	props := oaObj(t, p["properties"], "Person181.properties")
	if props["personCardLink"] != false || len(props) != 2 {
		t.Errorf("Person181: personCardLink %v, properties %v", props["personCardLink"], props)
	}
	card := oaObj(t, props["card"], "Person181.card")
	wantType(t, "Person181.card", card, "array", "")
	if ref := oaObj(t, card["items"], "Person181.card.items")["$ref"]; ref != "#/components/schemas/Card181" {
		t.Errorf("Person181.card items %v", ref)
	}
	c := doc.get(t, "components", "schemas", "Card181")
	if b, _ := json.Marshal(c["allOf"]); string(b) != `[{"$ref":"#/components/schemas/Card"}]` {
		t.Errorf("Card181 allOf %s", b)
	}
	cprops := oaObj(t, c["properties"], "Card181.properties")
	if len(cprops) != 1 || cprops["person_recNo"] == nil {
		t.Errorf("Card181 properties %v", cprops)
	}
	wantType(t, "Card181.person_recNo", oaObj(t, cprops["person_recNo"], "Card181.person_recNo"), "integer", "int64")

	if ex, _ := json.Marshal(doc.get(t, "components", "schemas", "VersionResult", "properties", "version")["examples"]); !strings.Contains(string(ex), `"1.8.1.6"`) {
		t.Errorf("VersionResult: no 1.8.1 version in %s", ex)
	}
}
