package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// DecodePerson reads a person written by hand (a file, an editor): an
// object or an array holding one. Unlike json.Unmarshal it refuses keys it
// does not know, since a misspelt key would otherwise be dropped and its
// field saved as null; it names cvvCode and the pre-1.8.2 flat card array
// explicitly. A key left out is a null.
func DecodePerson(data []byte) (*Person, error) {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		var arr []json.RawMessage
		if err := json.Unmarshal(data, &arr); err != nil {
			return nil, err
		}
		if len(arr) != 1 {
			return nil, fmt.Errorf("expected one person, got %d", len(arr))
		}
		data = arr[0]
	}
	var p Person
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, err
	}
	var in any
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, err
	}
	b, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	var known any
	if err := json.Unmarshal(b, &known); err != nil {
		return nil, err
	}
	if err := unknownKeys(in, known, ""); err != nil {
		return nil, err
	}
	return &p, nil
}

// unknownKeys reports the first key of in that the decoded value does not
// have (matched without case, as encoding/json does).
func unknownKeys(in, known any, path string) error {
	switch v := in.(type) {
	case map[string]any:
		k, _ := known.(map[string]any)
		for key, x := range v {
			p := key
			if path != "" {
				p = path + "." + key
			}
			switch strings.ToLower(key) {
			case "cvvcode":
				return fmt.Errorf("%s: cvvCode is never sent: the contract forbids it and the server does not keep it", p)
			case "card":
				if path == "" {
					return fmt.Errorf("%s: the flat card array is the shape of contracts before 1.8.2; put cards in personCardLink", p)
				}
			}
			kv, ok := lookup(k, key)
			if !ok {
				return fmt.Errorf("%s: unknown field", p)
			}
			if err := unknownKeys(x, kv, p); err != nil {
				return err
			}
		}
	case []any:
		k, _ := known.([]any)
		for i, x := range v {
			var kv any
			if i < len(k) {
				kv = k[i]
			}
			if err := unknownKeys(x, kv, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

func lookup(m map[string]any, key string) (any, bool) {
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
