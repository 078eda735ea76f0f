package wayfarer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// DecodePersonSave reads the body of POST /person and POST /person/refresh:
// a person object or an array of one person (a create), or
// {"oldNewDataset":{"oldData":[p],"newData":[p]}} (an update; an empty
// oldData is a create). old is nil for a create.
//
// Errors: 406 for JSON that cannot be read as a person, naming the path
// where reading broke, and for invalid UTF-8 in a string (CheckJSONText);
// 407 for a control character in a string, a wrong number of persons or the
// pre-1.8.2 flat card array; 410 for a non-empty cvvCode anywhere.
func DecodePersonSave(body []byte) (old, new *Person, err error) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil, nil, deserializeError("", "the request body is empty")
	}
	// Invalid UTF-8 and control characters first: encoding/json would
	// replace the one with U+FFFD and store the other.
	if err := CheckJSONText(body, MethodPerson); err != nil {
		return nil, nil, err
	}
	if err := syntaxCheck(body); err != nil {
		return nil, nil, err
	}
	var tree any
	if err := json.Unmarshal(body, &tree); err != nil {
		return nil, nil, deserializeError("", "the request body is not JSON")
	}
	if path, found := findCVV(tree, ""); found {
		return nil, nil, Errorf(KindInvalid, contract.CodeCardRule, MethodPerson,
			"cvvCode must not be sent: it is never stored (%s)", path)
	}

	switch body[0] {
	case '[':
		p, err := decodePersonArray(body, "", "")
		if err != nil {
			return nil, nil, err
		}
		return nil, p, nil
	case '{':
		var top map[string]json.RawMessage
		if err := json.Unmarshal(body, &top); err != nil {
			return nil, nil, deserializeError("", "expected an object")
		}
		if raw, ok := lookupKey(top, "oldNewDataset"); ok {
			return decodeDataset(raw)
		}
		p, err := decodePerson(body, "")
		return nil, p, err
	}
	return nil, nil, deserializeError("", "expected a person object, an array of one person, or an oldNewDataset")
}

func decodeDataset(raw json.RawMessage) (old, new *Person, err error) {
	var ds map[string]json.RawMessage
	if err := json.Unmarshal(raw, &ds); err != nil || ds == nil {
		return nil, nil, deserializeError("oldNewDataset", "expected an object with oldData and newData")
	}
	newRaw, ok := lookupKey(ds, "newData")
	if !ok || isNull(newRaw) {
		return nil, nil, Errorf(KindInvalid, contract.CodeInvalidValue, MethodPerson, "oldNewDataset.newData is required and must hold exactly one person")
	}
	new, err = decodePersonArray(newRaw, "oldNewDataset.newData", "oldNewDataset.newData must hold exactly one person")
	if err != nil {
		return nil, nil, err
	}
	oldRaw, ok := lookupKey(ds, "oldData")
	if !ok || isNull(oldRaw) {
		return nil, new, nil
	}
	var olds []json.RawMessage
	if err := json.Unmarshal(oldRaw, &olds); err != nil {
		return nil, nil, deserializeError("oldNewDataset.oldData", "expected an array of persons")
	}
	switch len(olds) {
	case 0:
		return nil, new, nil
	case 1:
		old, err = decodePerson(olds[0], "oldNewDataset.oldData[0]")
		return old, new, err
	}
	return nil, nil, Errorf(KindInvalid, contract.CodeInvalidValue, MethodPerson, "oldNewDataset.oldData must hold at most one person, got %d", len(olds))
}

// decodePersonArray reads an array that must hold exactly one person.
func decodePersonArray(raw []byte, path, countMsg string) (*Person, error) {
	var arr []json.RawMessage
	if err := json.Unmarshal(raw, &arr); err != nil {
		return nil, deserializeError(path, "expected an array of persons")
	}
	if len(arr) != 1 {
		if countMsg == "" {
			countMsg = "the request must hold exactly one person"
		}
		return nil, Errorf(KindInvalid, contract.CodeInvalidValue, MethodPerson, "%s, got %d", countMsg, len(arr))
	}
	return decodePerson(arr[0], path+"[0]")
}

