package http_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// The devportal's Tag and Affiliation tables, for wantShape.
func init() {
	refTables["tag"] = refTable{
		"recNo": "long", "name": "string", "activeStatus": "bool", "valueFreeFlow": "bool", "valueRequired": "bool",
		"valueList": "string", "description": "string", "areaFlags": "int", "requirement": "short", "defaultValue": "string",
	}
	refTables["affiliation"] = refTable{"recNo": "long", "name": "string", "affiliationMarketingCategory": "table:affiliationMarketingCategory"}
	refTables["affiliationMarketingCategory"] = refTable{"affiliation_recNo": "long", "recNo": "long", "name": "string", "id": "string",
		"affiliationMarketingElement": "table:affiliationMarketingElement"}
	refTables["affiliationMarketingElement"] = refTable{"recNo": "long", "affiliationMarketingCategory_recNo": "long", "name": "string",
		"id": "string", "sortNo": "short"}
}

// oneRecord reads a 200 answer holding an array of one object.
func oneRecord(t *testing.T, r *testserver.Response) map[string]any {
	t.Helper()
	if r.Status != 200 {
		t.Fatalf("status %d: %s", r.Status, r.Body)
	}
	var arr []map[string]any
	if err := json.Unmarshal(r.Body, &arr); err != nil || len(arr) != 1 {
		t.Fatalf("want an array of one object: %v: %s", err, r.Body)
	}
	return arr[0]
}

// wantKeys checks the JSON type of each key of m ("number", "string",
// "bool", "array", "object").
func wantKeys(t *testing.T, m map[string]any, types map[string]string) {
	t.Helper()
	for k, want := range types {
		var got string
		switch m[k].(type) {
		case float64:
			got = "number"
		case string:
			got = "string"
		case bool:
			got = "bool"
		case []any:
			got = "array"
		case map[string]any:
			got = "object"
		case nil:
			got = "absent or null"
		}
		if got != want {
			t.Fatalf("%s is %s, want %s: %v", k, got, want, m)
		}
	}
}

const newTagBody = `{"name":"Seat preference","activeStatus":true,"valueFreeFlow":false,"valueRequired":true,
	"valueList":"Aisle\nWindow","description":"Where the traveler sits","areaFlags":3,"requirement":2,"defaultValue":"Aisle"}`

