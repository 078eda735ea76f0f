package wayfarer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// DecodeSearchCriteria decodes and validates a personSearch body.
//
// Parameter and member names match case-insensitively (the reference's
// routing is case-insensitive and the contract itself mixes "UniqueId" with
// camelCase); when a name appears twice the last one wins. Unknown names are
// ignored, as the reference does. A known parameter of the wrong JSON shape
// is a 406 naming its path; a value that breaks a rule (too long, out of
// range, a condition without values) is a 407; includeColsExtended and
// personActivitySearchParams with content are a 408, since ignoring a filter
// would return more persons than asked. An empty body or null is a search
// without parameters.
func DecodeSearchCriteria(body []byte) (*SearchCriteria, error) {
	c := &SearchCriteria{}
	if len(bytes.TrimSpace(body)) > 0 {
		if err := CheckJSONText(body, MethodParam); err != nil {
			return nil, err
		}
		members, err := srDecodeObject(body, "")
		if err != nil {
			return nil, err
		}
		for _, m := range members {
			p, ok := searchParams[strings.ToLower(m.key)]
			if !ok {
				continue
			}
			if err := p(c, m.raw, m.key); err != nil {
				return nil, err
			}
		}
	}
	if c.Columns == nil {
		c.DefaultCols = true
		for _, n := range DefaultSearchColumns {
			col, _ := LookupSearchColumn(n)
			c.Columns = append(c.Columns, col)
		}
	}
	return c, nil
}

// SearchParamNames lists the parameters DecodeSearchCriteria knows, as the
// contract spells them.
var SearchParamNames = []string{
	"recNo", "skipLookup", "readOnlyIntent", "startingRow", "rowCount", "topRows", "distinct",
	"createDateTimeFrom", "createDateTimeTo", "modifiedDateTimeFrom", "modifiedDateTimeTo",
	"includeCols", "includeColsExtended", "baseUrl", "reportFormat", "reportName",
	"queryOptimizerFlags", "priority", "tags", "UniqueId", "firstName", "middleName", "lastName",
	"commType", "commValue", "commValueCountryDomain", "commValueCityArea", "commValueUserSpecific",
	"profileRecNo", "birthdayMonth", "birthdayMonthFrom", "birthdayMonthTo", "birthdayDayFrom",
	"birthdayDayTo", "marketing", "emailPermitMarketing", "phonePermitMarketing", "cardType",
	"cardSubType", "cardExpirationDateFrom", "cardExpirationDateTo", "AdvisorProfileRecNo",
	"activeStatus", "actionItemCompleted", "actionItemDateFrom", "actionItemDateTo",
	"actionItemAssignedToAppUserRecNo", "personActivitySearchParams",
}

type srParamDecoder func(c *SearchCriteria, raw json.RawMessage, path string) error

var searchParams map[string]srParamDecoder

