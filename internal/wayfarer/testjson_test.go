package wayfarer

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// The core reads no JSON; its tests write persons as JSON for brevity. This
// reads such a person with encoding/json and fills the record by its json
// tags through the Opt methods the codecs use, and dumps records back for
// messages and leak checks. The codec itself is tested in internal/jsoncodec.

func mustPerson(t testing.TB, s string) *Person {
	t.Helper()
	var tree any
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(&tree); err != nil {
		t.Fatalf("bad test person: %v", err)
	}
	var p Person
	if err := fillFromJSON(reflect.ValueOf(&p).Elem(), tree); err != nil {
		t.Fatalf("bad test person: %v", err)
	}
	return &p
}

func fillFromJSON(v reflect.Value, x any) error {
	if o, ok := v.Addr().Interface().(interface {
		SetNull()
		DecodeTarget() any
	}); ok {
		if x == nil {
			o.SetNull()
			return nil
		}
		return fillFromJSON(reflect.ValueOf(o.DecodeTarget()).Elem(), x)
	}
	var err error
	switch t := v.Addr().Interface().(type) {
	case *Date:
		*t, err = ParseDate(x.(string))
		return err
	case *Timestamp:
		*t, err = ParseTimestamp(x.(string))
		return err
	case *FileData:
		*t = NewFileData([]byte(x.(string))) // the bytes as text, not base64
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		if x != nil {
			v.Set(reflect.New(v.Type().Elem()))
			return fillFromJSON(v.Elem(), x)
		}
	case reflect.Slice:
		if x != nil {
			a := x.([]any)
			v.Set(reflect.MakeSlice(v.Type(), len(a), len(a)))
			for i := range a {
				if err := fillFromJSON(v.Index(i), a[i]); err != nil {
					return err
				}
			}
		}
	case reflect.Struct:
		for k, val := range x.(map[string]any) {
			f, ok := fieldByName(v.Type(), k)
			if !ok {
				return fmt.Errorf("unknown field %s", k)
			}
			if err := fillFromJSON(v.Field(f.index), val); err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
		}
	case reflect.String:
		v.SetString(x.(string))
	case reflect.Bool:
		v.SetBool(x.(bool))
	case reflect.Int, reflect.Int64:
		n, err := x.(json.Number).Int64()
		v.SetInt(n)
		return err
	}
	return nil
}

// dumpJSON writes a value (records, changes, errors) as JSON-like text:
// every field by name, Opt values as their value or null, absent ones left out.
func dumpJSON(v any) string {
	b, _ := json.Marshal(toTree(reflect.ValueOf(v)))
	return string(b)
}

func toTree(v reflect.Value) any {
	if o, ok := v.Interface().(interface{ EncodeValue() (any, bool) }); ok {
		x, valid := o.EncodeValue()
		if !valid {
			return nil
		}
		return toTree(reflect.ValueOf(x))
	}
	if s, ok := v.Interface().(fmt.Stringer); ok && v.Kind() == reflect.Struct {
		return s.String() // Date, Timestamp
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return toTree(v.Elem())
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return v.Bytes()
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = toTree(v.Index(i))
		}
		return out
	case reflect.Struct:
		m := map[string]any{}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			if o, ok := v.Field(i).Interface().(interface{ IsZero() bool }); ok && o.IsZero() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue // never on the wire (the sealed card number)
			}
			if name == "" {
				name = f.Name
			}
			m[name] = toTree(v.Field(i))
		}
		return m
	}
	return v.Interface()
}
