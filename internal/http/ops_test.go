package http_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/docs"
	"github.com/wayfarerhq/wayfarer/internal/app"
	whttp "github.com/wayfarerhq/wayfarer/internal/http"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// metricValue finds the sample of name with exactly the labels given (in
// the exposition's sorted order) and returns its value text; "" if absent.
func metricValue(body, series string) string {
	for _, line := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			return v
		}
	}
	return ""
}

func TestMetricsAfterRequests(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		tok := s.LoginDemo(t, "admin")
		if r := s.Do(t, "POST", "/login", map[string]string{"alias": "DEMO", "userName": "admin", "password": "wrong"}); r.Status != 401 {
			t.Fatalf("bad login %d", r.Status)
		}
		bearer := testserver.Bearer(tok)
		if r := s.Do(t, "POST", "/person", `{"firstName":"Ann","lastName":"Metric","activeStatus":1,
			"personCardLink":[{"card":{"type":1,"cardNumber":"4111 1111 1111 1111"}}]}`, bearer...); r.Status != 200 {
			t.Fatalf("save %d %s", r.Status, r.Body)
		}
		if r := s.Do(t, "POST", "/personSearch", `{"lastName":{"value":["Metric"]}}`, bearer...); r.Status != 200 {
			t.Fatalf("search %d %s", r.Status, r.Body)
		}
		s.Do(t, "GET", "/person/999999", nil, bearer...)
		s.Do(t, "GET", "/v1.8.1/person/999999", nil, bearer...)
		s.Do(t, "GET", "/no/such/path/4111111111111111", nil)

		r := s.Do(t, "GET", "/metrics", nil)
		if r.Status != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/plain") {
			t.Fatalf("/metrics %d %q", r.Status, r.Header.Get("Content-Type"))
		}
		body := string(r.Body)
		for series, want := range map[string]string{
			`wayfarer_http_requests_total{method="POST",route="/login",status="200"}`:                "1",
			`wayfarer_http_requests_total{method="POST",route="/login",status="401"}`:                "1",
			`wayfarer_http_requests_total{method="GET",route="/person/{recNo}",status="204"}`:        "1",
			`wayfarer_http_requests_total{method="GET",route="/v1.8.1/person/{recNo}",status="204"}`: "1",
			`wayfarer_http_requests_total{method="other",route="unmatched",status="404"}`:            "1",
			`wayfarer_http_request_duration_seconds_count{method="POST",route="/personSearch"}`:      "1",
			`wayfarer_logins_total{code="0"}`:                                                        "1",
			`wayfarer_logins_total{code="101"}`:                                                      "1",
			`wayfarer_login_lockouts_total`:                                                          "0",
			`wayfarer_searches_total{format="json",kind="person",outcome="rows"}`:                    "1",
			`wayfarer_vault_operations_total{operation="encrypt",outcome="ok"}`:                      "1",
		} {
			if got := metricValue(body, series); got != want {
				t.Errorf("%s = %q, want %q", series, got, want)
			}
		}
		for _, present := range []string{
			`wayfarer_db_query_duration_seconds_count{outcome="ok"}`,
			`go_sql_open_connections{db_name="primary"}`,
			`go_sql_in_use_connections{db_name="primary"}`,
			`go_goroutines`,
		} {
			if metricValue(body, present) == "" {
				t.Errorf("no %s in /metrics", present)
			}
		}
		// No raw path, user name or alias ever becomes a label value.
		labels := strings.Join(regexp.MustCompile(`\{[^}]*\}`).FindAllString(body, -1), "\n")
		for _, leak := range []string{"999999", "4111", "admin", "DEMO", "/no/such"} {
			if strings.Contains(labels, leak) {
				t.Errorf("a /metrics label holds %q", leak)
			}
		}
	})
}

func TestMetricsOnTheirOwnListener(t *testing.T) {
	s := testserver.Start(t, testserver.Options{Config: func(c *app.Config) { c.MetricsElsewhere = true }})
	if r := s.Do(t, "GET", "/metrics", nil); r.Status != 404 {
		t.Fatalf("/metrics on the API listener with --metrics-addr: %d", r.Status)
	}
	if r := s.Do(t, "POST", "/metrics", nil); r.Status != 404 {
		t.Fatalf("POST /metrics: %d", r.Status)
	}
}

