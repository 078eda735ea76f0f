package http_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	whttp "github.com/wayfarerhq/wayfarer/internal/http"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// A walk with continuations answers every row once, in the order of one
// search without paging; a continuation works only where it belongs.
func TestSearchContinuation(t *testing.T) {
	eachSearch(t, func(t *testing.T, s *testserver.Server, fx *searchFixture) {
		tok := searchLogin(t, s, "admin")
		walk := func(cols string, size int) (rows []string, pages int) {
			cont := ""
			for pages = 1; pages < 50; pages++ {
				body := fmt.Sprintf(`{"includeCols":[%s],"rowCount":%d`, cols, size)
				if cont != "" {
					body += fmt.Sprintf(`,"continuation":%q`, cont)
				}
				r := s.Do(t, "POST", "/personSearch", body+"}", testserver.Bearer(tok)...)
				if r.Status == 204 {
					return rows, pages
				}
				if r.Status != 200 {
					t.Fatalf("%s: status %d: %s", body, r.Status, r.Body)
				}
				var page []json.RawMessage
				if err := json.Unmarshal(r.Body, &page); err != nil {
					t.Fatal(err)
				}
				for _, p := range page {
					rows = append(rows, string(p))
				}
				cont = r.Header.Get(whttp.ContinuationHeader)
				if len(page) < size != (cont == "") {
					t.Fatalf("page of %d rows (of %d) with continuation %q", len(page), size, cont)
				}
				if cont == "" {
					return rows, pages
				}
			}
			t.Fatal("the walk does not end")
			return nil, 0
		}
		all := func(cols string) []string {
			r := s.Do(t, "POST", "/personSearch", `{"includeCols":[`+cols+`]}`, testserver.Bearer(tok)...)
			if r.Header.Get(whttp.ContinuationHeader) != "" {
				t.Errorf("an answer without rowCount has a continuation")
			}
			var page []json.RawMessage
			if err := json.Unmarshal(r.Body, &page); err != nil {
				t.Fatal(err)
			}
			out := make([]string, len(page))
			for i, p := range page {
				out[i] = string(p)
			}
			return out
		}
		// persons with null and empty last names; a row per card, with
		// persons without cards (null keys of the LEFT JOIN)
		for _, cols := range []string{`"name","recNo"`, `"recNo","cardRecNo"`} {
			want := all(cols)
			for _, size := range []int{1, 2, 4} {
				got, pages := walk(cols, size)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s in pages of %d (%d pages):\n got %v\nwant %v", cols, size, pages, got, want)
				}
			}
		}

		// where a continuation does not belong
		first := s.Do(t, "POST", "/personSearch", `{"includeCols":["name"],"rowCount":2}`, testserver.Bearer(tok)...)
		cont := first.Header.Get(whttp.ContinuationHeader)
		if cont == "" {
			t.Fatal("a full page has no continuation")
		}
		for name, body := range map[string]string{
			"another search":   fmt.Sprintf(`{"includeCols":["name"],"rowCount":2,"lastName":{"value":["a"],"compareCondition":5},"continuation":%q}`, cont),
			"other columns":    fmt.Sprintf(`{"includeCols":["name","recNo"],"rowCount":2,"continuation":%q}`, cont),
			"changed by hand":  fmt.Sprintf(`{"includeCols":["name"],"rowCount":2,"continuation":%q}`, cont[:len(cont)-2]+"AA"),
			"not base64":       `{"includeCols":["name"],"rowCount":2,"continuation":"%%%"}`,
			"with startingRow": fmt.Sprintf(`{"includeCols":["name"],"rowCount":2,"startingRow":2,"continuation":%q}`, cont),
			"without rowCount": fmt.Sprintf(`{"includeCols":["name"],"continuation":%q}`, cont),
			"distinct":         fmt.Sprintf(`{"includeCols":["name"],"rowCount":2,"distinct":true,"continuation":%q}`, cont),
			"topRows":          fmt.Sprintf(`{"includeCols":["name"],"rowCount":2,"topRows":5,"continuation":%q}`, cont),
		} {
			r := s.Do(t, "POST", "/personSearch", body, testserver.Bearer(tok)...)
			if r.Status != 400 || !strings.Contains(string(r.Body), "continuation") {
				t.Errorf("%s: status %d: %s", name, r.Status, r.Body)
			}
		}
		// another user with another scope cannot use it
		agent := searchLogin(t, s, "agent")
		r := s.Do(t, "POST", "/personSearch", fmt.Sprintf(`{"includeCols":["name"],"rowCount":2,"continuation":%q}`, cont), testserver.Bearer(agent)...)
		if r.Status != 400 {
			t.Errorf("another scope: status %d: %s", r.Status, r.Body)
		}
	})
}
