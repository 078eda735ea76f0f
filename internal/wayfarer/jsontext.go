package wayfarer

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// CheckJSONText refuses a request body whose strings hold text that must not
// be accepted, before any decoder sees it. It scans the body once, without
// allocating, and answers nil for a clean body. Two defects are refused:
//
//   - Invalid UTF-8 in a string, or a \u escape of a lone UTF-16 surrogate
//     (\uD800 to \uDFFF without its pair): encoding/json would silently turn
//     either into U+FFFD and store a value the client never sent. This is
//     400/406 ("Error deserializing Json": the body is not JSON text,
//     RFC 8259 §8.1), naming the path of the string, or for a key the path of
//     its object.
//   - A control character in a string: U+0000 to U+001F other than tab, line
//     feed and carriage return, and U+007F, whether written raw (DEL; the
//     others raw are malformed JSON anyway) or escaped (\u0000, \b, \f). This
//     is 400/407 naming the path. Tab, line feed and carriage return are
//     allowed in every string: free text (remarks, notes, descriptions) needs
//     them, and the CSV writer quotes fields holding line breaks.
//
// Keys are checked like values, since encoding/json matches them after the
// same replacement. The path uses the keys as the client spelled them; a key
// that is not a plain ASCII name of at most 64 characters, or that looks like
// a card number, is shown as "(withheld key)". Values are never echoed.
//
// Malformed JSON is not this function's concern: it answers nil, and the
// caller's decoder reports where the syntax broke. method names the
// operation in the error body (MethodPerson, MethodParam, ...).
func CheckJSONText(body []byte, method string) error {
	// The stack of open containers; 16 levels live on the goroutine stack,
	// deeper bodies (rare) grow it on the heap.
	var buf [16]jtFrame
	stack := buf[:0]
	for i := 0; i < len(body); {
		switch body[i] {
		case '"':
			inKey := false
			if n := len(stack); n > 0 && !stack[n-1].array && stack[n-1].wantKey {
				inKey = true
			}
			end, problem, r := jtScanString(body, i+1)
			if problem == jtMalformed {
				return nil
			}
			if problem != jtOK {
				return jtError(body, stack, inKey, problem, r, method)
			}
			if inKey {
				top := &stack[len(stack)-1]
				top.keyStart, top.keyEnd, top.wantKey = i+1, end, false
			}
			i = end + 1
		case '{':
			stack = append(stack, jtFrame{wantKey: true})
			i++
		case '[':
			stack = append(stack, jtFrame{array: true})
			i++
		case '}', ']':
			if len(stack) == 0 {
				return nil // malformed
			}
			stack = stack[:len(stack)-1]
			i++
		case ',':
			if n := len(stack); n > 0 {
				if stack[n-1].array {
					stack[n-1].index++
				} else {
					stack[n-1].wantKey = true
				}
			}
			i++
		default:
			// Whitespace, ':', numbers, true/false/null: nothing to check.
			i++
		}
	}
	return nil
}

// jtFrame is an open object or array while CheckJSONText scans.
type jtFrame struct {
	array            bool
	wantKey          bool // object: the next string is a key
	index            int  // array: index of the current element
	keyStart, keyEnd int  // object: the current member's raw key, body[keyStart:keyEnd]
}

type jtProblem uint8

const (
	jtOK        jtProblem = iota
	jtMalformed           // not JSON: leave it to the decoder
	jtBadUTF8             // invalid UTF-8 bytes
	jtSurrogate           // \u escape of an unpaired surrogate
	jtControl             // a control character, raw DEL or escaped
)

