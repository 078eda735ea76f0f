package jsoncodec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// The text rules: every string the decoder reads, keys included, is valid
// UTF-8 without unpaired surrogate escapes (406) and without control
// characters other than tab, line feed and carriage return (407). These
// tests decode into any, which covers every position; typed destinations
// read their strings through the same check (codec_test.go).

// checkText decodes body into any and returns the answer.
func decodeText(body []byte, method string) error {
	var v any
	return Strict.Decode(body, &v, method)
}

func TestCheckJSONTextClean(t *testing.T) {
	for _, body := range []string{
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
		if err := decodeText([]byte(body), wayfarer.MethodPerson); err != nil {
			t.Errorf("decodeText(%q) = %v, want nil", body, err)
		}
	}
	if e := wayfarer.AsError(decodeText(nil, wayfarer.MethodPerson)); e == nil || e.Message != "Error deserializing Json: the request body is empty." {
		t.Errorf("empty body: %v", e)
	}
}

// Malformed JSON gets one answer with one position: 406 saying where
// reading stopped, whatever else the body holds.
func TestCheckJSONTextLeavesMalformedToTheDecoder(t *testing.T) {
	for _, body := range []string{
		"{\"a\":\"\xff\"",         // unterminated object
		"{\"a\":\"\xff",           // unterminated string
		"{\"a\":\"\xff\"}}",       // extra closer
		"{\"a\":\"\xff\"} x",      // trailing garbage
		"{\"a\":\"\xff\"}{}",      // two values
		"{\"a\":\"\\u00\"}",       // short escape
		"{\"a\":\"\\x41\"}",       // unknown escape
		"{\"a\":\"tab\there\"}",   // raw control characters are not JSON
		"{\"a\":\"nul\x00here\"}", // raw NUL
		"{\"a\":\"\xff\",}",       // trailing comma
		"]\"\xff\"",
		"\xff",
		"{\xff:1}",
	} {
		e := wayfarer.AsError(decodeText([]byte(body), wayfarer.MethodPerson))
		if e == nil || e.Code != contract.CodeDeserialization || !strings.Contains(strings.ToLower(e.Message), "line 1, position ") {
			t.Errorf("decodeText(%q) = %v, want a 406 with its position", body, e)
		}
		if json.Valid([]byte(body)) {
			t.Errorf("fixture %q is valid JSON", body)
		}
	}
}

