package wayfarer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

func TestCheckJSONTextClean(t *testing.T) {
	for _, body := range []string{
		``,
		`null`,
		`{}`,
		`[]`,
		`"plain"`,
		`{"firstName":"Ken","lastName":"Abler","activeStatus":1,"remarks":null,"x":[true,false,-1.5e3,{}]}`,
		`{"remarks":"Zoë, Ærøskøbing, 東京, Москва, مرحبا, 🙂"}`,
		`{"remarks":"\ud83d\ude42 \u00e9 \u6771 \ufffd \u2028 \u0080 \u009f"}`,  // pairs, U+FFFD as sent, C1 not refused
		"{\"notes\":\"line 1\\nline 2\\r\\n\\tindented\\u0009\\u000a\\u000D\"}", // tab, LF, CR allowed everywhere
		"{\"firstName\":\"Ken\\tAbler\"}",
		`{"a":"\"\\\/"}`,
		`{"":""}`,
		"{\"emoji raw\":\"\xf0\x9f\x99\x82\",\"max\":\"\xf4\x8f\xbf\xbf\"}",
		`[[1,2],["a","b"],{"c":[{"d":"e"}]}]`,
		strings.Repeat("[", 100) + `"deep"` + strings.Repeat("]", 100),
	} {
		if err := CheckJSONText([]byte(body), MethodPerson); err != nil {
			t.Errorf("CheckJSONText(%q) = %v, want nil", body, err)
		}
	}
}

// Malformed JSON is the decoder's to report, even when it also holds bad text.
func TestCheckJSONTextLeavesMalformedToTheDecoder(t *testing.T) {
	for _, body := range []string{
		"{\"a\":\"\xff\"",         // unterminated object
		"{\"a\":\"\xff",           // unterminated string
		"{\"a\":\"\xff\"}}",       // extra closer
		"{\"a\":\"\\u0000\"} x",   // trailing garbage
		"{\"a\":\"\\u0000\"}{}",   // two values
		"{\"a\":\"\\u00\"}",       // short escape
		"{\"a\":\"\\x41\"}",       // unknown escape
		"{\"a\":\"tab\there\"}",   // raw control characters are not JSON
		"{\"a\":\"nul\x00here\"}", // raw NUL
		"{\"a\":\"\xff\",}",       // trailing comma
		"]\"\xff\"",
		"\xff",
		"{\xff:1}",
	} {
		if err := CheckJSONText([]byte(body), MethodPerson); err != nil {
			t.Errorf("CheckJSONText(%q) = %v, want nil", body, err)
		}
		if json.Valid([]byte(body)) {
			t.Errorf("fixture %q is valid JSON", body)
		}
	}
}