func TestTagRoutes(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")

		// Create, then load: the devportal's Tag shape.
		m := wantResult(t, admin.do("POST", "/tag", newTagBody), 200, 0, "")
		recNo := int64(m["recNo"].(float64))
		if m["resultDescription"] != "Tag created" {
			t.Fatalf("%v", m)
		}
		loaded := admin.do("GET", fmt.Sprintf("/tag/%d", recNo), nil)
		wantShape(t, "GET /tag", loaded.Body, "tag", true)
		tag := oneRecord(t, loaded)
		wantKeys(t, tag, map[string]string{"recNo": "number", "name": "string", "activeStatus": "bool", "valueFreeFlow": "bool",
			"valueRequired": "bool", "valueList": "string", "description": "string", "areaFlags": "number",
			"requirement": "number", "defaultValue": "string"})
		if tag["name"] != "Seat preference" || tag["requirement"] != 2.0 || tag["valueList"] != "Aisle\nWindow" {
			t.Fatalf("%v", tag)
		}

		// A demo tag made before the tag had settings shows the defaults.
		vip := oneRecord(t, admin.do("GET", fmt.Sprintf("/tag/%d", r.vip), nil))
		if vip["name"] != "VIP" || vip["activeStatus"] != true || vip["requirement"] != 1.0 {
			t.Fatalf("%v", vip)
		}

		t.Run("update with old and new datasets", func(t *testing.T) {
			old, _ := json.Marshal(tag)
			n := map[string]any{}
			_ = json.Unmarshal(old, &n)
			n["description"] = "Aisle or window"
			n["activeStatus"] = false
			nb, _ := json.Marshal(n)
			body := `{"oldNewDataset":{"oldData":[` + string(old) + `],"newData":[` + string(nb) + `]}}`
			got := oneRecord(t, admin.do("POST", "/tag/refresh", body))
			if got["description"] != "Aisle or window" || got["activeStatus"] != false || got["name"] != "Seat preference" {
				t.Fatalf("%v", got)
			}
			// The same old side again is stale now: 409, nothing written.
			n["description"] = "Something else"
			nb, _ = json.Marshal(n)
			body = `{"oldNewDataset":{"oldData":[` + string(old) + `],"newData":[` + string(nb) + `]}}`
			wantResult(t, admin.do("POST", "/tag", body), 409, contract.CodeConcurrencyConflict, "tag")
			if got := oneRecord(t, admin.do("GET", fmt.Sprintf("/tag/%d", recNo), nil)); got["description"] != "Aisle or window" {
				t.Fatalf("written: %v", got)
			}
		})

		t.Run("204 for missing, other agency, not a number", func(t *testing.T) {
			for _, p := range []string{"/tag/999999", "/tag/0", "/tag/abc", fmt.Sprintf("/tag/%d", recNo+1000)} {
				wantNoContent(t, admin.do("GET", p, nil))
			}
			other := personClient{t, s, testserver.Bearer(s.Login(t, "OTHER", "admin", "demo-admin"))}
			wantNoContent(t, other.do("GET", fmt.Sprintf("/tag/%d", recNo), nil))
			// An update of another agency's tag finds nothing, and writes nothing.
			body := fmt.Sprintf(`{"oldNewDataset":{"oldData":[{"recNo":%d}],"newData":[{"recNo":%d,"name":"Taken"}]}}`, recNo, recNo)
			wantResult(t, other.do("POST", "/tag", body), 404, contract.CodeRecordNotFound, "tag")
			if got := oneRecord(t, admin.do("GET", fmt.Sprintf("/tag/%d", recNo), nil)); got["name"] != "Seat preference" {
				t.Fatalf("written: %v", got)
			}
		})

		t.Run("permissions", func(t *testing.T) {
			agent := clientFor(t, s, "agent") // Tag select,read (OnlySelf, OnlyBranch): tags are agency-wide
			oneRecord(t, agent.do("GET", fmt.Sprintf("/tag/%d", recNo), nil))
			wantResult(t, agent.do("POST", "/tag", `{"name":"X","requirement":1}`), 403, contract.CodePermissionDenied, "tag")
			body := fmt.Sprintf(`{"oldNewDataset":{"oldData":[{"recNo":%d}],"newData":[{"recNo":%d,"name":"Y"}]}}`, recNo, recNo)
			wantResult(t, agent.do("POST", "/tag/refresh", body), 403, contract.CodePermissionDenied, "tag")
			viewer := clientFor(t, s, "viewer")
			wantResult(t, viewer.do("GET", fmt.Sprintf("/tag/%d", recNo), nil), 403, contract.CodePermissionDenied, "tag")
		})

		t.Run("bad input", func(t *testing.T) {
			for _, c := range []struct {
				body         string
				status, code int
				contains     string
			}{
				{`{"requirement":1}`, 400, contract.CodeInvalidValue, "name is required"},
				{`{"name":"  ","requirement":1}`, 400, contract.CodeInvalidValue, "name is required"},
				{`{"name":"A"}`, 400, contract.CodeInvalidValue, "requirement is required"},
				{`{"name":"A","requirement":4}`, 400, contract.CodeInvalidValue, "requirement must be one of"},
				{`{"name":"A","requirement":1,"areaFlags":5000}`, 400, contract.CodeInvalidValue, "areaFlags"},
				{`{"name":"A","requirement":1,"activeStatus":null}`, 400, contract.CodeInvalidValue, "activeStatus"},
				{`{"name":"` + strings.Repeat("n", 65) + `","requirement":1}`, 400, contract.CodeInvalidValue, "name is longer than 64"},
				{`{"name":"A","requirement":1,"description":"` + strings.Repeat("d", 65) + `"}`, 400, contract.CodeInvalidValue, "description is longer than 64"},
				{`{"name":"A","requirement":1,"defaultValue":"` + strings.Repeat("d", 129) + `"}`, 400, contract.CodeInvalidValue, "defaultValue is longer than 128"},
				{`{"name":"A","requirement":1,"description":"card 4111 1111 1111 1111"}`, 400, contract.CodeCardRule, "description"},
				{`{"name":"VIP","requirement":1}`, 400, contract.CodeInvalidValue, `name "VIP" is already the name of tag`},
				{`{"name":"A","requirement":"high"}`, 400, contract.CodeDeserialization, "requirement"},
				{`{"name":"A","requirment":1}`, 400, contract.CodeDeserialization, "requirment"},
				{`{"recNo":5,"name":"A","requirement":1}`, 400, contract.CodeIdentifierMismatch, "recNo must be null"},
				{`[]`, 400, contract.CodeInvalidValue, "exactly one tag"},
				{`{"name":"A","requirement":1,"oldNewDataset":{"oldData":[],"newData":[{}]}}`, 400, contract.CodeInvalidValue, "holds nothing else"},
				{`{not json`, 400, contract.CodeDeserialization, "Error deserializing"},
			} {
				m := wantResult(t, admin.do("POST", "/tag", c.body), c.status, c.code, "tag")
				if !strings.Contains(m["resultDescription"].(string), c.contains) {
					t.Fatalf("%s: description %q", c.body, m["resultDescription"])
				}
			}
			// Renaming onto another tag's name is refused too.
			body := fmt.Sprintf(`{"oldNewDataset":{"oldData":[{"recNo":%d}],"newData":[{"recNo":%d,"name":"Dietary"}]}}`, recNo, recNo)
			wantResult(t, admin.do("POST", "/tag", body), 400, contract.CodeInvalidValue, "tag")
		})
	})
}

