package http_test

import (
	"encoding/csv"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Card numbers hidden in text (issue 11): every way of writing one is
// refused from every free-text field of every record, over HTTP, on both
// engines, and nothing is stored.

// disguisedCards are card numbers written to slip past a simple check.
var disguisedCards = []string{
	"4111_1111_1111_1111",
	"5555,5555,5555,4444",
	"(3782)(822463)(10005)",
	"4012·8888·8888·1881",
	"6011•1111•1111•1117",
	"3530'1113'3330'0000",
	"4111/1111/1111/1111",
	"5555.5555.5555.4444",
	"4111\t1111\n1111\n1111",
	"\uff14\uff11\uff11\uff11 \uff11\uff11\uff11\uff11 \uff11\uff11\uff11\uff11 \uff11\uff11\uff11\uff11",                 // full-width
	"\u2074\u00b9\u00b9\u00b9 \u00b9\u00b9\u00b9\u00b9 \u00b9\u00b9\u00b9\u00b9 \u00b9\u00b9\u00b9\u00b9",                 // superscript
	"\u2463\u2460\u2460\u2460 \u2460\u2460\u2460\u2460 \u2460\u2460\u2460\u2460 \u2460\u2460\u2460\u2460",                 // circled
	"\u0665\u0665\u0665\u0665 \u0665\u0665\u0665\u0665 \u0665\u0665\u0665\u0665 \u0664\u0664\u0664\u0664",                 // Arabic-Indic
	"4\u03321\u03321\u03321\u0332 1\u03321\u03321\u03321\u0332 1\u03321\u03321\u03321\u0332 1\u03321\u03321\u03321\u0332", // combining low line
	"2200 0000 0000 0004",     // Mir
	"1354 1001 4004 955",      // UATP
	"6799 9901 0000 0000 019", // Maestro 67
	"5067 0000 0000 0009",     // Elo
	"6062 8200 0000 0003",     // Hipercard
	"9792 0000 0000 0003",     // Troy
	"6521 1111 1111 1110",     // RuPay
}

// textFields lists the wire names of the free-text fields of a record type:
// its Opt[string] fields that are not read-only lookups, card numbers or
// input-only (the struct tags the core's rules read).
func textFields(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		wf := f.Tag.Get("wf")
		if f.Type.Name() != "Opt[string]" || name == "" || strings.Contains(wf, "ro") ||
			strings.Contains(wf, "number") || strings.Contains(wf, "in") || strings.Contains(wf, "unsupported") {
			continue
		}
		out = append(out, name)
	}
	return out
}

// textFieldSetters returns, for a loaded person (as a JSON map), every
// free-text field of every record with its wire path and a setter.
func textFieldSetters(p map[string]any) map[string]func(map[string]any, string) {
	out := map[string]func(map[string]any, string){}
	record := func(path string, get func(map[string]any) map[string]any, typ reflect.Type) {
		for _, name := range textFields(typ) {
			full := name
			if path != "" {
				full = path + "." + name
			}
			out[full] = func(m map[string]any, v string) { get(m)[name] = v }
		}
	}
	record("", func(m map[string]any) map[string]any { return m }, reflect.TypeFor[wayfarer.Person]())
	children := []struct {
		array, inner string
		typ          reflect.Type
	}{
		{"personCommunicationLink", "communication", reflect.TypeFor[wayfarer.Communication]()},
		{"personCardLink", "card", reflect.TypeFor[wayfarer.Card]()},
		{"personTag", "", reflect.TypeFor[wayfarer.PersonTag]()},
		{"personActionItemLink", "personActionItem", reflect.TypeFor[wayfarer.PersonActionItem]()},
	}
	for _, c := range children {
		rows, _ := p[c.array].([]any)
		for i := range rows {
			path := fmt.Sprintf("%s[%d]", c.array, i)
			if c.inner != "" {
				path += "." + c.inner
			}
			array, inner, i := c.array, c.inner, i
			record(path, func(m map[string]any) map[string]any {
				row := m[array].([]any)[i].(map[string]any)
				if inner != "" {
					row = row[inner].(map[string]any)
				}
				return row
			}, c.typ)
		}
	}
	return out
}

