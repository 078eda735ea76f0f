package main

// Errors of the client commands as sentences a person reads: where a JSON
// text is wrong (line and column), what the server refused, and no Go
// type or function names.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/wayfarerhq/wayfarer/client"
)

// clientURL completes a --url given without a scheme ("127.0.0.1:8080"
// means http://127.0.0.1:8080) and refuses one that is not an HTTP URL.
func clientURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("--url %q is not a server address: give one such as http://127.0.0.1:8080", raw)
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// clientLoginError words a failed login: the server's refusal as it says
// it, a server that cannot be reached as such.
func clientLoginError(base string, err error) error {
	var e *client.Error
	if errors.As(err, &e) {
		return fmt.Errorf("the server refused the login (%d, resultCode %d): %s", e.Status, e.ResultCode, e.Description)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("the server at %s cannot be reached (%v): check --url", base, ue.Err)
	}
	return err
}

// jsonTextError words an error of reading text as JSON (the edited or
// created person) with its line and column, and the member's path where
// known: "line 4, column 18: firstName must be text, not a number".
func jsonTextError(text []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("%s: the JSON is malformed (%s)", lineCol(text, syn.Offset), strings.TrimPrefix(syn.Error(), "json: "))
	case errors.As(err, &typ):
		return fmt.Errorf("%s: %s must be %s, not %s", lineCol(text, typ.Offset), typ.Field, jsonKindOf(typ.Type.Kind().String()), typ.Value)
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if at := locatePath(text, msg); at >= 0 {
		return fmt.Errorf("%s: %s", lineCol(text, int64(at)), msg)
	}
	return errors.New(msg)
}

// jsonKindOf names a Go kind in JSON's words.
func jsonKindOf(kind string) string {
	switch {
	case kind == "string":
		return "text"
	case strings.HasPrefix(kind, "int"), strings.HasPrefix(kind, "uint"), strings.HasPrefix(kind, "float"):
		return "a number"
	case kind == "bool":
		return "true or false"
	case kind == "slice", kind == "array":
		return "an array"
	case kind == "struct", kind == "map":
		return "an object"
	}
	return "another kind of value"
}

// saveEditError words a refused save of an edit (by the SDK's own checks
// or by the server), with the line and column of the member it names in
// the edited text when it names one.
func saveEditError(text []byte, err error) error {
	msg := err.Error()
	var e *client.Error
	if errors.As(err, &e) {
		msg = fmt.Sprintf("the server refused the change (%d, resultCode %d): %s", e.Status, e.ResultCode, e.Description)
	}
	if at := locatePath(text, msg); at >= 0 {
		msg = lineCol(text, int64(at)) + ": " + msg
	}
	return errors.New(msg)
}

// lineCol is "line L, column C" of a byte offset, both counted from 1.
func lineCol(text []byte, off int64) string {
	off = min(max(off, 0), int64(len(text)))
	before := text[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return "line " + strconv.Itoa(line) + ", column " + strconv.Itoa(col)
}

// locatePath finds the longest member path of the JSON text (as
// "personCardLink[0].card.type") that msg mentions and answers the offset
// of that member's name; -1 when msg names none.
func locatePath(text []byte, msg string) int {
	best, at := "", -1
	for path, off := range jsonPaths(text) {
		if len(path) > len(best) && strings.Contains(msg, path) {
			best, at = path, off
		}
	}
	return at
}

// jsonPaths maps the path of every member of a JSON document to the offset
// of its name. A document that does not parse maps what came before the
// fault.
func jsonPaths(text []byte) map[string]int {
	type frame struct {
		path      string
		array     bool
		index     int    // arrays: the next element's index
		expectKey bool   // objects: a member name or '}' comes next
		member    string // objects: the path of the member being read
	}
	out := map[string]int{}
	dec := json.NewDecoder(bytes.NewReader(text))
	var stack []*frame
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if tok == json.Delim('}') || tok == json.Delim(']') {
			stack = stack[:len(stack)-1]
			continue
		}
		if top != nil && !top.array && top.expectKey {
			name, _ := tok.(string)
			top.member, top.expectKey = name, false
			if top.path != "" {
				top.member = top.path + "." + name
			}
			out[top.member] = int(start) + bytes.IndexByte(text[start:], '"')
			continue
		}
		path := ""
		switch {
		case top == nil:
		case top.array:
			path = fmt.Sprintf("%s[%d]", top.path, top.index)
			top.index++
		default:
			path, top.expectKey = top.member, true
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{path: path, expectKey: true})
		case json.Delim('['):
			stack = append(stack, &frame{path: path, array: true})
		}
	}
}
