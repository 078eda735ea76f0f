package jsoncodec

import (
	"bytes"
	"cmp"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// member is a JSON member a struct declares, as the decoder reads it:
// json tag names, embedded structs without a name and fields tagged
// ",embed" inlined, and of members with one name the shallowest alone
// (Go's rule for embedded fields, which the library follows): a type that
// embeds a record can replace one of its members.
type member struct {
	name        string
	typ         reflect.Type
	index       []int
	unsupported bool // wf:"unsupported"
}

var membersCache sync.Map // reflect.Type -> []member

func membersOf(t reflect.Type) []member {
	if v, ok := membersCache.Load(t); ok {
		return v.([]member)
	}
	var ms []member
	for i := range t.NumField() {
		sf := t.Field(i)
		name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" || !sf.IsExported() && !sf.Anonymous {
			continue
		}
		embed := sf.Anonymous && name == "" || strings.Contains(","+opts+",", ",embed,")
		if ft := deref(sf.Type); embed && ft.Kind() == reflect.Struct {
			for _, m := range membersOf(ft) {
				m.index = append([]int{i}, m.index...)
				ms = append(ms, m)
			}
			continue
		}
		ms = append(ms, member{name: cmp.Or(name, sf.Name), typ: sf.Type, index: []int{i},
			unsupported: strings.Contains(","+sf.Tag.Get("wf")+",", ",unsupported,")})
	}
	ms = dominant(ms)
	membersCache.Store(t, ms)
	return ms
}

// dominant keeps, of the members sharing a name, the one at the shallowest
// depth, and none where several share that depth.
func dominant(ms []member) []member {
	depth := map[string]int{}
	count := map[string]int{}
	for _, m := range ms {
		d, seen := depth[m.name]
		switch {
		case !seen || len(m.index) < d:
			depth[m.name], count[m.name] = len(m.index), 1
		case len(m.index) == d:
			count[m.name]++
		}
	}
	out := ms[:0]
	for _, m := range ms {
		if len(m.index) == depth[m.name] && count[m.name] == 1 {
			out = append(out, m)
		}
	}
	return out
}

func memberByName(t reflect.Type, name string) (member, bool) {
	ms := membersOf(t)
	for _, m := range ms {
		if m.name == name {
			return m, true
		}
	}
	for _, m := range ms {
		if strings.EqualFold(m.name, name) {
			return m, true
		}
	}
	return member{}, false
}

func deref(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// valueType is the type a JSON value at t is read into: pointers followed,
// an Opt[T] read as its T; nil for an interface (any shape).
func valueType(t reflect.Type) reflect.Type {
	t = deref(t)
	if t != nil && t.Kind() == reflect.Struct && isOpt(t) {
		t = reflect.TypeOf(reflect.New(t).Interface().(optional).DecodeTarget()).Elem()
	}
	if t != nil && t.Kind() == reflect.Interface {
		return nil
	}
	return t
}

// render writes a JSON pointer as a path, "personCardLink[1].card.type",
// telling indexes from names by the Go type found there (where that is
// unknown, inside an any, a token of up to 9 digits is an index).
func render(t reflect.Type, ptr jsontext.Pointer) string {
	var b strings.Builder
	for tok := range ptr.Tokens() {
		t = valueType(t)
		kind := reflect.Invalid
		if t != nil {
			kind = t.Kind()
		}
		if kind == reflect.Slice || kind == reflect.Array || kind == reflect.Invalid && tok != "" && len(tok) <= 9 && strings.Trim(tok, "0123456789") == "" {
			b.WriteString("[" + tok + "]")
		} else {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(shownName(tok))
		}
		switch kind {
		case reflect.Slice, reflect.Array, reflect.Map:
			t = t.Elem()
		case reflect.Struct:
			m, _ := memberByName(t, tok)
			t = m.typ
		default:
			t = nil
		}
	}
	return b.String()
}

// shownName is a member name as paths show it: a plain ASCII name of at
// most 64 characters as sent, anything else withheld (it could hold a card
// number, or be huge).
func shownName(name string) string {
	const withheld = "(withheld key)"
	if name == "" || len(name) > 64 || wayfarer.ContainsCardNumber(name) {
		return withheld
	}
	for _, c := range []byte(name) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '$') {
			return withheld
		}
	}
	return name
}

// nearest is the declared name of t closest to name (case-insensitive edit
// distance, a swap of neighbours counting one, a name cut short counting
// half its missing end), or "" when none is close.
func nearest(t reflect.Type, name string) string {
	t = valueType(t)
	if t == nil || t.Kind() != reflect.Struct {
		return ""
	}
	best, bestD := "", max(2, len(name)/3)+1
	lower := strings.ToLower(name)
	for _, m := range membersOf(t) {
		known := strings.ToLower(m.name)
		d := distance(lower, known)
		if len(lower) >= 3 && strings.HasPrefix(known, lower) {
			d = min(d, (len(known)-len(lower)+1)/2) // a name cut short: "user" for userName
		}
		if d < bestD {
			best, bestD = m.name, d
		}
	}
	return best
}