func TestCheckJSONTextRefuses(t *testing.T) {
	cases := []struct {
		name, body string
		code       int
		message    string // the whole resultDescription
	}{
		{"bad byte in a nested value",
			"{\"personCommunicationLink\":[{\"communication\":{\"value\":\"ok\"}},{\"communication\":{\"type\":1,\"value\":\"a\xffb\"}}]}",
			contract.CodeDeserialization, "Error deserializing Json: invalid UTF-8 in a string. Path 'personCommunicationLink[1].communication.value'."},
		{"truncated sequence", "{\"remarks\":\"caf\xc3\"}", contract.CodeDeserialization, "Error deserializing Json: invalid UTF-8 in a string. Path 'remarks'."},
		{"overlong encoding", "{\"remarks\":\"\xc0\xaf\"}", contract.CodeDeserialization, "Error deserializing Json: invalid UTF-8 in a string. Path 'remarks'."},
		{"encoded surrogate", "{\"remarks\":\"\xed\xa0\x80\"}", contract.CodeDeserialization, "Error deserializing Json: invalid UTF-8 in a string. Path 'remarks'."},
		{"beyond U+10FFFF", "{\"remarks\":\"\xf4\x90\x80\x80\"}", contract.CodeDeserialization, "Error deserializing Json: invalid UTF-8 in a string. Path 'remarks'."},
		{"Latin-1 body", "{\"lastName\":\"M\xfcller\"}", contract.CodeDeserialization, "Error deserializing Json: invalid UTF-8 in a string. Path 'lastName'."},
		{"old side of a dataset",
			"{\"oldNewDataset\":{\"oldData\":[{\"recNo\":1,\"remarks\":\"\xfe\"}],\"newData\":[{\"recNo\":1}]}}",
			contract.CodeDeserialization, "Error deserializing Json: invalid UTF-8 in a string. Path 'oldNewDataset.oldData[0].remarks'."},
		{"bad byte in a key", "{\"personTag\":[{\"tag_recNo\":1},{\"va\xfflue\":\"x\"}]}",
			contract.CodeDeserialization, "Error deserializing Json: invalid UTF-8 in a key of this object. Path 'personTag[1]'."},
		{"bad byte in a top-level key", "{\"\xff\":1}", contract.CodeDeserialization, "Error deserializing Json: invalid UTF-8 in a key of the top-level object."},
		{"top-level string", "\"\xff\"", contract.CodeDeserialization, "Error deserializing Json: invalid UTF-8 in a string."},
		{"array of arrays", "[[\"a\"],[\"b\",\"c\xff\"]]", contract.CodeDeserialization, "Error deserializing Json: invalid UTF-8 in a string. Path '[1][1]'."},
		{"lone high surrogate", `{"remarks":"\ud800"}`, contract.CodeDeserialization, "Error deserializing Json: an unpaired UTF-16 surrogate escape in a string. Path 'remarks'."},
		{"lone low surrogate", `{"remarks":"x\uDC00y"}`, contract.CodeDeserialization, "Error deserializing Json: an unpaired UTF-16 surrogate escape in a string. Path 'remarks'."},
		{"high then letter", `{"remarks":"\ud83d\u0041"}`, contract.CodeDeserialization, "Error deserializing Json: an unpaired UTF-16 surrogate escape in a string. Path 'remarks'."},
		{"high then high", `{"remarks":"\ud83d\ud83d\ude42"}`, contract.CodeDeserialization, "Error deserializing Json: an unpaired UTF-16 surrogate escape in a string. Path 'remarks'."},
		{"high at the end", `{"remarks":"\ud83d"}`, contract.CodeDeserialization, "Error deserializing Json: an unpaired UTF-16 surrogate escape in a string. Path 'remarks'."},

		{"escaped NUL", `{"personActionItemLink":[{"personActionItem":{"notes":"a\u0000b"}}]}`,
			contract.CodeInvalidValue, "Invalid value: a control character (U+0000) in a string; of the control characters only tab, line feed and carriage return are allowed. Path 'personActionItemLink[0].personActionItem.notes'."},
		{"escape", `{"remarks":"\u001b[31m"}`, contract.CodeInvalidValue, "Invalid value: a control character (U+001B) in a string; of the control characters only tab, line feed and carriage return are allowed. Path 'remarks'."},
		{"unit separator", `{"remarks":"\u001F"}`, contract.CodeInvalidValue, "(U+001F) in a string"},
		{"vertical tab", `{"remarks":"\u000b"}`, contract.CodeInvalidValue, "(U+000B) in a string"},
		{"backspace", `{"remarks":"\b"}`, contract.CodeInvalidValue, "(U+0008) in a string"},
		{"form feed", `{"remarks":"\f"}`, contract.CodeInvalidValue, "(U+000C) in a string"},
		{"escaped DEL", `{"remarks":"\u007F"}`, contract.CodeInvalidValue, "(U+007F) in a string"},
		{"raw DEL", "{\"remarks\":\"a\x7fb\"}", contract.CodeInvalidValue, "(U+007F) in a string; of the control characters only tab, line feed and carriage return are allowed. Path 'remarks'."},
		{"control in a key", `{"personTag":[{"value\u0000":"x"}]}`, contract.CodeInvalidValue,
			"Invalid value: a control character (U+0000) in a key of this object; of the control characters only tab, line feed and carriage return are allowed. Path 'personTag[0]'."},
		{"control in a top-level key", `{"\u0001":1}`, contract.CodeInvalidValue, "(U+0001) in a key of the top-level object; of the control characters only tab, line feed and carriage return are allowed."},
		{"top-level string control", `"\u0000"`, contract.CodeInvalidValue, "(U+0000) in a string; of the control characters only tab, line feed and carriage return are allowed."},
		{"after other members", `{"a":[1,{"b":"x"},{"c":["d",{"e":"\u0002"}]}],"f":"\u0003"}`, contract.CodeInvalidValue, "(U+0002) in a string; of the control characters only tab, line feed and carriage return are allowed. Path 'a[2].c[1].e'."},
		{"first problem wins", "{\"a\":\"\\u0000\",\"b\":\"\xff\"}", contract.CodeInvalidValue, "Path 'a'."},
		{"first problem wins, other order", "{\"a\":\"\xff\",\"b\":\"\\u0000\"}", contract.CodeDeserialization, "Path 'a'."},
		{"a later member of the same object", `{"a":"x","b":"y","c":"\u0000"}`, contract.CodeInvalidValue, "Path 'c'."},
		{"key spelled by the client", `{"RemarKs":"\u0000"}`, contract.CodeInvalidValue, "Path 'RemarKs'."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !json.Valid([]byte(c.body)) {
				t.Fatalf("fixture is not JSON")
			}
			err := CheckJSONText([]byte(c.body), MethodParam)
			e := AsError(err)
			if e == nil {
				t.Fatalf("want %d, got %v", c.code, err)
			}
			if e.Kind != KindInvalid || e.Code != c.code || e.Method != MethodParam || !strings.Contains(e.Message, c.message) {
				t.Fatalf("got kind %d code %d method %s %q; want code %d with %q", e.Kind, e.Code, e.Method, e.Message, c.code, c.message)
			}
			if strings.HasPrefix(c.message, "Error") || strings.HasPrefix(c.message, "Invalid") {
				if e.Message != c.message {
					t.Fatalf("message %q, want %q", e.Message, c.message)
				}
			}
		})
	}
}