func init() {
	d := map[string]srParamDecoder{
		"recNo":          srNumParam(func(c *SearchCriteria) *NumParam { return &c.RecNo }),
		"skipLookup":     srBoolParam(func(c *SearchCriteria) *bool { return &c.SkipLookup }),
		"readOnlyIntent": srBoolParam(func(c *SearchCriteria) *bool { return &c.ReadOnlyIntent }),
		"distinct":       srBoolParam(func(c *SearchCriteria) *bool { return &c.Distinct }),
		"reportFormat":   srBoolParam(func(c *SearchCriteria) *bool { return &c.ReportFormat }),
		"startingRow":    srPagingParam(func(c *SearchCriteria) *int64 { return &c.StartingRow }),
		"rowCount":       srPagingParam(func(c *SearchCriteria) *int64 { return &c.RowCount }),
		"topRows":        srPagingParam(func(c *SearchCriteria) *int64 { return &c.TopRows }),
		"priority": func(c *SearchCriteria, raw json.RawMessage, path string) error {
			v, _, err := srDecodeInt(raw, path, "long")
			c.Priority = v
			return err
		},
		"baseUrl": func(c *SearchCriteria, raw json.RawMessage, path string) error {
			v, _, err := srDecodeString(raw, path)
			c.BaseURL = v
			return err
		},
		"reportName": func(c *SearchCriteria, raw json.RawMessage, path string) error {
			v, _, err := srDecodeString(raw, path)
			c.ReportName = v
			return err
		},
		"queryOptimizerFlags": func(c *SearchCriteria, raw json.RawMessage, path string) error {
			v, err := srDecodeIntArray(raw, path, "int")
			c.QueryOptimizerFlags = v
			return err
		},
		"createDateTimeFrom":   srTimeParam(func(c *SearchCriteria) *TimeRange { return &c.Created }, false),
		"createDateTimeTo":     srTimeParam(func(c *SearchCriteria) *TimeRange { return &c.Created }, true),
		"modifiedDateTimeFrom": srTimeParam(func(c *SearchCriteria) *TimeRange { return &c.Modified }, false),
		"modifiedDateTimeTo":   srTimeParam(func(c *SearchCriteria) *TimeRange { return &c.Modified }, true),
		"includeCols":          srDecodeIncludeCols,
		"includeColsExtended":  srNotSupported(srArrayShape, "includeColsExtended is not supported: Wayfarer has no extended columns yet"),
		"personActivitySearchParams": srNotSupported(srObjectShape,
			"personActivitySearchParams is not supported: Wayfarer has no person activities yet"),
		"tags": srDecodeTags,
		"UniqueId": func(c *SearchCriteria, raw json.RawMessage, path string) error {
			v, _, err := srDecodeString(raw, path)
			if err != nil {
				return err
			}
			if err := srCheckLen(path, v, 64); err != nil {
				return err
			}
			c.UniqueID = v
			return nil
		},
		"firstName":              srStringParam(func(c *SearchCriteria) *StringParam { return &c.FirstName }, 64),
		"middleName":             srStringParam(func(c *SearchCriteria) *StringParam { return &c.MiddleName }, 64),
		"lastName":               srStringParam(func(c *SearchCriteria) *StringParam { return &c.LastName }, 64),
		"commType":               srShortArray(func(c *SearchCriteria) *[]int64 { return &c.CommType }),
		"commValue":              srStringParam(func(c *SearchCriteria) *StringParam { return &c.CommValue }, 256),
		"commValueCountryDomain": srStringParam(func(c *SearchCriteria) *StringParam { return &c.CommValueCountryDomain }, 64),
		"commValueCityArea":      srStringParam(func(c *SearchCriteria) *StringParam { return &c.CommValueCityArea }, 4),
		"commValueUserSpecific":  srStringParam(func(c *SearchCriteria) *StringParam { return &c.CommValueUserSpecific }, 64),
		"profileRecNo":           srNumParam(func(c *SearchCriteria) *NumParam { return &c.ProfileRecNo }),
		"birthdayMonth":          srNumParam(func(c *SearchCriteria) *NumParam { return &c.BirthdayMonth }),
		"birthdayMonthFrom":      srBirthdayParam(func(c *SearchCriteria) *int { return &c.Birthday.MonthFrom }, 12),
		"birthdayMonthTo":        srBirthdayParam(func(c *SearchCriteria) *int { return &c.Birthday.MonthTo }, 12),
		"birthdayDayFrom":        srBirthdayParam(func(c *SearchCriteria) *int { return &c.Birthday.DayFrom }, 31),
		"birthdayDayTo":          srBirthdayParam(func(c *SearchCriteria) *int { return &c.Birthday.DayTo }, 31),
		"marketing":              srDecodeMarketing,
		"emailPermitMarketing":   srOptBoolParam(func(c *SearchCriteria) **bool { return &c.EmailPermitMarketing }),
		"phonePermitMarketing":   srOptBoolParam(func(c *SearchCriteria) **bool { return &c.PhonePermitMarketing }),
		"cardType":               srShortArray(func(c *SearchCriteria) *[]int64 { return &c.CardType }),
		"cardSubType":            srNumParam(func(c *SearchCriteria) *NumParam { return &c.CardSubType }),
		"cardExpirationDateFrom": srDateParam(func(c *SearchCriteria) *string { return &c.CardExpiration.From }),
		"cardExpirationDateTo":   srDateParam(func(c *SearchCriteria) *string { return &c.CardExpiration.To }),
		"AdvisorProfileRecNo":    srNumParam(func(c *SearchCriteria) *NumParam { return &c.AdvisorProfileRecNo }),
		"activeStatus":           srShortArray(func(c *SearchCriteria) *[]int64 { return &c.ActiveStatus }),
		"actionItemCompleted":    srOptBoolParam(func(c *SearchCriteria) **bool { return &c.ActionItemCompleted }),
		"actionItemDateFrom":     srDateParam(func(c *SearchCriteria) *string { return &c.ActionItemDate.From }),
		"actionItemDateTo":       srDateParam(func(c *SearchCriteria) *string { return &c.ActionItemDate.To }),
		"actionItemAssignedToAppUserRecNo": srNumParam(func(c *SearchCriteria) *NumParam {
			return &c.ActionItemAssignedTo
		}),
	}
	searchParams = make(map[string]srParamDecoder, len(d))
	for k, v := range d {
		searchParams[strings.ToLower(k)] = v
	}
}

