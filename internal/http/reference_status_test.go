package http_test

import (
	"encoding/base64"
	"fmt"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// The reference's status codes and bodies (issue 12, items 3 and 4): what a
// strict client (Jackson's FAIL_ON_UNKNOWN_PROPERTIES) reads from every
// route, and the reference's 204s and 404.

// TestReferenceAnswersKeySets replays each route as the Java client and
// the devportal call it and checks status, Content-Type and that every key
// of the body is one of the reference's, with its type.
func TestReferenceAnswersKeySets(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		const jsonType = "application/json; charset=utf-8"
		check := func(what string, resp *testserver.Response, status int, table string, full bool) {
			t.Helper()
			if resp.Status != status || resp.Header.Get("Content-Type") != jsonType {
				t.Fatalf("%s: %d %q %s", what, resp.Status, resp.Header.Get("Content-Type"), resp.Body)
			}
			wantShape(t, what, resp.Body, table, full)
		}
		// GET_Login_domain.yml: GET /Login/{alias} with Basic credentials.
		basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("admin:demo-admin"))
		check("GET /Login/DEMO", s.Do(t, "GET", "/Login/DEMO", nil, "Authorization", basic), 200, "login", true)
		check("POST /login", s.Do(t, "POST", "/login", `{"alias":"DEMO","userName":"admin","password":"demo-admin"}`), 200, "login", true)
		// login_invalid_username_password_GET_Login.yml and login_invalid_alias
		check("GET /Login/DEMO wrong password", s.Do(t, "GET", "/Login/DEMO", nil, "Authorization",
			"Basic "+base64.StdEncoding.EncodeToString([]byte("admin:BOGUS"))), 401, "result", true)
		check("GET /Login/BOGUS", s.Do(t, "GET", "/Login/BOGUS", nil, "Authorization", basic), 401, "result", true)
		check("GET /Version", s.Do(t, "GET", "/Version", nil), 200, "version", true)

		admin := clientFor(t, s, "admin")
		check("GET /RefreshIdentityToken", admin.do("GET", "/RefreshIdentityToken", nil), 200, "refresh", true)
		check("token missing", s.Do(t, "GET", "/person/1", nil), 401, "result", true)
		created := admin.do("POST", "/person", kenJSON(r))
		check("POST /person", created, 200, "saveResult", true)
		recNo := int64(decodeAny(t, created.Body).(map[string]any)["recNo"].(float64))
		check("GET /person/{recNo}", admin.do("GET", fmt.Sprintf("/person/%d", recNo), nil), 200, "person", true)
		check("POST /person/refresh", admin.do("POST", "/person/refresh", `{"lastName":"Refreshed","activeStatus":1}`), 200, "person", true)
		check("a refused save", admin.do("POST", "/person", `{"lastName":"X"}`), 400, "result", true)
		// The Java client's ProfileSearch-like request: includeCols and a StringSearchParam.
		check("POST /PersonSearch", admin.do("POST", "/PersonSearch", `{"includeCols":["recNo","name","createDateTime","lastModifiedDateTime",
			"cardExpDate","cardNumber","primaryEmail","actionItemDate","actionItemCompleted","tags","summaryCount"],
			"lastName":{"value":["Abl"],"compareCondition":5}}`), 200, "searchRow", false)
		check("GET /Logout", admin.do("GET", "/Logout", nil), 200, "logout", true)
	})
}

// TestReferenceNoContentAndNotFound: the reference's 204 (nothing to
// return: a person out of reach, a search matching nothing, JSON or CSV)
// and GET /login without an alias, 404 with an empty body; the server's
// build rides in a header on every answer.
func TestReferenceNoContentAndNotFound(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		wantNoContent(t, admin.do("GET", "/person/987654", nil))
		wantNoContent(t, admin.do("GET", "/Person/not-a-number", nil))
		for _, body := range []string{
			`{"includeCols":["recNo","name"],"lastName":{"value":["Nobody-Has-This-Name"],"compareCondition":1}}`,
			`{"includeCols":["recNo","name"],"reportFormat":true,"lastName":{"value":["Nobody-Has-This-Name"],"compareCondition":1}}`,
			`{"includeCols":["recNo","name"],"startingRow":100000}`, // a page past the end
		} {
			wantNoContent(t, admin.do("POST", "/personSearch", body))
		}
		// POST /person/refresh always has the person: never 204.
		if r := admin.do("POST", "/person/refresh", `{"lastName":"Always","activeStatus":1}`); r.Status != 200 || len(r.Body) == 0 {
			t.Fatalf("refresh: %d %s", r.Status, r.Body)
		}

		// GET /login with no alias: 404, empty (text/plain, as every unknown method).
		for _, path := range []string{"/login", "/login/", "/Login", "/LOGIN/"} {
			resp := s.Do(t, "GET", path, nil, "Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte("admin:demo-admin")))
			if resp.Status != 404 || len(resp.Body) != 0 || resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
				t.Fatalf("GET %s: %d %q %q", path, resp.Status, resp.Header.Get("Content-Type"), resp.Body)
			}
		}
		// POST /login without an alias stays 401/105 (wire-reference.md).
		wantResult(t, s.Do(t, "POST", "/login", `{"userName":"admin","password":"demo-admin"}`), 401, 105, "login")

		// X-Wayfarer-Version on every answer: success, 204, errors, unknown methods.
		for _, resp := range []*testserver.Response{
			s.Do(t, "GET", "/version", nil), admin.do("GET", "/person/987654", nil), s.Do(t, "GET", "/login", nil),
			s.Do(t, "GET", "/person/1", nil), s.Do(t, "DELETE", "/version", nil), s.Do(t, "GET", "/healthz", nil),
		} {
			if v := resp.Header.Get("X-Wayfarer-Version"); v != "test" {
				t.Fatalf("%d answer: X-Wayfarer-Version %q", resp.Status, v)
			}
		}
	})
}