func TestHealthAndReadiness(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		if r := s.Do(t, "GET", "/healthz", nil); r.Status != 200 || r.JSON(t)["status"] != "ok" {
			t.Fatalf("healthz %d %s", r.Status, r.Body)
		}
		if r := s.Do(t, "GET", "/readyz", nil); r.Status != 200 || r.JSON(t)["status"] != "ready" {
			t.Fatalf("readyz %d %s", r.Status, r.Body)
		}
		// The newest migration un-applied: the binary is ahead of its schema.
		db := s.App.DB.Primary()
		if _, err := db.Exec(`DELETE FROM goose_db_version WHERE version_id = (SELECT MAX(version_id) FROM goose_db_version)`); err != nil {
			t.Fatal(err)
		}
		r := s.Do(t, "GET", "/readyz", nil, "X-Request-ID", "ready-check-1")
		if m := r.JSON(t); r.Status != 503 || m["status"] != "migrations pending" || !strings.Contains(m["reason"].(string), "migrate up") {
			t.Fatalf("readyz with a pending migration: %d %s", r.Status, r.Body)
		}
		if r := s.Do(t, "GET", "/healthz", nil); r.Status != 200 {
			t.Fatalf("healthz is about the process only: %d", r.Status)
		}
		// Both lines of that request carry its ID: the warning and the access line.
		var lines []string
		for _, l := range strings.Split(s.Logs.String(), "\n") {
			if strings.Contains(l, "request_id=ready-check-1") {
				lines = append(lines, l)
			}
		}
		if len(lines) != 2 || !strings.Contains(lines[0], "readiness check failed") || !strings.Contains(lines[1], "msg=request") {
			t.Fatalf("log lines of the request:\n%s", strings.Join(lines, "\n"))
		}
	})
}

func TestRequestIDs(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		tok := s.LoginDemo(t, "agent")
		r := s.Do(t, "GET", "/person/424242", nil, append(testserver.Bearer(tok), "X-Request-ID", "client-id-42")...)
		if got := r.Header.Get("X-Request-ID"); got != "client-id-42" {
			t.Fatalf("echoed ID %q", got)
		}
		access := ""
		for _, l := range strings.Split(s.Logs.String(), "\n") {
			if strings.Contains(l, "request_id=client-id-42") && strings.Contains(l, "msg=request") {
				access = l
			}
		}
		for _, want := range []string{"route=/person/{recNo}", "status=204", "client=127.0.0.1", "alias=DEMO", "user=agent", "duration_ms="} {
			if !strings.Contains(access, want) {
				t.Errorf("access line lacks %s: %s", want, access)
			}
		}
		if strings.Contains(s.Logs.String(), tok) {
			t.Error("a token reached the log")
		}
		madeID := regexp.MustCompile(`^[a-z]{22}$`)
		made := map[string]bool{}
		for _, sent := range []string{"", strings.Repeat("x", 129), "has space", "caf\u00e9"} {
			var h []string
			if sent != "" {
				h = []string{"X-Request-ID", sent}
			}
			r, err := s.Try("GET", "/version", nil, h...)
			if err != nil {
				t.Fatal(err)
			}
			id := r.Header.Get("X-Request-ID")
			if !madeID.MatchString(id) || made[id] {
				t.Errorf("sent %q: made ID %q", sent, id)
			}
			made[id] = true
		}
		if r := s.Do(t, "GET", "/version", nil, "X-Request-ID", strings.Repeat("y", 128)); r.Header.Get("X-Request-ID") != strings.Repeat("y", 128) {
			t.Error("a 128-character ID is kept")
		}
	})
}