// Error constructors, in the reference's wording.

func srShapeError(path, format string, args ...any) error {
	return Errorf(KindInvalid, contract.CodeDeserialization, MethodParam,
		"Error deserializing Json: %s. Path '%s'.", fmt.Sprintf(format, args...), path)
}

func srValueError(path, format string, args ...any) error {
	return Errorf(KindInvalid, contract.CodeInvalidValue, MethodParam,
		"Invalid value: %s. Path '%s'.", fmt.Sprintf(format, args...), path)
}

// JSON plumbing. Values are inspected by their first byte: the decoder
// checks shapes itself so that every error can name its path.

type srMember struct {
	key string
	raw json.RawMessage
}

func srJsonKind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func srIsNull(raw []byte) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// srDecodeObject returns the members of a JSON object in order; null is an
// object without members.
// srLastOfEachKey drops members whose name (matched case-insensitively, as
// names are) appears again later: the last wins, as in encoding/json, and an
// overridden value is not validated.
func srLastOfEachKey(ms []srMember) []srMember {
	seen := make(map[string]bool, len(ms))
	keep := make([]bool, len(ms))
	for i := len(ms) - 1; i >= 0; i-- {
		k := strings.ToLower(ms[i].key)
		keep[i] = !seen[k]
		seen[k] = true
	}
	out := ms[:0]
	for i, m := range ms {
		if keep[i] {
			out = append(out, m)
		}
	}
	return out
}

func srDecodeObject(raw []byte, path string) ([]srMember, error) {
	if srIsNull(raw) {
		return nil, nil
	}
	if k := srJsonKind(raw); k != "an object" {
		return nil, srShapeError(path, "expected an object, found %s", k)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil, srSyntaxError(path, err, dec)
	}
	var ms []srMember
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, srSyntaxError(path, err, dec)
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, srSyntaxError(srJoinPath(path, key), err, dec)
		}
		ms = append(ms, srMember{key, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, srSyntaxError(path, err, dec)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, srShapeError(path, "unexpected data after the object at position %d", dec.InputOffset())
	}
	return srLastOfEachKey(ms), nil
}

func srSyntaxError(path string, err error, dec *json.Decoder) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return srShapeError(path, "%v at position %d", se, se.Offset)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return srShapeError(path, "unexpected end of JSON at position %d", dec.InputOffset())
	}
	return srShapeError(path, "%v", err)
}

func srJoinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// srDecodeArray returns the elements of a JSON array; null is empty.
func srDecodeArray(raw []byte, path string) ([]json.RawMessage, error) {
	if srIsNull(raw) {
		return nil, nil
	}
	if k := srJsonKind(raw); k != "an array" {
		return nil, srShapeError(path, "expected an array, found %s", k)
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		return nil, srShapeError(path, "%v", err)
	}
	return elems, nil
}

