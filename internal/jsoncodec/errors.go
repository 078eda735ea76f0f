package jsoncodec

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// The answers, in the reference's wording. Values are never echoed: what
// the client sent could be a card number.

func deserialization(method, what, path string) *wayfarer.Error {
	return wayfarer.Errorf(wayfarer.KindInvalid, contract.CodeDeserialization, method, "Error deserializing Json: %s.%s", what, pathSuffix(path))
}

// TypeError is the 406 of a value of the wrong form at path, for converters
// that check a form the Go type cannot (a date held in a string).
func TypeError(method, path, expected, found string) *wayfarer.Error {
	return deserialization(method, "expected "+expected+", found "+found, path)
}

func notSupported(method, path string) *wayfarer.Error {
	return wayfarer.Errorf(wayfarer.KindInvalid, contract.CodeNotSupported, method, "%s: not yet supported by Wayfarer", path)
}

func pathSuffix(path string) string {
	if path == "" {
		return ""
	}
	return " Path '" + path + "'."
}

// translate turns a decoding error into the answer.
func translate(err error, body []byte, root reflect.Type, method string) error {
	var syn *jsontext.SyntacticError
	var sem *json.SemanticError
	var cc *controlChar
	switch {
	case errors.As(err, &syn):
		path := render(root, syn.JSONPointer)
		line, pos := position(body, syn.ByteOffset)
		where := fmt.Sprintf("line %d, position %d", line, pos)
		if path == "" {
			where = "L" + where[1:]
		} else {
			where = "Path '" + path + "', " + where
		}
		return wayfarer.Errorf(wayfarer.KindInvalid, contract.CodeDeserialization, method,
			"Error deserializing Json: %s. %s.", syntaxWhat(syn, body), where)
	case !errors.As(err, &sem):
		return deserialization(method, "the body cannot be read", "")
	case errors.Is(sem.Err, json.ErrUnknownName):
		return unknownMember(method, root, sem)
	case errors.As(sem.Err, &cc):
		in := "a string"
		if cc.key {
			in = "a key of this object"
			if cc.at == "" {
				in = "a key of the top-level object"
			}
		}
		return wayfarer.Errorf(wayfarer.KindInvalid, contract.CodeInvalidValue, method,
			"Invalid value: a control character (U+%04X) in %s; of the control characters only tab, line feed and carriage return are allowed.%s",
			cc.r, in, pathSuffix(render(root, cc.at)))
	}
	found := map[jsontext.Kind]string{'"': "a string", '0': "a number", '{': "an object", '[': "an array",
		't': "true or false", 'f': "true or false", 'n': "null"}[sem.JSONKind]
	if errors.Is(sem.Err, errOtherForm) {
		found = "a string in another form"
	}
	return TypeError(method, render(root, sem.JSONPointer), expected(sem.GoType), cmp.Or(found, "another value"))
}

// unknownMember names the member and the nearest name the destination
// declares there. A name with a control character is refused as text is.
func unknownMember(method string, root reflect.Type, sem *json.SemanticError) error {
	name := sem.JSONPointer.LastToken()
	for _, r := range name {
		if isControl(r) {
			return translate(&json.SemanticError{Err: &controlChar{r, true, sem.JSONPointer.Parent()}}, nil, root, method)
		}
	}
	msg := render(root, sem.JSONPointer) + ": unknown field"
	if near := nearest(sem.GoType, name); near != "" {
		msg += "; did you mean " + near + "?"
	}
	return wayfarer.Errorf(wayfarer.KindInvalid, contract.CodeDeserialization, method, "%s", msg)
}

// expected names what a Go type reads, in the client's terms.
func expected(t reflect.Type) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == nil:
		return "another value"
	case t == dateType:
		return "a date (YYYY-MM-DD, MM/DD/YYYY or an ISO date-time)"
	case t == timestampType:
		return "a date and time (RFC 3339)"
	case t == fileDataType:
		return "base64 data"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int16:
		return "a whole number from -32768 to 32767"
	case reflect.Int32:
		return "a whole number from -2147483648 to 2147483647"
	case reflect.Int, reflect.Int64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "another value"
}

// syntaxWhat says what is wrong with malformed JSON, in words of its own
// where the library's would quote the text.
func syntaxWhat(syn *jsontext.SyntacticError, body []byte) string {
	msg := syn.Err.Error()
	switch {
	case errors.Is(syn.Err, jsontext.ErrDuplicateName):
		return "a member name that appears twice (names match regardless of case)"
	case errors.Is(syn.Err, io.ErrUnexpectedEOF):
		return "the body ends before the JSON value does"
	case msg == "invalid UTF-8" && inKey(body, int(syn.ByteOffset)):
		if syn.JSONPointer == "" {
			return "invalid UTF-8 in a key of the top-level object"
		}
		return "invalid UTF-8 in a key of this object"
	case msg == "invalid UTF-8":
		return "invalid UTF-8 in a string"
	case strings.Contains(msg, "surrogate"):
		return "an unpaired UTF-16 surrogate escape in a string"
	case strings.HasPrefix(msg, "invalid escape sequence"):
		return "an invalid escape sequence in a string"
	case strings.HasPrefix(msg, "invalid character '") && len(msg) < 120:
		return msg // quotes one character
	}
	return "malformed JSON"
}

// inKey reports whether the string holding body[off] is an object's key:
// its closing quote is followed by a colon.
func inKey(body []byte, off int) bool {
	for i := off; i < len(body); i++ {
		switch body[i] {
		case '\\':
			i++
		case '"':
			rest := strings.TrimLeft(string(body[i+1:min(len(body), i+64)]), " \t\r\n")
			return strings.HasPrefix(rest, ":")
		}
	}
	return false
}

// position is the line (from 1) and the character in it (from 1) of a
// byte offset.
func position(body []byte, off int64) (line, pos int) {
	off = min(max(off, 0), int64(len(body)))
	start := 0
	line = 1
	for i, c := range body[:off] {
		if c == '\n' {
			line, start = line+1, i+1
		}
	}
	return line, utf8.RuneCount(body[start:off]) + 1
}