// jtPlain marks the bytes a string can hold that need no further look:
// printable ASCII other than '"', '\\' and DEL.
var jtPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// jtScanString scans a string whose content starts at body[i] and returns
// the index of its closing quote, or the first problem with the offending
// character (for jtControl).
func jtScanString(body []byte, i int) (end int, p jtProblem, r rune) {
	for {
		for i < len(body) && jtPlain[body[i]] {
			i++
		}
		if i >= len(body) {
			return 0, jtMalformed, 0
		}
		c := body[i]
		switch {
		case c == '"':
			return i, jtOK, 0
		case c == '\\':
			if i+1 >= len(body) {
				return 0, jtMalformed, 0
			}
			switch body[i+1] {
			case '"', '\\', '/', 'n', 'r', 't':
				i += 2
			case 'b':
				return 0, jtControl, '\b'
			case 'f':
				return 0, jtControl, '\f'
			case 'u':
				v, ok := jtHex4(body, i+2)
				if !ok {
					return 0, jtMalformed, 0
				}
				i += 6
				switch {
				case v >= 0xd800 && v < 0xdc00:
					// A high surrogate must be followed by an escaped low one.
					if i+1 < len(body) && body[i] == '\\' && body[i+1] == 'u' {
						if w, ok := jtHex4(body, i+2); ok && w >= 0xdc00 && w < 0xe000 {
							i += 6
							continue
						}
					}
					return 0, jtSurrogate, 0
				case v >= 0xdc00 && v < 0xe000:
					return 0, jtSurrogate, 0
				case isControlText(v):
					return 0, jtControl, v
				}
			default:
				return 0, jtMalformed, 0
			}
		case c < 0x20:
			return 0, jtMalformed, 0 // raw control characters are not JSON
		case c == 0x7f:
			return 0, jtControl, 0x7f
		default: // c >= 0x80
			r, size := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && size == 1 {
				return 0, jtBadUTF8, 0
			}
			i += size
		}
	}
}

// isControlText reports whether r is a control character refused in text:
// U+0000 to U+001F other than tab, line feed and carriage return, and U+007F.
func isControlText(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f
}

func jtHex4(body []byte, i int) (rune, bool) {
	if i+4 > len(body) {
		return 0, false
	}
	var v rune
	for _, c := range body[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// jtError builds the answer for the first problem found, once the body is
// known to be JSON: a body that is also malformed gets the decoder's
// syntax error instead.
func jtError(body []byte, stack []jtFrame, inKey bool, p jtProblem, r rune, method string) error {
	if !json.Valid(body) {
		return nil
	}
	path := jtPath(body, stack, inKey)
	where := "a string"
	if inKey {
		where = "a key of this object"
		if path == "" {
			where = "a key of the top-level object"
		}
	}
	suffix := ""
	if path != "" {
		suffix = fmt.Sprintf(" Path '%s'.", path)
	}
	switch p {
	case jtBadUTF8:
		return Errorf(KindInvalid, contract.CodeDeserialization, method,
			"Error deserializing Json: invalid UTF-8 in %s.%s", where, suffix)
	case jtSurrogate:
		return Errorf(KindInvalid, contract.CodeDeserialization, method,
			"Error deserializing Json: an unpaired UTF-16 surrogate escape in %s.%s", where, suffix)
	}
	return Errorf(KindInvalid, contract.CodeInvalidValue, method,
		"Invalid value: a control character (U+%04X) in %s; of the control characters only tab, line feed and carriage return are allowed.%s",
		r, where, suffix)
}

// jtPath names the string being scanned: the keys and indexes of the open
// containers, without the top object's key when the string is that key.
// Linear in the depth (up to encoding/json's 10000 levels).
func jtPath(body []byte, stack []jtFrame, inKey bool) string {
	var sb strings.Builder
	for i, f := range stack {
		switch {
		case f.array:
			sb.WriteByte('[')
			sb.WriteString(strconv.Itoa(f.index))
			sb.WriteByte(']')
		case inKey && i == len(stack)-1:
			// the key itself is the problem: name its object
		default:
			if sb.Len() > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(jtKeyName(body[f.keyStart:f.keyEnd]))
		}
	}
	return sb.String()
}

// jtKeyName is a raw key as a path shows it: plain ASCII names as written,
// anything else withheld (it could hold a card number or be huge).
func jtKeyName(raw []byte) string {
	const withheld = "(withheld key)"
	if len(raw) == 0 || len(raw) > 64 {
		return withheld
	}
	for _, c := range raw {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '$') {
			return withheld
		}
	}
	if ContainsCardNumber(string(raw)) {
		return withheld
	}
	return string(raw)
}