// srDecodeInt reads an integer within the range of typ ("short", "int",
// "long"); present is false for null.
func srDecodeInt(raw []byte, path, typ string) (v int64, present bool, err error) {
	if srIsNull(raw) {
		return 0, false, nil
	}
	if k := srJsonKind(raw); k != "a number" {
		return 0, false, srShapeError(path, "expected an integer (%s), found %s", typ, k)
	}
	s := string(bytes.TrimSpace(raw))
	bits := 64
	switch typ {
	case "short":
		bits = 16
	case "int":
		bits = 32
	}
	v, perr := strconv.ParseInt(s, 10, bits)
	if perr != nil {
		return 0, false, srShapeError(path, "the number is not a valid %s", typ)
	}
	return v, true, nil
}

func srDecodeIntArray(raw []byte, path, typ string) ([]int64, error) {
	elems, err := srDecodeArray(raw, path)
	if err != nil {
		return nil, err
	}
	out := make([]int64, 0, len(elems))
	for i, e := range elems {
		v, ok, err := srDecodeInt(e, fmt.Sprintf("%s[%d]", path, i), typ)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, srShapeError(fmt.Sprintf("%s[%d]", path, i), "expected an integer (%s), found null", typ)
		}
		out = append(out, v)
	}
	return out, nil
}

func srDecodeBool(raw []byte, path string) (v, present bool, err error) {
	if srIsNull(raw) {
		return false, false, nil
	}
	if k := srJsonKind(raw); k != "a boolean" {
		return false, false, srShapeError(path, "expected a boolean, found %s", k)
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return false, false, srShapeError(path, "%v", err)
	}
	return v, true, nil
}

func srDecodeString(raw []byte, path string) (v string, present bool, err error) {
	if srIsNull(raw) {
		return "", false, nil
	}
	if k := srJsonKind(raw); k != "a string" {
		return "", false, srShapeError(path, "expected a string, found %s", k)
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", false, srShapeError(path, "%v", err)
	}
	return v, true, nil
}

// srDecodeStringElem reads an element of an array of strings: unlike a
// string parameter, where null means "not given", a null element is a
// wrong shape like any other non-string.
func srDecodeStringElem(raw []byte, path string) (string, error) {
	v, ok, err := srDecodeString(raw, path)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", srShapeError(path, "expected a string, found null")
	}
	return v, nil
}

func srCheckLen(path, v string, size int) error {
	if n := utf8.RuneCountInString(v); size > 0 && n > size {
		return srValueError(path, "the value is %d characters long, longer than the column's %d", n, size)
	}
	return nil
}

// Parameter decoders.

func srBoolParam(field func(*SearchCriteria) *bool) srParamDecoder {
	return func(c *SearchCriteria, raw json.RawMessage, path string) error {
		v, _, err := srDecodeBool(raw, path)
		*field(c) = v
		return err
	}
}

func srOptBoolParam(field func(*SearchCriteria) **bool) srParamDecoder {
	return func(c *SearchCriteria, raw json.RawMessage, path string) error {
		v, ok, err := srDecodeBool(raw, path)
		if err != nil {
			return err
		}
		if ok {
			*field(c) = &v
		} else {
			*field(c) = nil
		}
		return nil
	}
}

func srPagingParam(field func(*SearchCriteria) *int64) srParamDecoder {
	return func(c *SearchCriteria, raw json.RawMessage, path string) error {
		v, _, err := srDecodeInt(raw, path, "long")
		if err != nil {
			return err
		}
		if v < 0 {
			return srValueError(path, "%d is negative", v)
		}
		*field(c) = v
		return nil
	}
}

func srBirthdayParam(field func(*SearchCriteria) *int, max int64) srParamDecoder {
	return func(c *SearchCriteria, raw json.RawMessage, path string) error {
		v, _, err := srDecodeInt(raw, path, "long")
		if err != nil {
			return err
		}
		// 0 is "not set", as a client that always sends its long fields does.
		if v < 0 || v > max {
			return srValueError(path, "%d is outside 1..%d", v, max)
		}
		*field(c) = int(v)
		return nil
	}
}