// One pass, so the first problem in the document is the answer: a control
// character before the malformation is refused as such.
func TestDecodeTextFirstProblemFirst(t *testing.T) {
	for _, body := range []string{"{\"a\":\"\\u0000\"} x", "{\"a\":\"\\u0000\"}{}"} {
		e := wayfarer.AsError(decodeText([]byte(body), wayfarer.MethodPerson))
		if e == nil || e.Code != contract.CodeInvalidValue || !strings.HasSuffix(e.Message, "Path 'a'.") {
			t.Errorf("%q: %v", body, e)
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
			err := decodeText([]byte(c.body), wayfarer.MethodParam)
			e := wayfarer.AsError(err)
			if e == nil {
				t.Fatalf("want %d, got %v", c.code, err)
			}
			// A 406 is a syntax answer: the position follows the path.
			want := c.message
			if c.code == contract.CodeDeserialization {
				want = strings.TrimSuffix(want, ".")
			}
			if e.Kind != wayfarer.KindInvalid || e.Code != c.code || e.Method != wayfarer.MethodParam || !strings.Contains(e.Message, want) {
				t.Fatalf("got kind %d code %d method %s %q; want code %d with %q", e.Kind, e.Code, e.Method, e.Message, c.code, want)
			}
			switch {
			case c.code == contract.CodeDeserialization && strings.HasPrefix(want, "Error"):
				rest := strings.TrimPrefix(e.Message, want)
				if !strings.HasPrefix(e.Message, want) || !strings.HasPrefix(rest, ", line 1, position ") && !strings.HasPrefix(rest, ". Line 1, position ") {
					t.Fatalf("message %q, want %q and the position", e.Message, want)
				}
			case strings.HasPrefix(want, "Invalid"):
				if e.Message != want {
					t.Fatalf("message %q, want %q", e.Message, want)
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
		`\u0034111111111111111`, strings.Repeat("k", 65), `a.b`, `x'y`, ``, `Zoë`, `k\u0041\u00e9`,
	} {
		body := `{"personTag":[{"` + key + `":{"value":"\u0000"}}]}`
		e := wayfarer.AsError(decodeText([]byte(body), wayfarer.MethodPerson))
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
	// a key is shown as it decodes
	if e := wayfarer.AsError(decodeText([]byte(`{"k\u0041":"\u0000"}`), wayfarer.MethodPerson)); e == nil || !strings.HasSuffix(e.Message, "Path 'kA'.") {
		t.Errorf("an escaped plain key: %v", e)
	}
	e := wayfarer.AsError(decodeText([]byte(`{"emergency_Contact-Phone$2":"\u0000"}`), wayfarer.MethodPerson))
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
		e := wayfarer.AsError(decodeText([]byte(body), wayfarer.MethodPerson))
		if e == nil || strings.Contains(e.Message, "4111") || strings.Contains(e.Message, "1111") {
			t.Errorf("%q: %v", body, e)
		}
	}
}

// TestCheckJSONTextPaths injects a problem into one random string of a
// random document and checks the path named is where it was put. Keys are
// distinct within an object: a name given twice is refused on its own.
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
				order := rng.Perm(len(keys))
				for j, n := 0, rng.IntN(4); j < n; j++ {
					if j > 0 {
						sb.WriteString(" ,\n")
					}
					k := keys[order[j]]
					fmt.Fprintf(&sb, "%q : ", k)
					gen(joinTestPath(path, k), depth+1)
				}
				sb.WriteString("}")
			default:
				sb.WriteString("[")
				for j, n := 0, rng.IntN(4); j < n; j++ {
					if j > 0 {
						sb.WriteString(",")
					}
					gen(fmt.Sprintf("%s[%d]", path, j), depth+1)
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
		if err := decodeText([]byte(clean), wayfarer.MethodPerson); err != nil || !json.Valid([]byte(clean)) {
			t.Fatalf("clean %q: %v", clean, err)
		}
		if len(paths) == 0 {
			continue
		}
		target := outer.IntN(len(paths))
		b := bad[i%len(bad)]
		body, _ := build(seed, target, b.raw)
		e := wayfarer.AsError(decodeText([]byte(body), wayfarer.MethodPerson))
		if e == nil || e.Code != b.code {
			t.Fatalf("%q: want %d, got %v", body, b.code, e)
		}
		want := "."
		if paths[target] != "" {
			want = fmt.Sprintf(". Path '%s'.", paths[target])
		}
		if b.code == contract.CodeDeserialization { // a syntax answer: the position follows
			want = strings.TrimSuffix(want, ".") + ", line"
			if paths[target] == "" {
				want = ". Line"
			}
			if i := strings.LastIndex(e.Message, want); i >= 0 {
				e.Message = e.Message[:i+len(want)]
			}
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

// FuzzDecodeText checks the promises against encoding/json: every answer
// is a 406 or a 407; what is accepted is JSON, valid UTF-8, without a
// control character or a U+FFFD that the body did not hold.
func FuzzDecodeText(f *testing.F) {
	for _, s := range []string{`{"a":"b"}`, "{\"a\":\"\xff\"}", `{"a":["\u0000"]}`, `"\ud800"`, `[1,{"k":"\t"}]`, "{\"\x7f\":1}", `{"a":"\ud83d\ude42"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		err := decodeText(body, wayfarer.MethodPerson)
		if err != nil {
			if e := wayfarer.AsError(err); e == nil || e.Code != contract.CodeDeserialization && e.Code != contract.CodeInvalidValue {
				t.Fatalf("%q: %v", body, err)
			}
			return
		}
		if !json.Valid(body) || !utf8.Valid(body) {
			t.Fatalf("%q: accepted, but not JSON or not UTF-8", body)
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber() // numbers of any size
		if e := dec.Decode(&v); e != nil {
			t.Fatalf("%q: valid but does not decode: %v", body, e)
		}
		if hasControl(v) {
			t.Fatalf("%q: a control character accepted", body)
		}
		if hasRuneError(v) && !strings.Contains(strings.ToLower(string(body)), `\ufffd`) && !strings.Contains(string(body), "\ufffd") {
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
	return walkStrings(v, func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f })
	})
}

func hasRuneError(v any) bool {
	return walkStrings(v, func(s string) bool { return strings.ContainsRune(s, utf8.RuneError) })
}

// Deep bodies: the path is built in linear time, and past the depth limit
// (10000, as encoding/json's) the body is refused as malformed.
func TestCheckJSONTextDeep(t *testing.T) {
	for _, depth := range []int{18, 5000, 10000, 10002} { // levels: an array and an object per step
		body := strings.Repeat(`[{"k":`, depth/2) + "\"\\u0000\"" + strings.Repeat(`}]`, depth/2)
		err := decodeText([]byte(body), wayfarer.MethodPerson)
		if !json.Valid([]byte(body)) {
			if e := wayfarer.AsError(err); e == nil || e.Code != contract.CodeDeserialization {
				t.Errorf("depth %d: %v for a body encoding/json refuses", depth, err)
			}
			continue
		}
		want := strings.Repeat(`[0].k`, depth/2)
		if e := wayfarer.AsError(err); e == nil || !strings.HasSuffix(e.Message, "Path '"+want+"'.") {
			t.Errorf("depth %d: %v", depth, err)
		}
	}
}

func joinTestPath(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}
