package jsoncodec

import (
	"bytes"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

func TestDateJSON(t *testing.T) {
	var v struct {
		D wayfarer.Opt[wayfarer.Date] `json:"d,omitzero"`
	}
	if err := Strict.Decode([]byte(`{"d":"02/29/2024"}`), &v, "m"); err != nil {
		t.Fatal(err)
	}
	b, _ := Marshal(v)
	if string(b) != `{"d":"2024-02-29T00:00:00"}` {
		t.Errorf("got %s", b)
	}
	if err := Strict.Decode([]byte(`{"d":null}`), &v, "m"); err != nil || !v.D.Present || v.D.Valid {
		t.Errorf("null: %+v %v", v.D, err)
	}
	b, _ = Marshal(v)
	if string(b) != `{"d":null}` {
		t.Errorf("null: %s", b)
	}
	v.D = wayfarer.Opt[wayfarer.Date]{}
	if b, _ = Marshal(v); string(b) != `{}` {
		t.Errorf("absent: %s", b)
	}
	for body, want := range map[string]string{
		`{"d":"soon"}`:   "Error deserializing Json: expected a date (YYYY-MM-DD, MM/DD/YYYY or an ISO date-time), found a string in another form. Path 'd'.",
		`{"d":20240229}`: "Error deserializing Json: expected a date (YYYY-MM-DD, MM/DD/YYYY or an ISO date-time), found a number. Path 'd'.",
	} {
		if e := wayfarer.AsError(Strict.Decode([]byte(body), &v, "m")); e == nil || e.Message != want {
			t.Errorf("%s: %v", body, e)
		}
	}
}

// TestReferenceDateForms: every date form the devportal and the Java
// client's recorded traffic show is read, and answers use the reference's.
func TestReferenceDateForms(t *testing.T) {
	for in, want := range map[string]string{
		`"2025-12-31T00:00:00"`:               "2025-12-31T00:00:00", // Person.md, card expirationDate
		`"2022-12-31T00:00:00"`:               "2022-12-31T00:00:00", // TripSearch.md
		`"12/31/2001"`:                        "2001-12-31T00:00:00", // DateSearchParam
		`"2001-12-31"`:                        "2001-12-31T00:00:00",
		`"2023-08-29T09:33:27-07:00"`:         "2023-08-29T00:00:00", // a date-time: the date as written
		`"2022-07-26T02:34:26.5941981+00:00"`: "2022-07-26T00:00:00",
	} {
		var d wayfarer.Date
		if err := Strict.Decode([]byte(in), &d, "m"); err != nil {
			t.Errorf("date %s: %v", in, err)
			continue
		}
		if b, _ := Marshal(d); string(b) != `"`+want+`"` {
			t.Errorf("date %s: answered %s, want %q", in, b, want)
		}
	}
	for in, want := range map[string]string{
		`"2023-08-29T09:33:27-07:00"`:         "2023-08-29T16:33:27+00:00", // AppSettingSearch.md
		`"2022-07-26T02:34:26.5941981+00:00"`: "2022-07-26T02:34:26.594198+00:00",
		`"2022-01-28T10:19:15.3242333-08:00"`: "2022-01-28T18:19:15.324233+00:00",
		`"2002-01-10T00:00:00"`:               "2002-01-10T00:00:00+00:00", // no offset: UTC
		`"2026-11-21T09:00:00Z"`:              "2026-11-21T09:00:00+00:00",
	} {
		var ts wayfarer.Timestamp
		if err := Strict.Decode([]byte(in), &ts, "m"); err != nil {
			t.Errorf("timestamp %s: %v", in, err)
			continue
		}
		b, _ := Marshal(ts)
		if string(b) != `"`+want+`"` {
			t.Errorf("timestamp %s: answered %s, want %q", in, b, want)
		}
		// What an answer holds reads back as the same instant.
		var back wayfarer.Timestamp
		if err := Strict.Decode(b, &back, "m"); err != nil || back != ts {
			t.Errorf("timestamp %s: %s reads back as %v (%v)", in, b, back, err)
		}
	}
}

func TestFileDataJSON(t *testing.T) {
	var v struct {
		F wayfarer.Opt[wayfarer.FileData] `json:"f,omitzero"`
	}
	for _, in := range []string{`{"f":"aGVsbG8="}`, `{"f":"aGVsbG8"}`, "{\"f\":\"aGVs\\r\\nbG8=\"}"} {
		if err := Strict.Decode([]byte(in), &v, "m"); err != nil || string(v.F.Value.Bytes()) != "hello" {
			t.Errorf("%s: %q %v", in, v.F.Value.Bytes(), err)
		}
	}
	if b, _ := Marshal(v); string(b) != `{"f":"aGVsbG8="}` {
		t.Errorf("answered %s", b)
	}
	e := wayfarer.AsError(Strict.Decode([]byte(`{"f":"not base64!"}`), &v, "m"))
	if e == nil || e.Message != "Error deserializing Json: expected base64 data, found a string in another form. Path 'f'." {
		t.Errorf("bad base64: %v", e)
	}
	if err := Strict.Decode([]byte(`{"f":null}`), &v, "m"); err != nil || !v.F.Present || v.F.Valid {
		t.Errorf("null: %+v %v", v.F, err)
	}
}

func TestTimestampJSON(t *testing.T) {
	var ts wayfarer.Timestamp
	if err := Strict.Decode([]byte(`"2024-03-01T12:00:00.1234567+02:00"`), &ts, "m"); err != nil {
		t.Fatal(err)
	}
	b, _ := Marshal(ts)
	if string(b) != `"2024-03-01T10:00:00.123456+00:00"` {
		t.Errorf("got %s", b)
	}
	if wayfarer.TimestampOf(time.Date(2024, 3, 1, 10, 0, 0, 123456000, time.UTC)) != ts {
		t.Error("normalized timestamps differ")
	}
	if err := Strict.Decode([]byte(`"yesterday"`), &ts, "m"); err == nil {
		t.Error("bad timestamp accepted")
	}
}

// The same mistake gets the same answer wherever it is made: the form is
// built from the JSON kind found and the Go type expected, never the value.
func TestOneFormForWrongTypes(t *testing.T) {
	type inner struct {
		N  int64                            `json:"n"`
		S  wayfarer.Opt[string]             `json:"s"`
		B  *bool                            `json:"b"`
		A  []int16                          `json:"a"`
		TS wayfarer.Opt[wayfarer.Timestamp] `json:"ts"`
	}
	var v struct {
		List []inner `json:"list"`
	}
	for body, want := range map[string]string{
		`{"list":[{},{"n":"1"}]}`:           "expected a whole number, found a string. Path 'list[1].n'.",
		`{"list":[{"s":4111111111111111}]}`: "expected a string, found a number. Path 'list[0].s'.",
		`{"list":[{"b":[]}]}`:               "expected true or false, found an array. Path 'list[0].b'.",
		`{"list":[{"a":[1,{}]}]}`:           "expected a whole number from -32768 to 32767, found an object. Path 'list[0].a[1]'.",
		`{"list":[{"a":[null]}]}`:           "expected a whole number from -32768 to 32767, found null. Path 'list[0].a[0]'.",
		`{"list":[{"n":null}]}`:             "expected a whole number, found null. Path 'list[0].n'.",
		`{"list":{}}`:                       "expected an array, found an object. Path 'list'.",
		`{"list":[{"ts":true}]}`:            "expected a date and time (RFC 3339), found true or false. Path 'list[0].ts'.",
		`{"list":[{"n":1e400}]}`:            "expected a whole number, found a number. Path 'list[0].n'.",
	} {
		e := wayfarer.AsError(Strict.Decode([]byte(body), &v, "m"))
		if e == nil || e.Code != contract.CodeDeserialization || e.Message != "Error deserializing Json: "+want {
			t.Errorf("%s: %v, want %q", body, e, want)
		}
	}
}

// One syntax error, one message, one position.
func TestSyntaxErrorsHaveOnePosition(t *testing.T) {
	var v struct {
		A []map[string]any `json:"a"`
	}
	for body, want := range map[string]string{
		"{\n  \"a\": [{\"x\": tru}]\n}": "Error deserializing Json: invalid character '}' in literal true (expecting 'e'). Path 'a[0].x', line 2, position 18.",
		`{"a": [}`:                      "Error deserializing Json: invalid character '}' at start of value. Path 'a[0]', line 1, position 8.",
		"{\"a\":[]}\n\n x":              "Error deserializing Json: invalid character 'x' after top-level value. Line 3, position 2.",
		`{"a":[{"é":"\x"}]}`:            "Error deserializing Json: an invalid escape sequence in a string. Path 'a[0].(withheld key)', line 1, position 13.",
		`{"a":[], "A":[]}`:              "Error deserializing Json: a member name that appears twice (names match regardless of case). Path 'A', line 1, position 10.",
	} {
		e := wayfarer.AsError(Strict.Decode([]byte(body), &v, "m"))
		if e == nil || e.Code != contract.CodeDeserialization || e.Message != want {
			t.Errorf("%q:\n got %v\nwant %s", body, e, want)
		}
	}
}

// Names match regardless of case but not of delimiters.
func TestNameMatching(t *testing.T) {
	var v struct {
		Branch wayfarer.Opt[int64]  `json:"branch_recNo"`
		First  wayfarer.Opt[string] `json:"firstName"`
	}
	if err := Strict.Decode([]byte(`{"BRANCH_RECNO":1,"firstname":"a"}`), &v, "m"); err != nil || v.Branch.Value != 1 || v.First.Value != "a" {
		t.Fatalf("%+v %v", v, err)
	}
	e := wayfarer.AsError(Strict.Decode([]byte(`{"branchRecNo":1}`), &v, "m"))
	if e == nil || e.Message != "branchRecNo: unknown field; did you mean branch_recNo?" {
		t.Errorf("delimiter: %v", e)
	}
	e = wayfarer.AsError(Strict.Decode([]byte(`{"qqqqqqq":1}`), &v, "m"))
	if e == nil || e.Message != "qqqqqqq: unknown field" {
		t.Errorf("nothing close: %v", e)
	}
	// a tab is text, so a name holding one is unknown, not a control character
	e = wayfarer.AsError(Strict.Decode([]byte(`{"first\tName":1}`), &v, "m"))
	if e == nil || e.Code != contract.CodeDeserialization || e.Message != "(withheld key): unknown field; did you mean firstName?" {
		t.Errorf("a tab in a name: %v", e)
	}
	e = wayfarer.AsError(Strict.Decode([]byte(`{"first\u0000Name":1}`), &v, "m"))
	if e == nil || e.Code != contract.CodeInvalidValue || !strings.Contains(e.Message, "(U+0000) in a key of the top-level object") {
		t.Errorf("a NUL in a name: %v", e)
	}
}

// With WarnUnknown, unknown members are skipped and each path is logged
// once per process, indexes stripped, names withheld as in errors.
func TestWarnUnknownLogsOnce(t *testing.T) {
	var logs bytes.Buffer
	d := NewDecoder(WarnUnknown, slog.New(slog.NewTextHandler(&logs, nil)))
	type item struct {
		Name string `json:"name"`
	}
	var v struct {
		Items []item `json:"items"`
	}
	for range 3 {
		if err := d.Decode([]byte(`{"items":[{"name":"a","nmae":"b"},{"nmae":"c","4111111111111111":1}],"extra":{"x":1}}`), &v, "m"); err != nil {
			t.Fatal(err)
		}
	}
	if v.Items[1].Name != "" || v.Items[0].Name != "a" {
		t.Errorf("decoded %+v", v)
	}
	out := logs.String()
	for _, want := range []string{"field=items[].nmae", `field="items[].(withheld key)"`, "field=extra"} {
		if strings.Count(out, want) != 1 {
			t.Errorf("%q logged %d times:\n%s", want, strings.Count(out, want), out)
		}
	}
	if strings.Contains(out, "4111") || strings.Count(out, "level=WARN") != 3 {
		t.Errorf("log:\n%s", out)
	}
}

func TestUnsupportedMembers(t *testing.T) {
	type row struct {
		Later wayfarer.Opt[bool] `json:"later" wf:"unsupported"`
	}
	var v struct {
		Rows []row          `json:"rows"`
		Any  map[string]any `json:"any" wf:"unsupported"`
	}
	for _, body := range []string{`{"rows":[{"later":null}],"any":{}}`, `{"any":null}`} {
		if err := Strict.Decode([]byte(body), &v, "m"); err != nil {
			t.Errorf("%s: %v", body, err)
		}
	}
	for body, want := range map[string]string{
		`{"rows":[{},{"later":false}]}`: "rows[1].later: not yet supported by Wayfarer",
		`{"any":{"a":1}}`:               "any: not yet supported by Wayfarer",
	} {
		v.Rows, v.Any = nil, nil // a decode merges into what v holds
		e := wayfarer.AsError(Strict.Decode([]byte(body), &v, "m"))
		if e == nil || e.Code != contract.CodeNotSupported || e.Message != want {
			t.Errorf("%s: %v", body, e)
		}
	}
}

// The walk for unsupported members looks only where one can be, and finds
// one however deep a type that holds itself nests it; many decodes at once
// of a type never seen before all find it (the walk's plan of a type is
// made once, never used half made).
func TestUnsupportedMembersNested(t *testing.T) {
	type node struct {
		Name  wayfarer.Opt[string] `json:"name"`
		Later wayfarer.Opt[string] `json:"later" wf:"unsupported"`
		Kids  []*node              `json:"kids"`
	}
	type tree struct {
		Root node `json:"root"`
	}
	body := []byte(`{"root":{"name":"a","kids":[{"name":"b"},{"kids":[{"name":"c","later":"x"}]}]}}`)
	const want = "root.kids[1].kids[0].later: not yet supported by Wayfarer"
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			var v tree
			if e := wayfarer.AsError(Strict.Decode(body, &v, "m")); e == nil || e.Code != contract.CodeNotSupported || e.Message != want {
				t.Errorf("%v, want %q", e, want)
			}
		})
	}
	wg.Wait()
	var v tree
	if err := Strict.Decode([]byte(`{"root":{"kids":[{"kids":[{"later":null}]}]}}`), &v, "m"); err != nil {
		t.Errorf("an empty unsupported member refused: %v", err)
	}
	if ms := unsupportedMembers(reflect.TypeFor[node]()); len(ms) != 2 || ms[0].name != "later" || ms[1].name != "kids" {
		t.Errorf("walked members %+v, want later and kids", ms)
	}
}