func TestAffiliationRoute(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		ctx := t.Context()
		db := s.App.DB
		virtuoso, err := db.CreateAffiliation(ctx, r.agency, "Virtuoso")
		if err != nil {
			t.Fatal(err)
		}
		sortNo := 1
		for _, e := range []struct{ cat, code, name string }{
			{"Total Trip Budget", "12521", "Up to $3,000"}, {"Total Trip Budget", "12522", "$3,000 - $8,000"},
			{"Interests", "12575", "Golf"},
		} {
			if _, _, err := db.CreateMarketingElement(ctx, r.agency, sqlstoreElement(virtuoso, e.cat, e.code, e.name, &sortNo)); err != nil {
				t.Fatal(err)
			}
			sortNo++
		}
		admin := clientFor(t, s, "admin")
		loaded := admin.do("GET", fmt.Sprintf("/affiliation/%d", virtuoso), nil)
		wantShape(t, "GET /affiliation", loaded.Body, "affiliation", false)
		a := oneRecord(t, loaded)
		wantKeys(t, a, map[string]string{"recNo": "number", "name": "string", "affiliationMarketingCategory": "array"})
		cats := a["affiliationMarketingCategory"].([]any)
		if len(cats) != 2 {
			t.Fatalf("%s", mustJSONBytes(a))
		}
		cat := cats[0].(map[string]any)
		wantKeys(t, cat, map[string]string{"affiliation_recNo": "number", "recNo": "number", "name": "string",
			"affiliationMarketingElement": "array"})
		if cat["name"] != "Total Trip Budget" || cat["affiliation_recNo"] != float64(virtuoso) {
			t.Fatalf("%v", cat)
		}
		els := cat["affiliationMarketingElement"].([]any)
		el := els[0].(map[string]any)
		wantKeys(t, el, map[string]string{"recNo": "number", "affiliationMarketingCategory_recNo": "number", "name": "string", "id": "string"})
		if len(els) != 2 || el["id"] != "12521" || el["affiliationMarketingCategory_recNo"] != cat["recNo"] {
			t.Fatalf("%v", els)
		}

		// An affiliation without categories answers an empty array of them.
		empty := oneRecord(t, admin.do("GET", fmt.Sprintf("/affiliation/%d", r.affiliation), nil))
		if c, ok := empty["affiliationMarketingCategory"].([]any); !ok || len(c) != 0 {
			t.Fatalf("%v", empty)
		}

		for _, p := range []string{"/affiliation/999999", "/affiliation/x", "/affiliation/-1"} {
			wantNoContent(t, admin.do("GET", p, nil))
		}
		other := personClient{t, s, testserver.Bearer(s.Login(t, "OTHER", "admin", "demo-admin"))}
		wantNoContent(t, other.do("GET", fmt.Sprintf("/affiliation/%d", virtuoso), nil))
		oneRecord(t, clientFor(t, s, "agent").do("GET", fmt.Sprintf("/affiliation/%d", virtuoso), nil))
		wantResult(t, clientFor(t, s, "viewer").do("GET", fmt.Sprintf("/affiliation/%d", virtuoso), nil), 403,
			contract.CodePermissionDenied, "affiliation")
	})
}