func srShortArray(field func(*SearchCriteria) *[]int64) srParamDecoder {
	return func(c *SearchCriteria, raw json.RawMessage, path string) error {
		v, err := srDecodeIntArray(raw, path, "short")
		if err != nil {
			return err
		}
		if len(v) == 0 {
			v = nil // an empty list is no filter
		}
		*field(c) = v
		return nil
	}
}

func srNumParam(field func(*SearchCriteria) *NumParam) srParamDecoder {
	return func(c *SearchCriteria, raw json.RawMessage, path string) error {
		p, err := srDecodeNumParam(raw, path)
		*field(c) = p
		return err
	}
}

func srDecodeNumParam(raw []byte, path string) (NumParam, error) {
	var p NumParam
	members, err := srDecodeObject(raw, path)
	if err != nil {
		return p, err
	}
	condSet := false
	var condPath string
	for _, m := range members {
		mp := srJoinPath(path, m.key)
		switch strings.ToLower(m.key) {
		case "value":
			if p.Values, err = srDecodeIntArray(m.raw, mp, "long"); err != nil {
				return p, err
			}
		case "comparecondition":
			v, ok, err := srDecodeInt(m.raw, mp, "int")
			if err != nil {
				return p, err
			}
			if v < 0 || v > int64(NumNotBlank) {
				return p, srValueError(mp, "compareCondition %d is outside 0..4", v)
			}
			p.Cond, condSet, condPath = NumCondition(v), ok, mp
		}
	}
	if !condSet {
		// Our decision: values without a condition mean Equal.
		if len(p.Values) > 0 {
			p.Cond = NumEqual
		}
		return p, nil
	}
	if (p.Cond == NumEqual || p.Cond == NumNotEqual) && len(p.Values) == 0 {
		return p, srValueError(condPath, "compareCondition %d (%s) needs at least one value", p.Cond, p.Cond)
	}
	return p, nil
}

func srStringParam(field func(*SearchCriteria) *StringParam, size int) srParamDecoder {
	return func(c *SearchCriteria, raw json.RawMessage, path string) error {
		p, err := srDecodeStringParam(raw, path, size)
		*field(c) = p
		return err
	}
}

func srDecodeStringParam(raw []byte, path string, size int) (StringParam, error) {
	members, err := srDecodeObject(raw, path)
	if err != nil {
		return StringParam{}, err
	}
	return srStringParamFromMembers(members, path, size)
}

