package http_test

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"

	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// The OpenAPI document (docs/openapi.json) is checked against the code: its
// routes against the ones the server registers (a list written from
// server.go's routes(), and a running server), its search schemas against
// the column and parameter catalogs, its person schemas against the record
// structs and their struct tags.

const openAPIPath = "../../docs/openapi.json"

// serverRoutes is server.go's routes(), as "METHOD /path".
var serverRoutes = []string{
	"POST /login",
	"GET /login/{alias}",
	"GET /login",
	"GET /logout",
	"GET /refreshIdentityToken",
	"GET /version",
	"POST /personSearch",
	"GET /person/{recNo}",
	"GET /person/{recNo}/attachment/{attachmentRecNo}",
	"POST /person",
	"POST /person/refresh",
	"POST /branchSearch",
	"GET /branch/{recNo}",
	"POST /profileSearch",
	"POST /appUserSearch",
	"POST /tagSearch",
	"GET /tag/{recNo}",
	"POST /tag",
	"POST /tag/refresh",
	"GET /affiliation/{recNo}",
	"GET /admin/agencies",
	"POST /admin/agency/{alias}/enable",
	"POST /admin/agency/{alias}/disable",
	"GET /admin/agency/{alias}/users",
	"POST /admin/agency/{alias}/user",
	"POST /admin/agency/{alias}/user/{userName}/unlock",
	"GET /healthz",
	"GET /readyz",
}

var openAPIMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

type openAPIDoc map[string]any

func loadOpenAPI(t *testing.T) openAPIDoc {
	t.Helper()
	b, err := os.ReadFile(openAPIPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc openAPIDoc
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s is not valid JSON: %v", openAPIPath, err)
	}
	if doc["openapi"] != "3.1.0" {
		t.Fatalf("openapi = %v, want 3.1.0", doc["openapi"])
	}
	return doc
}

func oaObj(t *testing.T, v any, what string) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s: not an object: %v", what, v)
	}
	return m
}

// get follows a path of object keys from the document root.
func (d openAPIDoc) get(t *testing.T, keys ...string) map[string]any {
	t.Helper()
	var cur any = map[string]any(d)
	for i, k := range keys {
		cur = oaObj(t, cur, strings.Join(keys[:i], "."))[k]
	}
	return oaObj(t, cur, strings.Join(keys, "."))
}

// resolve follows a local $ref ("#/components/...") until an object without one.
func (d openAPIDoc) resolve(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	for range 10 {
		ref, ok := m["$ref"].(string)
		if !ok {
			return m
		}
		if !strings.HasPrefix(ref, "#/") {
			t.Fatalf("non-local $ref %q", ref)
		}
		m = d.get(t, strings.Split(ref[2:], "/")...)
	}
	t.Fatalf("$ref chain too long")
	return nil
}

// routes lists the document's operations as "METHOD /path".
func (d openAPIDoc) routes(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{} // path -> methods
	for path, item := range d.get(t, "paths") {
		for k := range oaObj(t, item, path) {
			if slices.Contains(openAPIMethods, k) {
				out[path] = append(out[path], strings.ToUpper(k))
			}
		}
	}
	return out
}

func TestOpenAPIRoutesMatchServer(t *testing.T) {
	doc := loadOpenAPI(t)
	var got []string
	for path, methods := range doc.routes(t) {
		for _, m := range methods {
			got = append(got, m+" "+path)
		}
	}
	want := slices.Clone(serverRoutes)
	for _, r := range serverRoutes { // every route again below the 1.8.1 base path
		method, path, _ := strings.Cut(r, " ")
		want = append(want, method+" "+base181+path)
	}
	sort.Strings(got)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Fatalf("operations in %s:\n  %v\nroutes of the server:\n  %v", openAPIPath, got, want)
	}
}

// concretePath fills a template's parameters with sample values.
func concretePath(tmpl string) string {
	r := strings.NewReplacer("{alias}", "DEMO", "{recNo}", "1", "{attachmentRecNo}", "1", "{userName}", "agent")
	return r.Replace(tmpl)
}

// templateMatches reports whether the concrete path matches tmpl the way
// the router matches: literal segments case-insensitively, {x} any segment.
func templateMatches(tmpl, path string) bool {
	ts := strings.Split(strings.Trim(tmpl, "/"), "/")
	ps := strings.Split(strings.Trim(path, "/"), "/")
	if len(ts) != len(ps) {
		return false
	}
	for i := range ts {
		if strings.HasPrefix(ts[i], "{") {
			continue
		}
		if !strings.EqualFold(ts[i], ps[i]) {
			return false
		}
	}
	return true
}

func TestOpenAPIRoutesAnswer(t *testing.T) {
	doc := loadOpenAPI(t)
	routes := doc.routes(t)
	s := testserver.Start(t, testserver.Options{})

	for tmpl, methods := range routes {
		path := concretePath(tmpl)
		// Every documented operation is routed: not the unknown-method answer
		// (but GET /login, which the reference answers so).
		for _, m := range methods {
			r := s.Do(t, m, path, nil)
			if m+" "+tmpl == "GET /login" || m+" "+tmpl == "GET "+base181+"/login" {
				if r.Status != 404 || len(r.Body) != 0 {
					t.Errorf("GET /login: %d %q, want 404 with an empty body", r.Status, r.Body)
				}
				continue
			}
			if r.Status == 404 && len(r.Body) == 0 || r.Status == 405 {
				t.Errorf("%s %s (documented as %s): %d %q, the answer of an unrouted call", m, path, tmpl, r.Status, r.Body)
			}
		}
		// No other verb is routed on the path: 405 with exactly the
		// documented verbs of every template the path matches.
		// Where templates overlap, the most specific one owns the path
		// (a literal segment beats a parameter), as in the router.
		best := ""
		for other := range routes {
			if templateMatches(other, path) && templateShape(other) > best {
				best = templateShape(other)
			}
		}
		var allow []string
		for other, ms := range routes {
			if templateMatches(other, path) && templateShape(other) == best {
				allow = append(allow, ms...)
			}
		}
		r := s.Do(t, "DELETE", path, nil)
		var got []string
		for _, m := range strings.Split(r.Header.Get("Allow"), ",") {
			if m = strings.TrimSpace(m); m != "" {
				got = append(got, m)
			}
		}
		sort.Strings(got)
		sort.Strings(allow)
		if r.Status != 405 || !slices.Equal(got, allow) {
			t.Errorf("DELETE %s: %d Allow %v, want 405 Allow %v", path, r.Status, got, allow)
		}
	}

	// Paths the document does not have are unknown methods to the server.
	for _, path := range []string{"/", "/nosuch", "/persons", "/person/1/cards", "/login/DEMO/extra", "/personSearch/1", "/logout/now", "/version/1", "/healthz/deep",
		"/v1.8.1", "/v1.8.1/nosuch", "/v1.8.1/v1.8.1/version", "/v1.8.2/version", "/version/v1.8.1"} {
		for tmpl := range routes {
			if templateMatches(tmpl, path) {
				t.Fatalf("test bug: %s matches the documented %s", path, tmpl)
			}
		}
		for _, m := range []string{"GET", "POST"} {
			r := s.Do(t, m, path, nil)
			if r.Status != 404 || len(r.Body) != 0 {
				t.Errorf("%s %s: %d %q, want 404 with an empty body", m, path, r.Status, r.Body)
			}
		}
	}
}

// schemaTypes lists a schema's JSON types ("type": "x" or ["x","null"]).
func schemaTypes(s map[string]any) []string {
	switch v := s["type"].(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			if str, ok := x.(string); ok {
				out = append(out, str)
			}
		}
		return out
	}
	return nil
}

func wantType(t *testing.T, what string, s map[string]any, typ, format string) {
	t.Helper()
	if !slices.Contains(schemaTypes(s), typ) {
		t.Errorf("%s: type %v, want %s", what, s["type"], typ)
	}
	if f, _ := s["format"].(string); format != "" && f != format {
		t.Errorf("%s: format %q, want %q", what, f, format)
	}
}