// Keys appear in paths as sent, except those that could carry a card
// number or be anything but a name.
func TestCheckJSONTextWithholdsOddKeys(t *testing.T) {
	for _, key := range []string{
		`4111111111111111`, `4111-1111-1111-1111`, `card 4111 1111 1111 1111`,
		`\u0034111111111111111`, `k\u0041`, strings.Repeat("k", 65), `a.b`, `x'y`, ``, `Zoë`,
	} {
		body := `{"personTag":[{"` + key + `":{"value":"\u0000"}}]}`
		e := AsError(CheckJSONText([]byte(body), MethodPerson))
		if e == nil {
			t.Fatalf("%s: not refused", body)
		}
		if !strings.HasSuffix(e.Message, "Path 'personTag[0].(withheld key).value'.") {
			t.Errorf("key %q: %q", key, e.Message)
		}
		if strings.Contains(e.Message, "1111") {
			t.Errorf("key %q echoed: %q", key, e.Message)
		}
	}
	e := AsError(CheckJSONText([]byte(`{"emergency_Contact-Phone$2":"\u0000"}`), MethodPerson))
	if e == nil || !strings.HasSuffix(e.Message, "Path 'emergency_Contact-Phone$2'.") {
		t.Errorf("a plain key is not shown as sent: %v", e)
	}
}

// Values are never echoed, whatever they hold.
func TestCheckJSONTextNeverEchoesValues(t *testing.T) {
	for _, body := range []string{
		"{\"remarks\":\"4111 1111 1111 1111 \xff\"}",
		`{"remarks":"4111 1111 1111 1111 \u0000"}`,
		`{"remarks":"4111111111111111\ud800"}`,
	} {
		e := AsError(CheckJSONText([]byte(body), MethodPerson))
		if e == nil || strings.Contains(e.Message, "4111") || strings.Contains(e.Message, "1111") {
			t.Errorf("%q: %v", body, e)
		}
	}
}

