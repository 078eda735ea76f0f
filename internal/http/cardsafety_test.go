package http_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"wayfarer/internal/testserver"
)

// onlyPerson decodes a load or refresh answer: an array of one person.
func onlyPerson(t *testing.T, r *testserver.Response) map[string]any {
	t.Helper()
	var ps []map[string]any
	if err := json.Unmarshal(r.Body, &ps); err != nil || len(ps) != 1 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	return ps[0]
}

func firstCard(p map[string]any) map[string]any {
	return p["personCardLink"].([]any)[0].(map[string]any)["card"].(map[string]any)
}

func oldNew(old, new map[string]any) map[string]any {
	return map[string]any{"oldNewDataset": map[string]any{"oldData": []any{old}, "newData": []any{new}}}
}

func clonePerson(t *testing.T, p map[string]any) map[string]any {
	b, _ := json.Marshal(p)
	var c map[string]any
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// A user without Decrypt cannot learn whether a guessed number is the
// stored one: a clear number always replaces the card's number and token.
func TestNoCardNumberOracleWithoutDecrypt(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		agent := testserver.Bearer(s.LoginDemo(t, "agent"))
		r := s.Do(t, "POST", "/person/refresh", `{"lastName":"Oracle","firstName":"Ann","activeStatus":1,
			"personCardLink":[{"card":{"type":1,"cardNumber":"4111 1111 1111 1111","expirationDate":"2030-12-31"}}]}`, agent...)
		loaded := onlyPerson(t, r)
		token := firstCard(loaded)["cardNumberToken"]
		guess := clonePerson(t, loaded)
		firstCard(guess)["cardNumber"] = "4111111111111111" // the right guess
		saved := onlyPerson(t, s.Do(t, "POST", "/person/refresh", oldNew(loaded, guess), agent...))
		if firstCard(saved)["cardNumberToken"] == token {
			t.Fatal("the token stayed: a right guess is told apart from a wrong one")
		}

		// with Decrypt, a clear number loaded and sent back unchanged keeps the token
		admin := testserver.Bearer(s.LoginDemo(t, "admin"))
		rec := int64(saved["recNo"].(float64))
		clear := onlyPerson(t, s.Do(t, "GET", fmt.Sprintf("/person/%d?decrypt=true", rec), nil, admin...))
		edited := clonePerson(t, clear)
		firstCard(edited)["nameOnCard"] = "ANN ORACLE"
		after := onlyPerson(t, s.Do(t, "POST", "/person/refresh", oldNew(clear, edited), admin...))
		if firstCard(after)["cardNumberToken"] != firstCard(saved)["cardNumberToken"] || firstCard(after)["nameOnCard"] != "ANN ORACLE" {
			t.Fatalf("decrypted edit: %v", firstCard(after))
		}
	})
}

func TestPaymentCardNumberNotSavedAsLoyalty(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		admin := testserver.Bearer(s.LoginDemo(t, "admin"))
		for _, typ := range []int{2, 3} {
			body := fmt.Sprintf(`{"lastName":"Hidden","activeStatus":1,"personCardLink":[{"card":{"type":%d,"cardNumber":"5555-5555-5555-4444"}}]}`, typ)
			r := s.Do(t, "POST", "/person", body, admin...)
			if r.Status != 400 || r.Code(t) != 410 || !strings.Contains(string(r.Body), "looks like a credit/debit card number") {
				t.Fatalf("type %d: %d %s", typ, r.Status, r.Body)
			}
		}
		r := s.Do(t, "POST", "/personSearch", `{"lastName":{"value":["Hidden"],"compareCondition":1},"includeCols":["recNo"]}`, admin...)
		if string(r.Body) != "[]" {
			t.Fatalf("a refused save wrote something: %s", r.Body)
		}
	})
}

func TestAnswersAreNotCached(t *testing.T) {
	s := testserver.Start(t, testserver.Options{})
	for _, r := range []*testserver.Response{
		s.Do(t, "POST", "/login", `{"alias":"DEMO","userName":"admin","password":"demo-admin"}`),
		s.Do(t, "POST", "/login", `{"alias":"DEMO","userName":"admin","password":"wrong"}`),
		s.Do(t, "GET", "/person/1", nil, testserver.Bearer(s.LoginDemo(t, "viewer"))...),
	} {
		if r.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("%d answer without Cache-Control: no-store", r.Status)
		}
	}
}

func TestPermissionBeforeRecNo(t *testing.T) {
	s := testserver.Start(t, testserver.Options{})
	viewer := testserver.Bearer(s.LoginDemo(t, "viewer"))
	for _, path := range []string{"/person/1", "/person/abc"} {
		if r := s.Do(t, "GET", path, nil, viewer...); r.Status != 403 || r.Code(t) != 600 {
			t.Fatalf("%s as viewer: %d %s", path, r.Status, r.Body)
		}
	}
	admin := testserver.Bearer(s.LoginDemo(t, "admin"))
	a, b := s.Do(t, "GET", "/person/abc", nil, admin...), s.Do(t, "GET", "/person/99999", nil, admin...)
	if a.Status != 404 || string(a.Body) != string(b.Body) {
		t.Fatalf("not a number: %d %s; unknown: %s", a.Status, a.Body, b.Body)
	}
}

func TestUnknownAliasNotLogged(t *testing.T) {
	s := testserver.Start(t, testserver.Options{})
	s.Do(t, "POST", "/login", `{"alias":"4111111111111111","userName":"x","password":"y"}`)
	s.Do(t, "POST", "/login", `{"alias":"`+strings.Repeat("Q", 5000)+`","userName":"x","password":"y"}`)
	s.Do(t, "GET", "/login/4111111111111111", nil, "Authorization", "Basic eDp5")
	s.Login(t, "DEMO", "admin", "demo-admin")
	logs := s.Logs.String()
	if strings.Contains(logs, "4111111111111111") || strings.Contains(logs, "QQQQQQQQ") {
		t.Fatalf("a typed alias reached the log:\n%s", logs)
	}
	if !strings.Contains(logs, "alias=DEMO") {
		t.Fatalf("a real agency's alias is not logged:\n%s", logs)
	}
}
