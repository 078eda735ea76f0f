package jsoncodec

import (
	"errors"
	"reflect"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// optional is what the core's Opt[T] offers codecs.
type optional interface {
	SetNull()
	DecodeTarget() any
}

type optionalValue interface{ EncodeValue() (any, bool) }

var (
	optionalType  = reflect.TypeFor[optional]()
	dateType      = reflect.TypeFor[wayfarer.Date]()
	timestampType = reflect.TypeFor[wayfarer.Timestamp]()
	errNull       = errors.New("null where a value is required")
	errOtherForm  = errors.New("a string in another form")
)

// controlChar is a control character found in a string, or in a key of
// the object at (the library takes an empty pointer for none and fills it).
type controlChar struct {
	r   rune
	key bool
	at  jsontext.Pointer
}

func (c *controlChar) Error() string { return "control character" }

var unmarshalers = json.JoinUnmarshalers(
	// The Opt types the core uses, each by its own type: an interface
	// unmarshaler costs a reflect conversion per value. The interface one
	// after them serves any other Opt[T].
	optUnmarshaler[int](), optUnmarshaler[int64](), optUnmarshaler[string](), optUnmarshaler[bool](),
	optUnmarshaler[wayfarer.Date](), optUnmarshaler[wayfarer.Timestamp](),
	json.UnmarshalFromFunc(unmarshalOpt[optional]),
	json.UnmarshalFromFunc(func(dec *jsontext.Decoder, s *string) error {
		v, err := readString(dec)
		*s = v
		return err
	}),
	json.UnmarshalFromFunc(func(dec *jsontext.Decoder, d *wayfarer.Date) error {
		s, err := readString(dec)
		if err == nil {
			*d, err = wayfarer.ParseDate(s)
		}
		return formError(err, dateType)
	}),
	json.UnmarshalFromFunc(func(dec *jsontext.Decoder, ts *wayfarer.Timestamp) error {
		s, err := readString(dec)
		if err == nil {
			*ts, err = wayfarer.ParseTimestamp(s)
		}
		return formError(err, timestampType)
	}),
	json.UnmarshalFromFunc(unmarshalAny),
	refuseNull[int](), refuseNull[int16](), refuseNull[int32](), refuseNull[int64](), refuseNull[bool](),
)

func optUnmarshaler[T comparable]() *json.Unmarshalers {
	return json.UnmarshalFromFunc(unmarshalOpt[*wayfarer.Opt[T]])
}

// unmarshalOpt reads an Opt: null makes it a present null, anything else
// its value.
func unmarshalOpt[O optional](dec *jsontext.Decoder, o O) error {
	if dec.PeekKind() == 'n' {
		o.SetNull()
		_, err := dec.ReadToken()
		return err
	}
	return json.UnmarshalDecode(dec, o.DecodeTarget())
}

// readString reads a string and checks it for control characters; anything
// else is left to the default decoding (ErrUnsupported), except a null,
// which a plain string cannot hold.
func readString(dec *jsontext.Decoder) (string, error) {
	switch dec.PeekKind() {
	case '"':
	case 'n':
		return "", &json.SemanticError{JSONKind: 'n', Err: errNull}
	default:
		return "", errors.ErrUnsupported
	}
	tok, err := dec.ReadToken()
	if err != nil {
		return "", err
	}
	s := tok.String()
	return s, checkText(dec, s, false)
}

// checkText refuses control characters other than tab, line feed and
// carriage return: U+0000 to U+001F and U+007F, raw (DEL) or escaped.
func checkText(dec *jsontext.Decoder, s string, key bool) error {
	for _, r := range s {
		if isControl(r) {
			ptr := dec.StackPointer()
			if key {
				ptr = ptr.Parent()
			}
			return &json.SemanticError{JSONPointer: ptr, JSONKind: '"', Err: &controlChar{r, key, ptr}}
		}
	}
	return nil
}

func isControl(r rune) bool { return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f }

// formError turns a string that is not a date (or timestamp) into a
// semantic error of that type; other errors pass.
func formError(err error, t reflect.Type) error {
	var serr *json.SemanticError
	if err == nil || errors.Is(err, errors.ErrUnsupported) || errors.As(err, &serr) {
		return err
	}
	return &json.SemanticError{JSONKind: '"', GoType: t, Err: errOtherForm}
}

// unmarshalAny decodes into an any value with the same text checks, keys
// included, as typed strings get.
func unmarshalAny(dec *jsontext.Decoder, v *any) error {
	switch dec.PeekKind() {
	case '"':
		s, err := readString(dec)
		*v = s
		return err
	case '{', '[':
		open, err := dec.ReadToken()
		if err != nil {
			return err
		}
		var m map[string]any
		var a []any
		for dec.PeekKind() != ']' && dec.PeekKind() != '}' && dec.PeekKind() != 0 {
			var name string
			if open.Kind() == '{' {
				tok, err := dec.ReadToken()
				if err != nil {
					return err
				}
				name = tok.String()
				if err := checkText(dec, name, true); err != nil {
					return err
				}
			}
			var x any
			if err := json.UnmarshalDecode(dec, &x); err != nil {
				return err
			}
			if open.Kind() == '{' {
				if m == nil {
					m = map[string]any{}
				}
				m[name] = x
			} else {
				a = append(a, x)
			}
		}
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		if *v = a; open.Kind() == '{' {
			*v = m
		}
		return nil
	}
	return errors.ErrUnsupported
}

// refuseNull makes a null an error for a T that cannot hold one (an
// element of an array of numbers, say) instead of its zero value.
func refuseNull[T any]() *json.Unmarshalers {
	return json.UnmarshalFromFunc(func(dec *jsontext.Decoder, _ *T) error {
		if dec.PeekKind() == 'n' {
			return &json.SemanticError{JSONKind: 'n', Err: errNull}
		}
		return errors.ErrUnsupported
	})
}

var marshalers = json.JoinMarshalers(
	optMarshaler[int](), optMarshaler[int64](), optMarshaler[string](), optMarshaler[bool](),
	optMarshaler[wayfarer.Date](), optMarshaler[wayfarer.Timestamp](),
	json.MarshalToFunc(marshalOpt[optionalValue]),
	json.MarshalToFunc(func(enc *jsontext.Encoder, d wayfarer.Date) error {
		return enc.WriteToken(jsontext.String(d.String()))
	}),
	json.MarshalToFunc(func(enc *jsontext.Encoder, ts wayfarer.Timestamp) error {
		return enc.WriteToken(jsontext.String(ts.String()))
	}),
)

func optMarshaler[T comparable]() *json.Marshalers {
	return json.MarshalToFunc(marshalOpt[wayfarer.Opt[T]])
}

// marshalOpt writes an Opt's value, or null (omitzero leaves out an absent one).
func marshalOpt[O optionalValue](enc *jsontext.Encoder, o O) error {
	v, ok := o.EncodeValue()
	if !ok {
		return enc.WriteToken(jsontext.Null)
	}
	return json.MarshalEncode(enc, v)
}