// TestCheckJSONTextPaths injects a problem into one random string of a
// random document and checks the path named is where it was put.
func TestCheckJSONTextPaths(t *testing.T) {
	outer := rand.New(rand.NewPCG(5, 6))
	bad := []struct {
		raw  string // as it appears inside the JSON string
		code int
	}{
		{"\xff", contract.CodeDeserialization}, {"\xe2\x82", contract.CodeDeserialization}, {`\udfff`, contract.CodeDeserialization},
		{`\u0000`, contract.CodeInvalidValue}, {`\u0007`, contract.CodeInvalidValue}, {"\x7f", contract.CodeInvalidValue}, {`\f`, contract.CodeInvalidValue},
	}
	keys := []string{"a", "remarks", "personCardLink", "value", "x_1"}
	texts := []string{"", "plain", "Zoë", "\\n\\t", `\"q\"`, `\u00e9`, `\ud83d\ude42`, "東京", "[{,:}]", `\\`}
	// build writes a random document from seed; the string numbered target
	// (in document order) gets problem b. It returns the body and the path
	// of every value string.
	build := func(seed uint64, target int, b string) (string, []string) {
		rng := rand.New(rand.NewPCG(seed, 7))
		var sb strings.Builder
		var paths []string
		strVal := func(path string) {
			sb.WriteByte('"')
			sb.WriteString(texts[rng.IntN(len(texts))])
			if len(paths) == target {
				sb.WriteString(b)
			}
			sb.WriteString(texts[rng.IntN(len(texts))])
			sb.WriteByte('"')
			paths = append(paths, path)
		}
		var gen func(path string, depth int)
		gen = func(path string, depth int) {
			switch x := rng.IntN(10); {
			case depth > 4 || x < 4:
				switch rng.IntN(4) {
				case 0:
					sb.WriteString("12")
				case 1:
					sb.WriteString("null")
				default:
					strVal(path)
				}
			case x < 7:
				sb.WriteString("{ ")
				for j, n := 0, rng.IntN(4); j < n; j++ {
					if j > 0 {
						sb.WriteString(" ,\n")
					}
					k := keys[rng.IntN(len(keys))]
					fmt.Fprintf(&sb, "%q : ", k)
					gen(joinPath(path, k), depth+1)
				}
				sb.WriteString("}")
			default:
				sb.WriteString("[")
				for j, n := 0, rng.IntN(4); j < n; j++ {
					if j > 0 {
						sb.WriteString(",")
					}
					gen(indexPath(path, j), depth+1)
				}
				sb.WriteString(" ]")
			}
		}
		gen("", 0)
		return sb.String(), paths
	}
	tried := 0
	for i := 0; i < 3000; i++ {
		seed := outer.Uint64()
		clean, paths := build(seed, -1, "")
		if err := CheckJSONText([]byte(clean), MethodPerson); err != nil || !json.Valid([]byte(clean)) {
			t.Fatalf("clean %q: %v", clean, err)
		}
		if len(paths) == 0 {
			continue
		}
		target := outer.IntN(len(paths))
		b := bad[i%len(bad)]
		body, _ := build(seed, target, b.raw)
		e := AsError(CheckJSONText([]byte(body), MethodPerson))
		if e == nil || e.Code != b.code {
			t.Fatalf("%q: want %d, got %v", body, b.code, e)
		}
		want := "."
		if paths[target] != "" {
			want = fmt.Sprintf(". Path '%s'.", paths[target])
		}
		if !strings.HasSuffix(e.Message, want) || paths[target] == "" && strings.Contains(e.Message, "Path") {
			t.Fatalf("%q: %q, want the path %q", body, e.Message, paths[target])
		}
		tried++
	}
	if tried < 1000 {
		t.Errorf("only %d documents with strings", tried)
	}
}

