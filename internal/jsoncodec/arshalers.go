package jsoncodec

import (
	"encoding/base64"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/wayfarerhq/wayfarer/client/contract"
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
	fileDataType  = reflect.TypeFor[wayfarer.FileData]()
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
	json.UnmarshalFromFunc(unmarshalOptString), json.UnmarshalFromFunc(unmarshalOptInt[int]), json.UnmarshalFromFunc(unmarshalOptInt[int64]),
	optUnmarshaler[bool](),
	optUnmarshaler[wayfarer.Date](), optUnmarshaler[wayfarer.Timestamp](), optUnmarshaler[wayfarer.FileData](),
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
	json.UnmarshalFromFunc(func(dec *jsontext.Decoder, f *wayfarer.FileData) error {
		s, err := readString(dec)
		if err == nil {
			*f, err = decodeFileData(s)
		}
		return formError(err, fileDataType)
	}),
	json.UnmarshalFromFunc(unmarshalAny),
	json.UnmarshalFromFunc(func(dec *jsontext.Decoder, s *contract.ShortSet) error {
		return oneOrMany(dec, (*[]int16)(s), false)
	}),
	json.UnmarshalFromFunc(func(dec *jsontext.Decoder, s *contract.StatusSet) error {
		return oneOrMany(dec, (*[]int16)(s), true)
	}),
	refuseNull[int](), refuseNull[int16](), refuseNull[int32](), refuseNull[int64](), refuseNull[bool](),
)

// oneOrMany reads a short<short> parameter: an array as any array, or one
// number as an array of one; with bools, true as [1] and false as [0]
// (activeStatus: Active, Inactive). Anything else is the array's 406.
func oneOrMany(dec *jsontext.Decoder, s *[]int16, bools bool) error {
	switch k := dec.PeekKind(); {
	case k == '0':
		var v int16
		if err := json.UnmarshalDecode(dec, &v); err != nil {
			return err
		}
		*s = []int16{v}
		return nil
	case bools && (k == 't' || k == 'f'):
		var v bool
		if err := json.UnmarshalDecode(dec, &v); err != nil {
			return err
		}
		*s = []int16{0}
		if v {
			*s = []int16{1}
		}
		return nil
	}
	return errors.ErrUnsupported
}

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

// unmarshalOptString is unmarshalOpt for the commonest member, a text:
// a string is read here, not through a second lookup of the string's own
// unmarshaler (a fifth of a person's decoding went to those lookups);
// any other kind goes the general way, for the same errors.
func unmarshalOptString(dec *jsontext.Decoder, o *wayfarer.Opt[string]) error {
	if dec.PeekKind() != '"' {
		return unmarshalOpt(dec, o)
	}
	s, err := readString(dec)
	*o = wayfarer.Opt[string]{Value: s, Valid: true, Present: true}
	return err
}

// unmarshalOptInt is unmarshalOpt for whole numbers (recNos, most of the
// rest of a record): a number written plainly, short enough to fit, is
// read here; any other form (a fraction, an exponent, more digits, another
// kind) goes the general way, unread, for the same errors.
func unmarshalOptInt[T int | int64](dec *jsontext.Decoder, o *wayfarer.Opt[T]) error {
	digits := 18
	if strconv.IntSize == 32 && reflect.TypeFor[T]().Kind() == reflect.Int {
		digits = 9 // an int of 32 bits
	}
	if dec.PeekKind() != '0' || !plainInt(dec.UnreadBuffer(), digits) {
		return unmarshalOpt(dec, o)
	}
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	n, err := tok.Int()
	*o = wayfarer.Opt[T]{Value: T(n), Valid: true, Present: true}
	return err
}

// plainInt reports whether the next value in b (the decoder's unread
// input, from after the last token read: separators and white space
// first) is an integer without fraction or exponent, of a few digits
// (digits at most) and so held exactly.
func plainInt(b []byte, digits int) bool {
	i := 0
	for i < len(b) && strings.IndexByte(" \t\r\n:,", b[i]) >= 0 {
		i++
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	start := i
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	if n := i - start; n == 0 || n > digits {
		return false
	}
	// Something must follow (a number that ends the input may go on in
	// what the decoder has not read yet): the general way decides then.
	return i < len(b) && b[i] != '.' && b[i] != 'e' && b[i] != 'E'
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

// decodeFileData reads the base64 of a byte[] as the reference's clients
// write it (standard alphabet, padded or not; line breaks of MIME encoders
// are skipped).
func decodeFileData(s string) (wayfarer.FileData, error) {
	s = strings.Map(func(r rune) rune {
		if r == '\r' || r == '\n' {
			return -1
		}
		return r
	}, s)
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		b, err = base64.RawStdEncoding.DecodeString(s)
	}
	if err != nil {
		return wayfarer.FileData{}, errOtherForm
	}
	return wayfarer.NewFileData(b), nil
}

// The reference's forms of dates and times in answers (Json.NET's
// defaults): a Date is the day's midnight without an offset,
// "2025-12-31T00:00:00"; a DateTimeOffset is UTC with an explicit offset
// and as many fractional digits as it needs (none for whole seconds),
// "2026-11-21T09:00:00.123456+00:00".
const (
	DateLayout      = "2006-01-02T00:00:00"
	TimestampLayout = "2006-01-02T15:04:05.999999-07:00"
)

// AppendDate and AppendTimestamp write the unquoted text of a date and of
// an instant (in UTC) in the answers' forms.
func AppendDate(b []byte, d wayfarer.Date) []byte { return d.Time().AppendFormat(b, DateLayout) }
func AppendTimestamp(b []byte, t time.Time) []byte {
	return t.UTC().AppendFormat(b, TimestampLayout)
}

var marshalers = json.JoinMarshalers(
	optMarshaler[int](), optMarshaler[int64](), optMarshaler[string](), optMarshaler[bool](),
	optMarshaler[wayfarer.Date](), optMarshaler[wayfarer.Timestamp](), optMarshaler[wayfarer.FileData](),
	json.MarshalToFunc(marshalOpt[optionalValue]),
	json.MarshalToFunc(func(enc *jsontext.Encoder, d wayfarer.Date) error {
		return enc.WriteToken(jsontext.String(string(AppendDate(nil, d))))
	}),
	json.MarshalToFunc(func(enc *jsontext.Encoder, ts wayfarer.Timestamp) error {
		return enc.WriteToken(jsontext.String(string(AppendTimestamp(nil, ts.Time()))))
	}),
	json.MarshalToFunc(func(enc *jsontext.Encoder, f wayfarer.FileData) error {
		return enc.WriteToken(jsontext.String(base64.StdEncoding.EncodeToString(f.Bytes())))
	}),
)

func optMarshaler[T comparable]() *json.Marshalers {
	return json.MarshalToFunc(marshalOpt[wayfarer.Opt[T]])
}

// marshalOpt writes an Opt's value, or null (omitzero leaves out an absent one).
// Strings, integers and booleans, most of a record, are written as tokens
// directly: MarshalEncode looks their arshaler up again on every call.
func marshalOpt[O optionalValue](enc *jsontext.Encoder, o O) error {
	v, ok := o.EncodeValue()
	if !ok {
		return enc.WriteToken(jsontext.Null)
	}
	switch x := v.(type) {
	case string:
		return enc.WriteToken(jsontext.String(x))
	case int64:
		return enc.WriteToken(jsontext.Int(x))
	case int:
		return enc.WriteToken(jsontext.Int(int64(x)))
	case bool:
		return enc.WriteToken(jsontext.Bool(x))
	}
	return json.MarshalEncode(enc, v)
}