// childArrays name the person's child arrays and a decoder for one element,
// used to find the index of an element that does not decode.
var childArrays = []struct {
	key    string
	decode func([]byte) error
}{
	{"personCommunicationLink", func(b []byte) error { return json.Unmarshal(b, new(CommunicationLink)) }},
	{"personCardLink", func(b []byte) error { return json.Unmarshal(b, new(CardLink)) }},
	{"personMarketing", func(b []byte) error { return json.Unmarshal(b, new(PersonMarketing)) }},
	{"personTag", func(b []byte) error { return json.Unmarshal(b, new(PersonTag)) }},
	{"personActionItemLink", func(b []byte) error { return json.Unmarshal(b, new(ActionItemLink)) }},
}

func decodePerson(raw []byte, path string) (*Person, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return nil, deserializeError(path, "expected a person object")
	}
	if _, ok := lookupKey(fields, "card"); ok {
		return nil, Errorf(KindInvalid, contract.CodeInvalidValue, MethodPerson,
			"%s is the flat card array of contracts before 1.8.2; send cards in personCardLink", joinPath(path, "card"))
	}
	var p Person
	err := json.Unmarshal(raw, &p)
	if err == nil {
		return &p, nil
	}
	// Go's error names the field path without array indexes; find the element.
	for _, c := range childArrays {
		arrRaw, ok := lookupKey(fields, c.key)
		if !ok {
			continue
		}
		var elems []json.RawMessage
		if e := json.Unmarshal(arrRaw, &elems); e != nil {
			return nil, typeError(joinPath(path, c.key), e)
		}
		for i, el := range elems {
			if e := c.decode(el); e != nil {
				return nil, typeError(indexPath(joinPath(path, c.key), i), e)
			}
		}
	}
	return nil, typeError(path, err)
}

// typeError turns a json error into a 406 naming the full path.
func typeError(path string, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		p := path
		if te.Field != "" {
			p = joinPath(path, te.Field)
		}
		// Value can hold the number itself ("number 4111..."): keep the kind only.
		kind, _, _ := strings.Cut(te.Value, " ")
		if strings.HasPrefix(te.Value, "string (") {
			kind = te.Value
		}
		return deserializeError(p, fmt.Sprintf("cannot read a JSON %s as %s", kind, typeName(te.Type)))
	}
	return deserializeError(path, "invalid value")
}

func typeName(t reflect.Type) string {
	if t == nil {
		return "the expected type"
	}
	switch t {
	case reflect.TypeFor[Date]():
		return "a date (YYYY-MM-DD)"
	case reflect.TypeFor[Timestamp]():
		return "a timestamp (RFC 3339)"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice:
		return "an array"
	case reflect.Struct, reflect.Map, reflect.Pointer:
		return "an object"
	}
	return t.String()
}

func deserializeError(path, msg string) *Error {
	if path == "" {
		return Errorf(KindInvalid, contract.CodeDeserialization, MethodPerson, "Error deserializing Json: %s.", msg)
	}
	return Errorf(KindInvalid, contract.CodeDeserialization, MethodPerson, "Error deserializing Json: %s. Path '%s'.", msg, path)
}

// syntaxCheck reports malformed JSON with its line and position.
func syntaxCheck(body []byte) error {
	var v any
	err := json.Unmarshal(body, &v)
	if err == nil {
		return nil
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, pos := 1, 0
		for _, c := range body[:min(int(se.Offset), len(body))] {
			pos++
			if c == '\n' {
				line, pos = line+1, 0
			}
		}
		return deserializeError("", fmt.Sprintf("malformed JSON at line %d, position %d", line, pos))
	}
	return deserializeError("", "malformed JSON")
}

// findCVV looks for a non-empty cvvCode at any depth of the body.
func findCVV(v any, path string) (string, bool) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			p := joinPath(path, k)
			if strings.EqualFold(k, "cvvCode") && x != nil && x != "" {
				return p, true
			}
			if found, ok := findCVV(x, p); ok {
				return found, true
			}
		}
	case []any:
		for i, x := range t {
			if found, ok := findCVV(x, indexPath(path, i)); ok {
				return found, true
			}
		}
	}
	return "", false
}

// lookupKey finds a key case-insensitively, as encoding/json matches fields.
func lookupKey(m map[string]json.RawMessage, key string) (json.RawMessage, bool) {
	if v, ok := m[key]; ok {
		return v, true
	}
	for k, v := range m {
		if strings.EqualFold(k, key) {
			return v, true
		}
	}
	return nil, false
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }
