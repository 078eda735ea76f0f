// Package jsoncodec reads request bodies into Go values in one pass and
// writes answers. It is the only package that imports
// github.com/go-json-experiment/json, and the only one that words the
// reference's "Error deserializing Json" answers (errors.go).
//
// Decoding matches member names case-insensitively but with '_' and '-'
// significant (branchRecNo is not branch_recNo), refuses duplicate names
// (firstName and FirstName are duplicates), invalid UTF-8 and, unless told
// to warn, unknown members. Types are the Go types of the destination: the
// core's Opt[T] (absent, null or a value), Date and Timestamp, and any struct
// whose json tags name its members. A member tagged wf:"unsupported" is
// declared, so never unknown, and refused (408) when it holds anything.
package jsoncodec

import (
	"bytes"
	"fmt"
	"log/slog"
	"reflect"
	"sync"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// UnknownFields says what a member name the destination does not declare gets.
type UnknownFields int

const (
	RejectUnknown UnknownFields = iota // 400 naming the member and the nearest known name
	WarnUnknown                        // skipped; each distinct path logged once per process
)

// ParseUnknownFields reads the --unknown-fields setting.
func ParseUnknownFields(s string) (UnknownFields, error) {
	switch s {
	case "", "reject":
		return RejectUnknown, nil
	case "warn":
		return WarnUnknown, nil
	}
	return 0, fmt.Errorf("unknown-fields must be reject or warn, not %q", s)
}

// maxWarned bounds the paths WarnUnknown remembers: names are the
// client's, so their number must not grow without bound.
const maxWarned = 1000

// Decoder decodes request bodies under one policy. It is safe for
// concurrent use.
type Decoder struct {
	unknown UnknownFields
	log     *slog.Logger
	opts    json.Options

	mu     sync.Mutex
	warned map[string]bool
}

// NewDecoder returns a decoder; log receives the warnings of WarnUnknown.
func NewDecoder(unknown UnknownFields, log *slog.Logger) *Decoder {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Decoder{unknown: unknown, log: log, warned: map[string]bool{},
		opts: json.JoinOptions(decodeOptions, json.RejectUnknownMembers(unknown == RejectUnknown))}
}

// Strict rejects unknown members and logs nothing: for tools and tests.
var Strict = NewDecoder(RejectUnknown, nil)

var decodeOptions = json.JoinOptions(
	json.MatchCaseInsensitiveNames(true),
	jsonv1.MatchCaseSensitiveDelimiter(true),
	json.WithUnmarshalers(unmarshalers),
)

// Decode reads body into v (a pointer). Every failure is a *wayfarer.Error
// whose method is method: 406 for a body that cannot be read as v (syntax,
// type, unknown member), 407 for a control character in a string, 408 for
// a member Wayfarer does not serve yet.
func (d *Decoder) Decode(body []byte, v any, method string) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return deserialization(method, "the request body is empty", "")
	}
	root := reflect.TypeOf(v)
	if err := json.Unmarshal(body, v, d.opts); err != nil {
		return translate(err, body, root, method)
	}
	if d.unknown == WarnUnknown {
		d.warnUnknown(body, root, method)
	}
	if path := findUnsupported(reflect.ValueOf(v), ""); path != "" {
		return notSupported(method, path)
	}
	return nil
}

// warnUnknown logs the paths of the members Decode skipped, each once.
func (d *Decoder) warnUnknown(body []byte, root reflect.Type, method string) {
	for _, path := range unknownPaths(body, root) {
		key := method + " " + path
		d.mu.Lock()
		seen, full := d.warned[key], len(d.warned) >= maxWarned
		if !seen && !full {
			d.warned[key] = true
		}
		d.mu.Unlock()
		if !seen && !full {
			d.log.Warn("unknown field ignored (--unknown-fields=warn)", "method", method, "field", path)
		}
	}
}

var encodeOptions = json.JoinOptions(
	json.WithMarshalers(marshalers),
	json.FormatNilSliceAsNull(true), // as encoding/json: nil is null, empty is []
	json.FormatNilMapAsNull(true),
	json.Deterministic(true),
	jsontext.EscapeForHTML(true),
	jsontext.EscapeForJS(true),
	jsontext.AllowInvalidUTF8(true), // stored text is valid; never fail an answer over it
)

// Marshal encodes v: Opt members as their value or null (omitted with
// omitzero when absent), dates and timestamps in the reference's forms
// (DateLayout, TimestampLayout), file data as base64.
func Marshal(v any) ([]byte, error) { return json.Marshal(v, encodeOptions) }