func mustJSONBytes(v any) string { b, _ := json.Marshal(v); return string(b) }

func sqlstoreElement(affiliation int64, cat, code, name string, sortNo *int) sqlstore.NewMarketingElement {
	return sqlstore.NewMarketingElement{AffiliationID: affiliation, Category: cat, Code: code, Name: name, SortNo: sortNo}
}

// TestPersonSaveRefersToLookups: a personTag or personMarketing pointing to a
// definition that is missing or another agency's is a 400 naming the
// entry, and nothing of the save is written (create and update).
func TestPersonSaveRefersToLookups(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		ctx := t.Context()
		other, err := s.App.DB.AgencyByAlias(ctx, "OTHER")
		if err != nil {
			t.Fatal(err)
		}
		otherTag, err := s.App.DB.EnsureTag(ctx, other.ID, "Other agency tag")
		if err != nil {
			t.Fatal(err)
		}
		otherElement, err := s.App.DB.EnsureMarketingElement(ctx, other.ID, "OTHR", "Other agency element")
		if err != nil {
			t.Fatal(err)
		}
		admin := clientFor(t, s, "admin")
		before, err := s.App.DB.CountPersons(ctx, r.agency)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ body, contains string }{
			{fmt.Sprintf(`{"activeStatus":1,"lastName":"Ref","personTag":[{"tag_recNo":%d,"value":"x"}]}`, otherTag),
				fmt.Sprintf("personTag[0].tag_recNo %d does not exist", otherTag)},
			{fmt.Sprintf(`{"activeStatus":1,"lastName":"Ref","personTag":[{"tag_recNo":%d},{"tag_recNo":999999}]}`, r.vip),
				"personTag[1].tag_recNo 999999 does not exist"},
			{`{"activeStatus":1,"lastName":"Ref","personMarketing":[{"marketingElement_recNo":999999}]}`,
				"personMarketing[0].marketingElement_recNo 999999 does not exist"},
			{fmt.Sprintf(`{"activeStatus":1,"lastName":"Ref","personMarketing":[{"marketingElement_recNo":%d}]}`, otherElement),
				fmt.Sprintf("personMarketing[0].marketingElement_recNo %d does not exist", otherElement)},
		} {
			m := wantResult(t, admin.do("POST", "/person", c.body), 400, contract.CodeInvalidValue, "person")
			if !strings.Contains(m["resultDescription"].(string), c.contains) {
				t.Fatalf("%s: %q", c.body, m["resultDescription"])
			}
		}
		if after, _ := s.App.DB.CountPersons(ctx, r.agency); after != before {
			t.Fatalf("persons %d, want %d: a refused save wrote", after, before)
		}
		// An update adding another agency's element is refused the same way.
		recNo := admin.create(kenJSON(r))
		old := admin.load(recNo)
		n := clone(t, old)
		n.LastName = wayfarer.Some("Changed")
		n.PersonMarketing = append(n.PersonMarketing, wayfarer.PersonMarketing{MarketingElementRecNo: wayfarer.Some(otherElement)})
		m := wantResult(t, admin.update(old, n), 400, contract.CodeInvalidValue, "person")
		if !strings.Contains(m["resultDescription"].(string), "personMarketing[1].marketingElement_recNo") {
			t.Fatalf("%v", m)
		}
		if got := admin.load(recNo); got.LastName.Value != "Abler" {
			t.Fatal("written")
		}
	})
}
