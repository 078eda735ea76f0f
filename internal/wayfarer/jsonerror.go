package wayfarer

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// JSONError turns an encoding/json error on body into the reference's 406
// "Error deserializing Json" answer, saying where it broke.
func JSONError(err error, body []byte, method string) *Error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := lineColumn(body, syn.Offset)
		return Errorf(KindInvalid, contract.CodeDeserialization, method,
			"Error deserializing Json: %s. Line %d, position %d.", syn.Error(), line, col)
	case errors.As(err, &typ):
		path := typ.Field
		if path == "" {
			path = "$"
		}
		return Errorf(KindInvalid, contract.CodeDeserialization, method,
			"Error deserializing Json: found a JSON %s where %s is expected. Path '%s'.", typ.Value, jsonKindOf(typ.Type), path)
	case errors.Is(err, errEmptyBody):
		return Errorf(KindInvalid, contract.CodeDeserialization, method, "Error deserializing Json: the request body is empty.")
	}
	return Errorf(KindInvalid, contract.CodeDeserialization, method, "Error deserializing Json: %s.", err)
}

var errEmptyBody = errors.New("empty body")

// DecodeJSON unmarshals body into v, answering a 406 *Error on failure.
func DecodeJSON(body []byte, v any, method string) error {
	if len(body) == 0 {
		return JSONError(errEmptyBody, body, method)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return JSONError(err, body, method)
	}
	return nil
}

func lineColumn(body []byte, offset int64) (line, col int) {
	line, col = 1, 1
	for i := int64(0); i < offset && i < int64(len(body)); i++ {
		if body[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

// fieldError is a 400 naming the field that broke a rule.
func fieldError(code int, method, field, format string, args ...any) *Error {
	return Errorf(KindInvalid, code, method, "%s: %s", field, fmt.Sprintf(format, args...))
}

// jsonKindOf names what a Go type reads from JSON, in the client's terms
// rather than the server's type names.
func jsonKindOf(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Implements(reflect.TypeFor[json.Unmarshaler]()) || reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]()) {
		return "a value of another form"
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a value of another form"
}