// wantReferenceDate checks a Date's schema: answers hold the reference's
// midnight without an offset ("2025-12-31T00:00:00"), which is neither an
// OpenAPI date nor a date-time, while saves and searches also take other
// forms: a string without a format, its example in the answers' form.
func wantReferenceDate(t *testing.T, what string, s map[string]any) {
	t.Helper()
	wantType(t, what, s, "string", "")
	if f, ok := s["format"]; ok {
		t.Errorf("%s: format %v; a reference Date is neither date nor date-time", what, f)
	}
	ex, _ := s["examples"].([]any)
	if len(ex) == 0 || !referenceDate.MatchString(fmt.Sprint(ex[0])) {
		t.Errorf("%s: examples %v, want one like 2025-12-31T00:00:00", what, s["examples"])
	}
}

var referenceDate = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T00:00:00$`)

func wantMaxLength(t *testing.T, what string, s map[string]any, size int) {
	t.Helper()
	got, ok := s["maxLength"].(float64)
	switch {
	case size == 0 && ok:
		t.Errorf("%s: maxLength %v, but the code sets none", what, got)
	case size > 0 && (!ok || int(got) != size):
		t.Errorf("%s: maxLength %v, want %d", what, s["maxLength"], size)
	}
}

func TestOpenAPISearchSchemas(t *testing.T) {
	doc := loadOpenAPI(t)

	row := doc.get(t, "components", "schemas", "PersonSearchRow", "properties")
	known := map[string]bool{}
	for _, c := range wayfarer.SearchColumns {
		known[c.Name] = true
		v, ok := row[c.Name]
		if !ok {
			t.Errorf("column %s is missing from PersonSearchRow", c.Name)
			continue
		}
		s := oaObj(t, v, "PersonSearchRow."+c.Name)
		what := "PersonSearchRow." + c.Name
		switch c.Type {
		case wayfarer.ColLong:
			wantType(t, what, s, "integer", "int64")
		case wayfarer.ColInt:
			wantType(t, what, s, "integer", "int32")
		case wayfarer.ColShort:
			wantType(t, what, s, "integer", "")
		case wayfarer.ColString:
			wantType(t, what, s, "string", "")
		case wayfarer.ColBool:
			wantType(t, what, s, "boolean", "")
		case wayfarer.ColDate:
			wantReferenceDate(t, what, s)
		case wayfarer.ColDateTimeOffset:
			wantType(t, what, s, "string", "date-time")
		}
		wantMaxLength(t, what, s, c.Size)
	}
	for name := range row {
		if !known[name] {
			t.Errorf("PersonSearchRow.%s is not a column of wayfarer.SearchColumns", name)
		}
	}

	params := doc.get(t, "components", "schemas", "PersonSearchRequest", "properties")
	knownParams := map[string]bool{}
	for _, p := range wire.SearchParamNames {
		knownParams[p] = true
		if _, ok := params[p]; !ok {
			t.Errorf("search parameter %s is missing from PersonSearchRequest", p)
		}
	}
	for name := range params {
		if !knownParams[name] {
			t.Errorf("PersonSearchRequest.%s is not in wire.SearchParamNames", name)
		}
	}
	// Every parameter a body may carry is decoded: a wrong shape is refused
	// (406), not ignored, which a name the decoder does not know would be.
	if len(wire.SearchParamNames) != len(params) {
		t.Errorf("%d parameters documented, %d known", len(params), len(wire.SearchParamNames))
	}
	for _, shape := range []string{"StringSearchParam", "NumSearchParam", "DateSearchParam", "DateTimeUTCSearchParam", "MarketingSearchParam", "TagsSearchParams"} {
		doc.get(t, "components", "schemas", shape, "properties")
	}
}

// TestOpenAPIPersonSchemas walks the record structs: every JSON field is a
// property of the matching schema, with the code's size (max tag), read-only
// flag (wf:"ro") and type; and the schemas hold nothing else.
func TestOpenAPIPersonSchemas(t *testing.T) {
	doc := loadOpenAPI(t)
	person := doc.get(t, "components", "schemas", "Person")
	checkRecordSchema(t, doc, "Person", reflect.TypeFor[wayfarer.Person](), person)

	// Every child table is there (and so walked above).
	props := oaObj(t, person["properties"], "Person.properties")
	for _, child := range []string{"personCommunicationLink", "personCardLink", "personMarketing", "personAttachmentLink", "personTag", "personActionItemLink"} {
		if _, ok := props[child]; !ok {
			t.Errorf("Person.%s missing", child)
		}
	}
}

func checkRecordSchema(t *testing.T, doc openAPIDoc, what string, typ reflect.Type, schema map[string]any) {
	t.Helper()
	schema = doc.resolve(t, schema)
	props := oaObj(t, schema["properties"], what+".properties")
	fields := map[string]bool{}
	for i := 0; i < typ.NumField(); i++ {
		sf := typ.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		fields[name] = true
		fwhat := what + "." + name
		v, ok := props[name]
		if !ok {
			t.Errorf("%s is missing from the schema", fwhat)
			continue
		}
		ps := oaObj(t, v, fwhat)
		ft := sf.Type
		switch {
		case ft.Kind() == reflect.Struct && strings.HasPrefix(ft.Name(), "Opt["):
			flags := strings.Split(sf.Tag.Get("wf"), ",")
			if slices.Contains(flags, "in") {
				// Accepted only to be refused when not empty (cvvCode).
				if n, _ := ps["maxLength"].(float64); n != 0 || ps["maxLength"] == nil {
					t.Errorf("%s: maxLength %v, want 0 (input-only, refused when not empty)", fwhat, ps["maxLength"])
				}
			} else {
				max, _ := strconv.Atoi(sf.Tag.Get("max"))
				wantMaxLength(t, fwhat, ps, max)
			}
			if slices.Contains(flags, "unsupported") {
				if d, _ := ps["description"].(string); !strings.Contains(d, "400/408") {
					t.Errorf("%s: not yet supported, but the description does not say 400/408", fwhat)
				}
			}
			ro := slices.Contains(flags, "ro")
			if got, _ := ps["readOnly"].(bool); got != ro {
				t.Errorf("%s: readOnly %v, want %v", fwhat, got, ro)
			}
			inner := ft.Field(0).Type
			switch {
			case inner == reflect.TypeFor[wayfarer.Date]():
				wantReferenceDate(t, fwhat, ps)
			case inner == reflect.TypeFor[wayfarer.Timestamp]():
				wantType(t, fwhat, ps, "string", "date-time")
			case inner == reflect.TypeFor[wayfarer.FileData]():
				wantType(t, fwhat, ps, "string", "byte")
			case inner.Kind() == reflect.String:
				wantType(t, fwhat, ps, "string", "")
			case inner.Kind() == reflect.Bool:
				wantType(t, fwhat, ps, "boolean", "")
			case inner.Kind() == reflect.Int64:
				wantType(t, fwhat, ps, "integer", "int64")
			case inner.Kind() == reflect.Int:
				wantType(t, fwhat, ps, "integer", "")
			default:
				t.Errorf("%s: no schema type known for %v", fwhat, inner)
			}
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct:
			wantType(t, fwhat, ps, "array", "")
			checkRecordSchema(t, doc, fwhat+"[]", ft.Elem(), oaObj(t, ps["items"], fwhat+".items"))
		case ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct:
			checkRecordSchema(t, doc, fwhat, ft.Elem(), ps)
		default:
			t.Errorf("%s: unexpected Go type %v", fwhat, ft)
		}
	}
	for name := range props {
		if !fields[name] {
			t.Errorf("%s.%s is not a field of %v", what, name, typ)
		}
	}
}

// TestOpenAPIErrorsAndDecisions: every 4xx answer is the error body, and the
// decisions the contract leaves open are marked.
func TestOpenAPIErrorsAndDecisions(t *testing.T) {
	doc := loadOpenAPI(t)
	const jsonType = "application/json; charset=utf-8"
	for path, item := range doc.get(t, "paths") {
		for verb, op := range oaObj(t, item, path) {
			if !slices.Contains(openAPIMethods, verb) {
				continue
			}
			what := strings.ToUpper(verb) + " " + path
			responses := oaObj(t, oaObj(t, op, what)["responses"], what+" responses")
			if _, ok := responses["200"]; !ok && what != "GET /login" && what != "GET "+base181+"/login" {
				t.Errorf("%s: no 200 answer", what)
			}
			for status, resp := range responses {
				if !strings.HasPrefix(status, "4") {
					continue
				}
				r := doc.resolve(t, oaObj(t, resp, what+" "+status))
				if (what == "GET /login" || what == "GET "+base181+"/login") && status == "404" {
					if r["content"] != nil {
						t.Errorf("GET /login 404: documented with a body")
					}
					continue // the unknown-method answer: no body
				}
				content := oaObj(t, r["content"], what+" "+status+" content")
				mt := oaObj(t, content[jsonType], what+" "+status+" "+jsonType)
				if ref, _ := oaObj(t, mt["schema"], what+" schema")["$ref"].(string); ref != "#/components/schemas/ErrorBody" {
					t.Errorf("%s %s: schema %v, want the ErrorBody", what, status, mt["schema"])
				}
			}
		}
	}

	decided := func(m map[string]any, what string) {
		t.Helper()
		if s, _ := m["x-wayfarer-decision"].(string); strings.TrimSpace(s) == "" {
			t.Errorf("%s: no x-wayfarer-decision", what)
		}
	}
	decided(doc.get(t, "components", "responses", "PersonNotFound"), "404/601 answer")
	decided(doc.get(t, "components", "responses", "TooManyLogins"), "429/109 answer")
	decided(doc.get(t, "components", "parameters", "ClientVersion"), "X-Client-Version header")
	decided(doc.get(t, "components", "schemas", "TagsSearchParams"), "TagsSearchParams")
	decided(doc.get(t, "components", "schemas", "DateTimeUTCSearchParam"), "DateTimeUTCSearchParam")
	decided(doc.get(t, "components", "schemas", "PersonSaveBody"), "person save body")
	decided(doc.get(t, "paths", "/personSearch", "post", "responses", "200", "content", "text/csv; charset=utf-8"), "CSV answer")
	var decrypt map[string]any
	for _, p := range doc.get(t, "paths", "/person/{recNo}", "get")["parameters"].([]any) {
		if pm := oaObj(t, p, "parameter"); pm["name"] == "decrypt" && pm["in"] == "query" {
			decrypt = pm
		}
	}
	if decrypt == nil {
		t.Fatal("GET /person/{recNo}: no decrypt query parameter")
	}
	decided(decrypt, "decrypt query parameter")

	// Security: bearer JWT everywhere but login, version and health; Basic on GET /login/{alias}.
	bearer := doc.get(t, "components", "securitySchemes", "bearerAuth")
	if bearer["scheme"] != "bearer" || bearer["bearerFormat"] != "JWT" {
		t.Errorf("bearerAuth: %v", bearer)
	}
	if basic := doc.get(t, "components", "securitySchemes", "basicAuth"); basic["scheme"] != "basic" {
		t.Errorf("basicAuth: %v", basic)
	}
	sec, _ := json.Marshal(doc.get(t, "paths", "/login/{alias}", "get")["security"])
	if string(sec) != `[{"basicAuth":[]}]` {
		t.Errorf("GET /login/{alias} security %s", sec)
	}

	// The result code table of docs/api.md is in the description.
	desc, _ := doc.get(t, "info")["description"].(string)
	for _, code := range []int{0, 100, 108, 109, 300, 305, 404, 405, 406, 407, 408, 410, 411, 412, 413, 420, 600, 601, 602, 900, 901} {
		if !strings.Contains(desc, "| "+strconv.Itoa(code)+" |") {
			t.Errorf("info.description: no row for result code %d", code)
		}
	}
}

// templateShape is '1' per literal segment, '0' per parameter: of two
// templates matching one path, the greater shape is the more specific.
func templateShape(tmpl string) string {
	var b strings.Builder
	for _, s := range strings.Split(strings.Trim(tmpl, "/"), "/") {
		if strings.HasPrefix(s, "{") {
			b.WriteByte('0')
		} else {
			b.WriteByte('1')
		}
	}
	return b.String()
}