// A type that embeds another (Go embedding, or a field tagged ",embed")
// replaces one of its members by declaring it again, as Go embedding does:
// paths, unknown names and unsupported members follow the replacement.
func TestEmbeddedMembersReplaced(t *testing.T) {
	type inner struct {
		Name  wayfarer.Opt[string] `json:"name"`
		Items []int                `json:"items"`
		Later []any                `json:"later" wf:"unsupported"`
	}
	type outer struct {
		inner
		Items []struct {
			ID wayfarer.Opt[int64] `json:"id"`
		} `json:"items"`
		Later wayfarer.Opt[string] `json:"later"` // served here
	}
	var v struct {
		Body outer `json:",embed"`
		More bool  `json:"more"`
	}
	if err := Strict.Decode([]byte(`{"name":"a","items":[{"id":1}],"later":"now","more":true}`), &v, "m"); err != nil {
		t.Fatal(err)
	}
	if v.Body.Name.Value != "a" || v.Body.Items[0].ID.Value != 1 || v.Body.inner.Items != nil || v.Body.Later.Value != "now" || !v.More {
		t.Fatalf("%+v", v)
	}
	for body, want := range map[string]string{
		`{"items":[{"id":1},{"id":"x"}]}`: "Error deserializing Json: expected a whole number, found a string. Path 'items[1].id'.",
		`{"items":[{"idd":1}]}`:           "items[0].idd: unknown field; did you mean id?",
	} {
		if e := wayfarer.AsError(Strict.Decode([]byte(body), &v, "m")); e == nil || !strings.Contains(e.Message, want) {
			t.Errorf("%s: %v, want %q", body, e, want)
		}
	}
	if len(membersOf(reflect.TypeOf(v))) != 4 {
		t.Errorf("members %+v", membersOf(reflect.TypeOf(v)))
	}
}