func TestCardNumberHiddenInAnyTextFieldIsRefused(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		recNo := admin.create(kenJSON(r))
		old := onlyPerson(t, admin.do("GET", fmt.Sprintf("/person/%d", recNo), nil))
		setters := textFieldSetters(old)
		for _, must := range []string{"remarks", "emergencyContactPhone", "personCommunicationLink[0].communication.value",
			"personCardLink[1].card.description", "personCardLink[0].card.nameOnCard", "personTag[0].value",
			"personActionItemLink[0].personActionItem.description", "personActionItemLink[0].personActionItem.notes"} {
			if setters[must] == nil {
				t.Fatalf("no text field %s among %d", must, len(setters))
			}
		}
		if len(setters) < 45 {
			t.Fatalf("only %d text fields", len(setters))
		}
		n := 0
		for path, set := range setters {
			value := disguisedCards[n%len(disguisedCards)]
			n++
			edited := clonePerson(t, old)
			set(edited, value)
			for _, endpoint := range []string{"/person", "/person/refresh"} {
				resp := admin.do("POST", endpoint, oldNew(old, edited))
				m := wantResult(t, resp, 400, 410, "person")
				if want := "card numbers must not be written into text fields (field " + path + ")"; m["resultDescription"] != want {
					t.Fatalf("%s %s: %q, want %q", endpoint, path, m["resultDescription"], want)
				}
				if strings.Contains(string(resp.Body), value) {
					t.Fatalf("%s: the number is echoed", path)
				}
			}
		}
		if got := onlyPerson(t, admin.do("GET", fmt.Sprintf("/person/%d", recNo), nil)); mustJSON(t, got) != mustJSON(t, old) {
			t.Fatalf("a refused save wrote something:\n%s\n%s", mustJSON(t, got), mustJSON(t, old))
		}

		// On create, a tag value or an action item note holding one: nothing is stored.
		for _, c := range []struct{ path, body string }{
			{"personTag[0].value", fmt.Sprintf(`{"lastName":"Hidden","activeStatus":1,"personTag":[{"tag_recNo":%d,"value":%q}]}`, r.vip, disguisedCards[1])},
			{"personActionItemLink[0].personActionItem.notes", fmt.Sprintf(`{"lastName":"Hidden","activeStatus":1,
				"personActionItemLink":[{"personActionItem":{"description":"call","triggerIndex":2,"notes":%q}}]}`, disguisedCards[10])},
		} {
			for _, endpoint := range []string{"/person", "/person/refresh"} {
				m := wantResult(t, admin.do("POST", endpoint, c.body), 400, 410, "person")
				if want := "card numbers must not be written into text fields (field " + c.path + ")"; m["resultDescription"] != want {
					t.Fatalf("create %s: %q", c.path, m["resultDescription"])
				}
			}
		}
		resp := admin.do("POST", "/personSearch", `{"lastName":{"value":["Hidden"],"compareCondition":1},"includeCols":["recNo"]}`)
		if !noRows(resp) {
			t.Fatalf("a refused create wrote something: %d %s", resp.Status, resp.Body)
		}
		logs := s.Logs.String()
		for _, v := range disguisedCards {
			if strings.Contains(logs, v) {
				t.Fatalf("%q reached the log", v)
			}
		}
	})
}

// Text whose digits look like a card number to steps 1-3 of the rule but
// are something else (docs/security.md) is saved as written.
func TestTextLikeACardNumberIsSaved(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		recNo := admin.create(kenJSON(r))
		old := onlyPerson(t, admin.do("GET", fmt.Sprintf("/person/%d", recNo), nil))
		edited := clonePerson(t, old)
		values := map[string]string{
			// Each holds 13-19 digits that pass Luhn in an issued range.
			"remarks":               "e-ticket 566 0448663449, 14.4.1995 11.14 / 7.5.2022 4:53:59",
			"birthdayNote":          "IBAN: PL32 3970 6331 4269 2450 1994 9220",
			"emergencyContactPhone": "4915123061546",
			"personCommunicationLink[0].communication.value":       "+49 1512 3061546",
			"personActionItemLink[0].personActionItem.notes":       "call +49 1512 3773447 or 0049 1512 3619780",
			"personCardLink[1].card.description":                   "27.09.1997 07.49 \u2013 18.09.2009 19:05",
			"personCommunicationLink[1].communication.description": "2000/01/18 6:47:47 - 2012/09/08 11:13:51",
		}
		setters := textFieldSetters(old)
		for path, v := range values {
			setters[path](edited, v)
		}
		saved := onlyPerson(t, admin.do("POST", "/person/refresh", oldNew(old, edited)))
		if saved["remarks"] != values["remarks"] || saved["emergencyContactPhone"] != values["emergencyContactPhone"] ||
			saved["birthdayNote"] != values["birthdayNote"] {
			t.Fatalf("saved %v", saved)
		}
	})
}