func TestCORS(t *testing.T) {
	opt := testserver.Options{Config: func(c *app.Config) { c.CORSOrigins = "https://app.example.com, http://localhost:3000" }}
	testserver.Each(t, opt, func(t *testing.T, s *testserver.Server) {
		r := s.Do(t, "OPTIONS", "/personSearch", nil, "Origin", "https://app.example.com",
			"Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "authorization, content-type")
		h := r.Header
		if r.Status != 204 || h.Get("Access-Control-Allow-Origin") != "https://app.example.com" || h.Get("Access-Control-Max-Age") == "" {
			t.Fatalf("preflight %d %v", r.Status, h)
		}
		for _, want := range []string{"Authorization", "Content-Type", "X-Client-Version", "X-Request-ID"} {
			if !strings.Contains(h.Get("Access-Control-Allow-Headers"), want) {
				t.Errorf("Allow-Headers lacks %s: %q", want, h.Get("Access-Control-Allow-Headers"))
			}
		}
		if !strings.Contains(h.Get("Access-Control-Allow-Methods"), "POST") {
			t.Errorf("Allow-Methods %q", h.Get("Access-Control-Allow-Methods"))
		}
		r = s.Do(t, "GET", "/version", nil, "Origin", "http://localhost:3000")
		if r.Status != 200 || r.Header.Get("Access-Control-Allow-Origin") != "http://localhost:3000" {
			t.Fatalf("allowed GET %d %v", r.Status, r.Header)
		}
		for _, want := range []string{"X-Request-ID", "ETag", "X-Wayfarer-Version"} {
			if !strings.Contains(r.Header.Get("Access-Control-Expose-Headers"), want) {
				t.Errorf("Expose-Headers lacks %s", want)
			}
		}
		for _, origin := range []string{"https://evil.example.com", "https://app.example.com.evil.net"} {
			r = s.Do(t, "OPTIONS", "/personSearch", nil, "Origin", origin, "Access-Control-Request-Method", "POST")
			if r.Header.Get("Access-Control-Allow-Origin") != "" || r.Header.Get("Access-Control-Allow-Methods") != "" {
				t.Errorf("unlisted origin %s got %v", origin, r.Header)
			}
			r = s.Do(t, "GET", "/version", nil, "Origin", origin)
			if r.Status != 200 || r.Header.Get("Access-Control-Allow-Origin") != "" {
				t.Errorf("unlisted origin %s: %d %v", origin, r.Status, r.Header)
			}
		}
	})
	// Off by default: no header, and OPTIONS is the router's 405 as before.
	s := testserver.Start(t, testserver.Options{})
	r := s.Do(t, "OPTIONS", "/personSearch", nil, "Origin", "https://app.example.com", "Access-Control-Request-Method", "POST")
	if r.Status != 405 || r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("CORS off: %d %v", r.Status, r.Header)
	}
}

func TestCORSOriginsRefused(t *testing.T) {
	for _, bad := range []string{"app.example.com", "https://app.example.com/path", "ftp://x.example.com"} {
		_, err := whttp.ParseCORSOrigins("https://ok.example.com," + bad)
		if err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("--cors-origins %q: %v", bad, err)
		}
	}
}

func TestOpenAPIAndDocsPage(t *testing.T) {
	s := testserver.Start(t, testserver.Options{})
	r := s.Do(t, "GET", "/openapi.json", nil)
	var doc map[string]any
	if r.Status != 200 || json.Unmarshal(r.Body, &doc) != nil || doc["openapi"] == nil || string(r.Body) != string(docs.OpenAPI) {
		t.Fatalf("/openapi.json %d %.80s", r.Status, r.Body)
	}
	if r := s.Do(t, "GET", "/docs", nil); r.Status != 200 || !strings.Contains(string(r.Body), `id="swagger-ui"`) {
		t.Fatalf("/docs (followed to /docs/) %d %.200s", r.Status, r.Body)
	}
	page := s.Do(t, "GET", "/docs/", nil)
	if !strings.Contains(page.Header.Get("Content-Security-Policy"), "default-src 'self'") {
		t.Errorf("CSP %q", page.Header.Get("Content-Security-Policy"))
	}
	// Everything the page loads is served here: nothing from elsewhere.
	for _, m := range regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(string(page.Body), -1) {
		if strings.Contains(m[1], "//") {
			t.Errorf("the page loads %s from elsewhere", m[1])
			continue
		}
		if r := s.Do(t, "GET", "/docs/"+m[1], nil); r.Status != 200 || len(r.Body) == 0 {
			t.Errorf("/docs/%s: %d", m[1], r.Status)
		}
	}
	init := s.Do(t, "GET", "/docs/init.js", nil)
	if !strings.Contains(string(init.Body), `"../openapi.json"`) {
		t.Errorf("the page does not show this server's document: %s", init.Body)
	}
	if r := s.Do(t, "GET", "/docs/nosuch.js", nil); r.Status != 404 {
		t.Errorf("/docs/nosuch.js: %d", r.Status)
	}
	if r := s.Do(t, "POST", "/openapi.json", nil); r.Status != 405 {
		t.Errorf("POST /openapi.json: %d", r.Status)
	}
}