func TestAppendString(t *testing.T) {
	for in, want := range map[string]string{
		"plain":       `"plain"`,
		`O"Neil\x`:    `"O\"Neil\\x"`,
		"<b>&":        `"\u003cb\u003e\u0026"`,
		"a\tb\nc\x01": `"a\tb\nc\u0001"`,
		"Zoë 東京":      `"Zoë 東京"`,
		"\u2028\xff":  "\"\\u2028\ufffd\"",
	} {
		if got := string(AppendString(nil, in)); got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
		if b, _ := Marshal(in); string(b) != want {
			t.Errorf("%q: Marshal %s, want %s", in, b, want)
		}
	}
}

func TestParseUnknownFields(t *testing.T) {
	for s, want := range map[string]UnknownFields{"": RejectUnknown, "reject": RejectUnknown, "warn": WarnUnknown} {
		if got, err := ParseUnknownFields(s); err != nil || got != want {
			t.Errorf("%q: %v %v", s, got, err)
		}
	}
	if _, err := ParseUnknownFields("ignore"); err == nil {
		t.Error("ignore accepted")
	}
}

// Whole numbers: a plain integer is read on a short way, every other form
// goes the general way, and both answer as the general way always has
// (these answers were recorded before the short way existed).
func TestWholeNumbers(t *testing.T) {
	type rec struct {
		A wayfarer.Opt[int64] `json:"a"`
		B wayfarer.Opt[int]   `json:"b"`
		C []struct {
			D wayfarer.Opt[int64] `json:"d"`
		} `json:"c"`
	}
	for body, want := range map[string]string{
		`{"a":-0,"b":7}`:             "",
		`{"a" : 12 , "b":-3 }`:       "",
		"{\"a\":\n\t12\r\n}":         "",
		`{"a":9223372036854775807}`:  "",
		`{"a":-9223372036854775808}`: "",
		`{"c":[{"d":5},{"d":null}]}`: "",
		`{"a":1.5}`:                  "Error deserializing Json: expected a whole number, found a number. Path 'a'.",
		`{"b":1e2}`:                  "Error deserializing Json: expected a whole number, found a number. Path 'b'.",
		`{"c":[{},{"d":1.0}]}`:       "Error deserializing Json: expected a whole number, found a number. Path 'c[1].d'.",
		`{"a":9223372036854775808}`:  "Error deserializing Json: expected a whole number, found a number. Path 'a'.",
		`{"a":"1"}`:                  "Error deserializing Json: expected a whole number, found a string. Path 'a'.",
		`{"a":01}`:                   "Error deserializing Json: invalid character '1' after object value (expecting ',' or '}'). Line 1, position 7.",
		`{"a":2.}`:                   "Error deserializing Json: invalid character '}' in number (expecting digit). Path 'a', line 1, position 8.",
		`{"a":12`:                    "Error deserializing Json: the body ends before the JSON value does. Line 1, position 8.",
		`{"a":-`:                     "Error deserializing Json: the body ends before the JSON value does. Path 'a', line 1, position 6.",
	} {
		var v rec
		err := Strict.Decode([]byte(body), &v, "m")
		if e := wayfarer.AsError(err); want == "" && err != nil || want != "" && (e == nil || e.Message != want) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
	var v rec
	if err := Strict.Decode([]byte(`{"a":-0,"b":7,"c":[{"d":5},{"d":null}]}`), &v, "m"); err != nil ||
		v.A != wayfarer.Some[int64](0) || v.B != wayfarer.Some(7) || v.C[0].D != wayfarer.Some[int64](5) || v.C[1].D != wayfarer.Null[int64]() {
		t.Errorf("%+v %v", v, err)
	}
}