// A report's file name never carries a card number, holds only safe
// characters, and its non-ASCII form travels in filename*. Cells that a
// spreadsheet would run as formulas, in any width, are neutralized.
func TestCSVReportNameAndCells(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		admin.create(`{"lastName":"＝cmd|' /C calc'!A0","firstName":"＋SUM(1)","activeStatus":1,"remarks":"ok"}`)
		admin.create(`{"lastName":"@evil","firstName":"－2+3","activeStatus":1}`)
		for _, c := range []struct{ name, want string }{
			{"Karte 4111_1111_1111_1111", `attachment; filename="personSearch.csv"`},
			{"⁴¹¹¹ ¹¹¹¹ ¹¹¹¹ ¹¹¹¹.csv", `attachment; filename="personSearch.csv"`},
			{"cards ４１１１-１１１１-１１１１-１１１１", `attachment; filename="personSearch.csv"`},
			{"../../etc/passwd", `attachment; filename="etc_passwd.csv"`},
			{"a\"b;c\\d", `attachment; filename="a_b_c_d.csv"`},
			{"Kunden März\u202egpj.exe", `attachment; filename="Kunden M_rz_gpj.exe.csv"; filename*=UTF-8''Kunden%20M%C3%A4rz_gpj.exe.csv`},
		} {
			body := fmt.Sprintf(`{"includeCols":["lastName","firstName"],"reportFormat":true,"reportName":%q}`, c.name)
			resp := admin.do("POST", "/personSearch", body)
			if resp.Status != 200 {
				t.Fatalf("%q: %d %s", c.name, resp.Status, resp.Body)
			}
			if cd := resp.Header.Get("Content-Disposition"); cd != c.want {
				t.Errorf("%q: Content-Disposition %q, want %q", c.name, cd, c.want)
			}
		}
		resp := admin.do("POST", "/personSearch", `{"includeCols":["lastName","firstName"],"reportFormat":true,
			"lastName":{"value":["＝","@"],"compareCondition":5}}`)
		rows, err := csv.NewReader(strings.NewReader(string(resp.Body))).ReadAll()
		if err != nil || len(rows) != 3 {
			t.Fatalf("csv %v: %s", err, resp.Body)
		}
		for _, row := range rows[1:] {
			for _, cell := range row {
				if !strings.HasPrefix(cell, "'") {
					t.Errorf("cell %q is not neutralized", cell)
				}
			}
		}
	})
}

// A card number a client puts where the service echoes or logs what it got
// (an identifier, a search value, a column name, the path, the alias) is
// withheld there, however it is written.
func TestCardNumbersNeverEchoedOrLogged(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		recNo := admin.create(kenJSON(r))
		old := onlyPerson(t, admin.do("GET", fmt.Sprintf("/person/%d", recNo), nil))
		edited := clonePerson(t, old)
		firstCard(edited)["person_recNo"] = 4111111111111111
		for _, resp := range []*testserver.Response{
			admin.do("POST", "/person/refresh", oldNew(old, edited)),
			admin.do("POST", "/personSearch", `{"startingRow":-4111111111111111}`),
			admin.do("POST", "/personSearch", `{"lastName":{"value":["x"],"compareCondition":5555555555554444}}`),
			admin.do("POST", "/personSearch", `{"includeCols":["4111_1111_1111_1111"]}`),
			admin.do("POST", "/personSearch", `{"includeCols":["\uff14\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11"]}`),
			admin.do("GET", "/person/4111_1111_1111_1111", nil),
			s.Do(t, "POST", "/login", `{"alias":"4111·1111·1111·1111","userName":"x","password":"y"}`),
		} {
			if resp.Status < 400 && !(resp.Status == 204 && len(resp.Body) == 0) {
				t.Fatalf("%d %s", resp.Status, resp.Body)
			}
			for _, digits := range []string{"4111", "5555555555554444", "\uff14\uff11\uff11\uff11"} {
				if strings.Contains(string(resp.Body), digits) {
					t.Fatalf("echoed: %s", resp.Body)
				}
			}
		}
		logs := s.Logs.String()
		if strings.Contains(logs, "4111") || strings.Contains(logs, "\uff14\uff11") {
			t.Fatalf("a card number reached the log:\n%s", logs)
		}
	})
}