// srStringParamFromMembers reads value and compareCondition from members and
// ignores any others (TagsSearchParams shares its object with them).
//
// Every element of value must be a string (406 otherwise, null included),
// whatever the condition. Conditions 0 (Ignore), 3 (Blank) and 4 (NotBlank)
// do not use their values: nothing else is checked and the values are
// dropped. The other conditions compare each value, so a value must not be
// empty, nor, for In and NotIn, any item of its comma-separated list once
// trimmed (407 naming the element: blank fields are found with Blank and
// NotBlank), nor longer than the column (407). Values are compared as sent,
// untrimmed, except the items of In and NotIn: a value of only spaces is a
// value for Equal or Contains, and an empty item for In.
func srStringParamFromMembers(members []srMember, path string, size int) (StringParam, error) {
	var p StringParam
	type element struct{ value, path string }
	var elems []element
	condSet := false
	var condPath string
	for _, m := range members {
		mp := srJoinPath(path, m.key)
		switch strings.ToLower(m.key) {
		case "value":
			raws, err := srDecodeArray(m.raw, mp)
			if err != nil {
				return p, err
			}
			elems = elems[:0]
			for i, e := range raws {
				ep := fmt.Sprintf("%s[%d]", mp, i)
				s, err := srDecodeStringElem(e, ep)
				if err != nil {
					return p, err
				}
				elems = append(elems, element{s, ep})
			}
		case "comparecondition":
			v, ok, err := srDecodeInt(m.raw, mp, "int")
			if err != nil {
				return p, err
			}
			if v < 0 || v > int64(StrNotContaining) {
				return p, srValueError(mp, "compareCondition %d is outside 0..10", v)
			}
			p.Cond, condSet, condPath = StringCondition(v), ok, mp
		}
	}
	if !condSet {
		// Our decision, as for NumSearchParam: values without a condition
		// mean Equal rather than a filter silently dropped.
		if len(elems) > 0 {
			p.Cond = StrEqual
		}
	}
	switch p.Cond {
	case StrIgnore, StrBlank, StrNotBlank:
		return p, nil // the values are not used, whatever they hold
	}
	list := p.Cond == StrIn || p.Cond == StrNotIn
	for _, e := range elems {
		if !list {
			if e.value == "" {
				return p, srEmptyValueError(e.path, p.Cond, "the value is empty")
			}
			if err := srCheckLen(e.path, e.value, size); err != nil {
				return p, err
			}
			p.Values = append(p.Values, e.value)
			continue
		}
		if strings.TrimSpace(e.value) == "" {
			return p, srEmptyValueError(e.path, p.Cond, "the value is empty or only spaces (In and NotIn trim their items)")
		}
		items := strings.Split(e.value, ",")
		for i, item := range items {
			item = strings.TrimSpace(item)
			if item == "" {
				return p, srEmptyValueError(e.path, p.Cond,
					fmt.Sprintf("item %d of %d of the comma-separated list is empty (items are trimmed)", i+1, len(items)))
			}
			if err := srCheckLen(e.path, item, size); err != nil {
				return p, err
			}
			p.Values = append(p.Values, item)
		}
	}
	if len(p.Values) == 0 {
		return p, srValueError(condPath, "compareCondition %d (%s) needs at least one value", p.Cond, p.Cond)
	}
	return p, nil
}

// srEmptyValueError is the 407 of an empty value, or empty list item, given
// to a condition that compares its values.
func srEmptyValueError(path string, cond StringCondition, what string) error {
	return srValueError(path, "%s, and compareCondition %d (%s) needs a value to compare; "+
		"to find blank values use compareCondition 3 (Blank) or 4 (NotBlank)", what, cond, cond)
}

// Dates. DateSearchParam is {"date":"12/31/2001"} or {"date":"2001-12-31"};
// a time of day after an ISO date is ignored. DateTimeUTCSearchParam is
// {"dateTime":"2001-12-31T10:00:00Z"} (RFC 3339; without an offset the time
// is UTC) or a DateSearchParam; a date as the upper bound includes the whole
// day. When both members are given, dateTime wins.

func srDateParam(field func(*SearchCriteria) *string) srParamDecoder {
	return func(c *SearchCriteria, raw json.RawMessage, path string) error {
		members, err := srDecodeObject(raw, path)
		if err != nil {
			return err
		}
		*field(c) = ""
		for _, m := range members {
			if strings.ToLower(m.key) != "date" {
				continue
			}
			mp := srJoinPath(path, m.key)
			s, ok, err := srDecodeString(m.raw, mp)
			if err != nil {
				return err
			}
			if !ok {
				*field(c) = ""
				continue
			}
			d, err := parseSearchDate(s, mp)
			if err != nil {
				return err
			}
			*field(c) = d.Format(time.DateOnly)
		}
		return nil
	}
}