// distance is the optimal string alignment distance of a and b.
func distance(a, b string) int {
	if len(a) > 128 {
		return len(a)
	}
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// unknownPaths lists the members of body that t does not declare, as paths
// without indexes ("oldNewDataset.newData[].firstNmae"). body has decoded
// into t already, so it is well-formed.
func unknownPaths(body []byte, t reflect.Type) []string {
	dec := jsontext.NewDecoder(bytes.NewReader(body))
	var out []string
	var walk func(t reflect.Type, path string)
	walk = func(t reflect.Type, path string) {
		t = valueType(t)
		switch k := dec.PeekKind(); {
		case k == '{' && t != nil && t.Kind() == reflect.Struct:
			dec.ReadToken()
			for dec.PeekKind() == '"' {
				tok, _ := dec.ReadToken()
				p := shownName(tok.String())
				if path != "" {
					p = path + "." + p
				}
				if m, ok := memberByName(t, tok.String()); ok {
					walk(m.typ, p)
				} else {
					out = append(out, p)
					dec.SkipValue()
				}
			}
			dec.ReadToken()
		case k == '[' && t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
			dec.ReadToken()
			for dec.PeekKind() != ']' && dec.PeekKind() != 0 {
				walk(t.Elem(), path+"[]")
			}
			dec.ReadToken()
		default:
			dec.SkipValue()
		}
	}
	walk(t, "")
	return out
}

// findUnsupported returns the path of the first member tagged
// wf:"unsupported" that holds something (not absent, null, "", [] or {}).
func findUnsupported(v reflect.Value, path string) string {
	if found, p := unsupportedIn(v); found {
		return strings.TrimPrefix(path+p, ".")
	}
	return ""
}

// unsupportedIn walks v, looking only where a tagged member can be
// (unsupportedMembers); the path is built only for what it finds.
func unsupportedIn(v reflect.Value) (bool, string) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return unsupportedIn(v.Elem())
		}
	case reflect.Slice, reflect.Array:
		if !mayHoldUnsupported(v.Type().Elem(), nil) {
			return false, ""
		}
		for i := range v.Len() {
			if found, p := unsupportedIn(v.Index(i)); found {
				return true, "[" + strconv.Itoa(i) + "]" + p
			}
		}
	case reflect.Struct:
		for _, m := range unsupportedMembers(v.Type()) {
			f, err := v.FieldByIndexErr(m.index)
			if err != nil {
				continue // inside a nil embedded pointer
			}
			if m.unsupported && holds(f) {
				return true, "." + m.name
			}
			if found, p := unsupportedIn(f); found {
				return true, "." + m.name + p
			}
		}
	}
	return false, ""
}

// unsupportedMembers are the members of struct type t, in order, that are
// tagged wf:"unsupported" or whose values may hold such a member: the
// others (texts, numbers, Opt values, most of a record) are not walked.
// Each decoded body is walked, so this is worked out once per type.
func unsupportedMembers(t reflect.Type) []member {
	if v, ok := unsupportedCache.Load(t); ok {
		return v.([]member)
	}
	ms := planUnsupported(t, nil)
	unsupportedCache.Store(t, ms)
	return ms
}

var unsupportedCache sync.Map // reflect.Type -> []member

// planUnsupported works unsupportedMembers out; visiting holds the types
// whose plan is being made, which may hold a tagged member (a type that
// holds itself). Only whole plans are cached, so a concurrent decode never
// sees one half made.
func planUnsupported(t reflect.Type, visiting map[reflect.Type]bool) []member {
	if isOpt(t) {
		return nil
	}
	if visiting == nil {
		visiting = map[reflect.Type]bool{}
	}
	visiting[t] = true
	defer delete(visiting, t)
	var ms []member
	for _, m := range membersOf(t) {
		if m.unsupported || mayHoldUnsupported(m.typ, visiting) {
			ms = append(ms, m)
		}
	}
	return ms
}

// mayHoldUnsupported reports whether a value of type t can hold a member
// tagged wf:"unsupported": an interface can hold anything.
func mayHoldUnsupported(t reflect.Type, visiting map[reflect.Type]bool) bool {
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return mayHoldUnsupported(t.Elem(), visiting)
	case reflect.Struct:
		if visiting[t] {
			return true
		}
		if visiting == nil {
			return len(unsupportedMembers(t)) > 0
		}
		if v, ok := unsupportedCache.Load(t); ok {
			return len(v.([]member)) > 0
		}
		return len(planUnsupported(t, visiting)) > 0
	}
	return false
}

var optCache sync.Map // reflect.Type -> bool

func isOpt(t reflect.Type) bool {
	if v, ok := optCache.Load(t); ok {
		return v.(bool)
	}
	opt := reflect.PointerTo(t).Implements(optionalType)
	optCache.Store(t, opt)
	return opt
}

func holds(f reflect.Value) bool {
	if o, ok := f.Interface().(optionalValue); ok {
		v, valid := o.EncodeValue()
		return valid && v != ""
	}
	switch f.Kind() {
	case reflect.Slice, reflect.Map, reflect.String:
		return f.Len() > 0
	}
	return !f.IsZero()
}