// FuzzCheckJSONText checks the promises against encoding/json: an error only
// for JSON, nil never for JSON that holds invalid UTF-8 or a control
// character, and an error for both.
func FuzzCheckJSONText(f *testing.F) {
	for _, s := range []string{`{"a":"b"}`, "{\"a\":\"\xff\"}", `{"a":["\u0000"]}`, `"\ud800"`, `[1,{"k":"\t"}]`, "{\"\x7f\":1}", `{"a":"\ud83d\ude42"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		err := CheckJSONText(body, MethodPerson)
		valid := json.Valid(body)
		if err != nil && !valid {
			t.Fatalf("%q: refused malformed JSON: %v", body, err)
		}
		if err != nil {
			if e := AsError(err); e == nil || e.Code != contract.CodeDeserialization && e.Code != contract.CodeInvalidValue {
				t.Fatalf("%q: %v", body, err)
			}
		}
		if !valid {
			return
		}
		if !utf8.Valid(body) && err == nil {
			t.Fatalf("%q: invalid UTF-8 accepted", body)
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber() // numbers of any size
		if e := dec.Decode(&v); e != nil {
			t.Fatalf("%q: valid but does not decode: %v", body, e)
		}
		if hasControl(v) && err == nil {
			t.Fatalf("%q: a control character accepted", body)
		}
		if err == nil && hasRuneError(v) && !strings.Contains(strings.ToLower(string(body)), `\ufffd`) && !strings.Contains(string(body), "\ufffd") {
			t.Fatalf("%q: accepted, but decoding replaced something with U+FFFD", body)
		}
	})
}

func walkStrings(v any, f func(string) bool) bool {
	switch x := v.(type) {
	case string:
		return f(x)
	case []any:
		for _, e := range x {
			if walkStrings(e, f) {
				return true
			}
		}
	case map[string]any:
		for k, e := range x {
			if f(k) || walkStrings(e, f) {
				return true
			}
		}
	}
	return false
}

func hasControl(v any) bool {
	return walkStrings(v, func(s string) bool { return strings.ContainsFunc(s, isControlText) })
}

func hasRuneError(v any) bool {
	return walkStrings(v, func(s string) bool { return strings.ContainsRune(s, utf8.RuneError) })
}

// benchPersonBody is a realistic update body: a full person on both sides,
// with some non-ASCII text.
func benchPersonBody() []byte {
	p := `{"recNo":1042,"firstName":"Zoë","middleName":"M","lastName":"Ærøskøbing-Müller","courtesyTitle":"Dr.",
		"salutation":"Liebe Zoë","birthdayDay":15,"birthdayMonth":3,"birthdayYear":1980,"birthdayNote":"Geburtstag im Urlaub",
		"citizenship":"DE","redressNumber":"R1234567","knownTravelerNumber":"KTN98765","gender":"F","uniqueId":"u-1042",
		"branch_recNo":1,"branchName":"Main","advisorProfile_recNo":3,"advisorName":"Alice Advisor",
		"remarks":"Prefers aisle seats.\nVegetarian meals; allergic to nuts.\tWindow on long-haul flights to 東京.",
		"emergencyContactName":"Jörg Müller","emergencyContactRelationship":"Bruder","emergencyContactPhone":"+49 151 1234 5678",
		"emergencyContactEmail":"joerg@example.com","activeStatus":1,"age":46,
		"createDateTime":"2024-01-02T03:04:05.000000Z","lastModifiedDateTime":"2026-01-02T03:04:05.000000Z",
		"personCommunicationLink":[
			{"person_recNo":1042,"communication_recNo":7,"communication":{"recNo":7,"type":1,"subType":"mobile","value":"+49 151 1234 5678","countryDomain":"49","cityArea":"151","userSpecific":null,"description":"Handy","isPrimary":true,"permitMarketing":false,"contactOption":null}},
			{"person_recNo":1042,"communication_recNo":8,"communication":{"recNo":8,"type":2,"subType":"home","value":"zoe@example.com","countryDomain":null,"cityArea":null,"userSpecific":null,"description":"privat","isPrimary":true,"permitMarketing":true,"contactOption":1}}],
		"personCardLink":[
			{"person_recNo":1042,"card_recNo":11,"card":{"recNo":11,"type":1,"subType":null,"cardNumber":"VI 41-XXXX-1111","issueDate":null,"expirationDate":"2028-12-31","issuingCity":null,"issuingCountry":"DE","issuingCountryName":"Deutschland","description":"Firmenkarte","cardNumberToken":"tok_0123456789abcdef01234567","code":null,"nameOnCard":"ZOE MUELLER"}},
			{"person_recNo":1042,"card_recNo":12,"card":{"recNo":12,"type":2,"subType":4,"cardNumber":"UA-778899","description":"MileagePlus Gold – Star Alliance","nameOnCard":null}},
			{"person_recNo":1042,"card_recNo":13,"card":{"recNo":13,"type":3,"cardNumber":"C01X00T47","issueDate":"2020-01-02","expirationDate":"2030-01-01","issuingCountry":"DE","issuingCountryName":"Deutschland"}}],
		"personMarketing":[{"person_recNo":1042,"marketingElement_recNo":2,"affiliation_recNo":null}],
		"personTag":[{"recNo":21,"person_recNo":1042,"tag_recNo":1,"name":"VIP","value":"gold"},{"recNo":22,"person_recNo":1042,"tag_recNo":2,"name":"Dietary","value":"vegetarian, no nuts"}],
		"personActionItemLink":[{"person_recNo":1042,"actionItem_recNo":31,"personActionItem":{"recNo":31,"description":"Call about renewal","triggerIndex":1,"triggerDaysOffset":-2,"triggerFixedDate":"2026-12-01","appUser_recNo":4,"appUserId":"agent","completed":null,"completedBy_appUserRecNo":null,"notes":"Passport expires soon.\nRemind two weeks before; offer the 東京 package."}}]}`
	return []byte(`{"oldNewDataset":{"oldData":[` + p + `],"newData":[` + strings.Replace(p, "aisle", "window", 1) + `]}}`)
}

func BenchmarkCheckJSONText(b *testing.B) {
	body := benchPersonBody()
	if err := CheckJSONText(body, MethodPerson); err != nil || !json.Valid(body) {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if CheckJSONText(body, MethodPerson) != nil {
			b.Fatal("refused")
		}
	}
}

// BenchmarkCheckJSONTextUnmarshal is the yardstick: json.Unmarshal of the
// same body, once into any and once into the save's own shape.
func BenchmarkCheckJSONTextUnmarshal(b *testing.B) {
	body := benchPersonBody()
	b.Run("any", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			var v any
			if err := json.Unmarshal(body, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("dataset", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			var v struct {
				OldNewDataset struct {
					OldData []Person `json:"oldData"`
					NewData []Person `json:"newData"`
				} `json:"oldNewDataset"`
			}
			if err := json.Unmarshal(body, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkDecodePersonSave(b *testing.B) {
	body := benchPersonBody()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := DecodePersonSave(body); err != nil {
			b.Fatal(err)
		}
	}
}

// Deep bodies: the path is built in linear time, and past encoding/json's
// depth limit the body is the decoder's to refuse.
func TestCheckJSONTextDeep(t *testing.T) {
	for _, depth := range []int{18, 5000, 10000, 10002} { // levels: an array and an object per step
		body := strings.Repeat(`[{"k":`, depth/2) + "\"\\u0000\"" + strings.Repeat(`}]`, depth/2)
		err := CheckJSONText([]byte(body), MethodPerson)
		if !json.Valid([]byte(body)) {
			if err != nil {
				t.Errorf("depth %d: %v for a body encoding/json refuses", depth, err)
			}
			continue
		}
		want := strings.Repeat(`[0].k`, depth/2)
		if e := AsError(err); e == nil || !strings.HasSuffix(e.Message, "Path '"+want+"'.") {
			t.Errorf("depth %d: %v", depth, err)
		}
	}
}