func srTimeParam(field func(*SearchCriteria) *TimeRange, upper bool) srParamDecoder {
	return func(c *SearchCriteria, raw json.RawMessage, path string) error {
		members, err := srDecodeObject(raw, path)
		if err != nil {
			return err
		}
		var date, dateTime *time.Time
		for _, m := range members {
			key := strings.ToLower(m.key)
			if key != "date" && key != "datetime" {
				continue
			}
			mp := srJoinPath(path, m.key)
			s, ok, err := srDecodeString(m.raw, mp)
			if err != nil {
				return err
			}
			var t *time.Time
			if ok {
				var v time.Time
				if key == "date" {
					v, err = parseSearchDate(s, mp)
				} else {
					v, err = parseSearchDateTime(s, mp)
				}
				if err != nil {
					return err
				}
				t = &v
			}
			if key == "date" {
				date = t
			} else {
				dateTime = t
			}
		}
		// Instants are stored to the microsecond (see Timestamp), so an
		// inclusive instant bound becomes a half-open microsecond one.
		var bound *time.Time
		switch {
		case dateTime != nil && upper:
			b := dateTime.Truncate(time.Microsecond).Add(time.Microsecond)
			bound = &b
		case dateTime != nil:
			b := dateTime.Truncate(time.Microsecond)
			if b.Before(*dateTime) {
				b = b.Add(time.Microsecond)
			}
			bound = &b
		case date != nil && upper:
			b := date.AddDate(0, 0, 1) // inclusive day
			bound = &b
		case date != nil:
			bound = date
		}
		r := field(c)
		if upper {
			r.Before = bound
		} else {
			r.From = bound
		}
		return nil
	}
}

func parseSearchDate(s, path string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse("1/2/2006", s); err == nil {
		return t, nil
	}
	iso := s
	if len(iso) > 10 && (iso[10] == 'T' || iso[10] == ' ') {
		iso = iso[:10]
	}
	if t, err := time.Parse(time.DateOnly, iso); err == nil {
		return t, nil
	}
	return time.Time{}, srShapeError(path, "could not convert the string to a date (MM/DD/YYYY or YYYY-MM-DD)")
}

func parseSearchDateTime(s, path string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	if t, err := parseSearchDate(s, path); err == nil {
		return t, nil
	}
	return time.Time{}, srShapeError(path, "could not convert the string to a date and time (RFC 3339)")
}

// includeCols, marketing, tags, unsupported parameters.

func srDecodeIncludeCols(c *SearchCriteria, raw json.RawMessage, path string) error {
	elems, err := srDecodeArray(raw, path)
	if err != nil {
		return err
	}
	c.Columns, c.DefaultCols = nil, false
	seen := map[string]bool{}
	for i, e := range elems {
		// A null element is a wrong shape, as any other non-string one:
		// skipped silently, [null] would answer the default columns.
		name, err := srDecodeStringElem(e, fmt.Sprintf("%s[%d]", path, i))
		if err != nil {
			return err
		}
		col, found := LookupSearchColumn(strings.TrimSpace(name))
		if !found {
			if ContainsCardNumber(name) {
				// The reference's text echoes the name; never a card number.
				name = "(withheld: looks like a card number)"
			}
			return Errorf(KindInvalid, contract.CodeInvalidColumn, MethodParam, "Invalid column: %s", name)
		}
		if !seen[col.Name] {
			seen[col.Name] = true
			c.Columns = append(c.Columns, col)
		}
	}
	// An empty list is no list: the default set.
	if len(c.Columns) == 0 {
		c.Columns = nil
	}
	return nil
}

func srDecodeMarketing(c *SearchCriteria, raw json.RawMessage, path string) error {
	elems, err := srDecodeArray(raw, path)
	if err != nil {
		return err
	}
	c.Marketing = nil
	for i, e := range elems {
		ep := fmt.Sprintf("%s[%d]", path, i)
		if srIsNull(e) {
			continue
		}
		members, err := srDecodeObject(e, ep)
		if err != nil {
			return err
		}
		m := MarketingParam{Checked: true}
		for _, mem := range members {
			mp := srJoinPath(ep, mem.key)
			switch strings.ToLower(mem.key) {
			case "affiliation":
				v, ok, err := srDecodeInt(mem.raw, mp, "long")
				if err != nil {
					return err
				}
				m.Affiliation = srPtrIf(v, ok)
			case "marketingelementrecno":
				v, ok, err := srDecodeInt(mem.raw, mp, "long")
				if err != nil {
					return err
				}
				m.ElementRecNo = srPtrIf(v, ok)
			case "marketingelementid":
				v, ok, err := srDecodeString(mem.raw, mp)
				if err != nil {
					return err
				}
				if err := srCheckLen(mp, v, 64); err != nil {
					return err
				}
				m.ElementID = srPtrIf(v, ok)
			case "checked":
				v, ok, err := srDecodeBool(mem.raw, mp)
				if err != nil {
					return err
				}
				if ok {
					m.Checked = v
				}
			}
		}
		if m.Affiliation == nil && m.ElementRecNo == nil && m.ElementID == nil {
			return srValueError(ep, "a marketing parameter needs marketingElementRecNo, marketingElementId or affiliation")
		}
		c.Marketing = append(c.Marketing, m)
	}
	return nil
}

// srDecodeTags reads TagsSearchParams: {"tagRecNo":7, "tagName":"VIP",
// "value":{"value":["gold"],"compareCondition":1}, "checked":true}. value may
// also be flat: {"tagName":"VIP","value":["gold"],"compareCondition":1}.
func srDecodeTags(c *SearchCriteria, raw json.RawMessage, path string) error {
	elems, err := srDecodeArray(raw, path)
	if err != nil {
		return err
	}
	c.Tags = nil
	for i, e := range elems {
		ep := fmt.Sprintf("%s[%d]", path, i)
		if srIsNull(e) {
			continue
		}
		members, err := srDecodeObject(e, ep)
		if err != nil {
			return err
		}
		t := TagParam{Checked: true}
		var flat []srMember
		for _, mem := range members {
			mp := srJoinPath(ep, mem.key)
			switch strings.ToLower(mem.key) {
			case "tagrecno":
				v, ok, err := srDecodeInt(mem.raw, mp, "long")
				if err != nil {
					return err
				}
				t.TagRecNo = srPtrIf(v, ok)
			case "tagname":
				v, ok, err := srDecodeString(mem.raw, mp)
				if err != nil {
					return err
				}
				if err := srCheckLen(mp, v, 64); err != nil {
					return err
				}
				t.TagName = srPtrIf(v, ok)
			case "checked":
				v, ok, err := srDecodeBool(mem.raw, mp)
				if err != nil {
					return err
				}
				if ok {
					t.Checked = v
				}
			case "value":
				if srJsonKind(mem.raw) == "an object" {
					p, err := srDecodeStringParam(mem.raw, mp, 1024)
					if err != nil {
						return err
					}
					t.Value = p
					flat = nil
					continue
				}
				if srJsonKind(mem.raw) != "an array" && !srIsNull(mem.raw) {
					return srShapeError(mp, "expected a StringSearchParam object or an array of strings, found %s", srJsonKind(mem.raw))
				}
				flat = append(flat, mem)
			case "comparecondition":
				flat = append(flat, mem)
			}
		}
		if len(flat) > 0 {
			p, err := srStringParamFromMembers(flat, ep, 1024)
			if err != nil {
				return err
			}
			t.Value = p
		}
		if t.TagRecNo == nil && t.TagName == nil && !t.Value.Active() {
			return srValueError(ep, "a tags parameter needs tagRecNo, tagName or value")
		}
		c.Tags = append(c.Tags, t)
	}
	return nil
}

const (
	srArrayShape  = "an array"
	srObjectShape = "an object"
)

func srNotSupported(shape, msg string) srParamDecoder {
	return func(c *SearchCriteria, raw json.RawMessage, path string) error {
		if srIsNull(raw) {
			return nil
		}
		if k := srJsonKind(raw); k != shape {
			return srShapeError(path, "expected %s, found %s", shape, k)
		}
		var empty bool
		if shape == srArrayShape {
			var v []json.RawMessage
			empty = json.Unmarshal(raw, &v) == nil && len(v) == 0
		} else {
			var v map[string]json.RawMessage
			empty = json.Unmarshal(raw, &v) == nil && len(v) == 0
		}
		if empty {
			return nil
		}
		return Errorf(KindInvalid, contract.CodeNotSupported, MethodParam, "%s", msg)
	}
}

func srPtrIf[T any](v T, ok bool) *T {
	if !ok {
		return nil
	}
	return &v
}
