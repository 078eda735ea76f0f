package wayfarer

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// The rules of person search parameters. A converter at the edge reads the
// request and calls these with each parameter's path as the contract spells
// it ("lastName", "tags[0].value"), which their 407 messages name. A null
// (nil) is an absent value; a nil element of a value array is skipped.

// searchValueError is the 407 of a parameter that breaks a rule.
func searchValueError(path, format string, args ...any) error {
	return Errorf(KindInvalid, contract.CodeInvalidValue, MethodParam, "Invalid value: %s. Path '%s'.", fmt.Sprintf(format, args...), path)
}

// CheckSearchLength refuses a value longer than its column (in characters).
func CheckSearchLength(path, v string, size int) error {
	if n := utf8.RuneCountInString(v); size > 0 && n > size {
		return searchValueError(path, "the value is %d characters long, longer than the column's %d", n, size)
	}
	return nil
}

// NewStringParam reads a StringSearchParam. A missing condition with values
// means Equal (rather than a filter silently dropped), without values
// Ignore. Ignore, Blank and NotBlank do not use their values: whatever they
// hold is dropped. The other conditions compare each value, so a value
// must not be empty, nor, for In and NotIn, any item of its comma-separated
// list once trimmed (407 naming the element: blank fields are found with
// Blank and NotBlank), nor longer than the column (407); at least one value
// is required. Values are compared as sent, untrimmed, except the items of
// In and NotIn.
func NewStringParam(path string, cond *int, values []*string, size int) (StringParam, error) {
	var p StringParam
	type element struct{ value, path string }
	var elems []element
	for i, v := range values {
		if v != nil {
			elems = append(elems, element{*v, fmt.Sprintf("%s.value[%d]", path, i)})
		}
	}
	condPath := path + ".compareCondition"
	switch {
	case cond != nil && (*cond < 0 || *cond > int(StrNotContaining)):
		return p, searchValueError(condPath, "compareCondition %d is outside 0..10", *cond)
	case cond != nil:
		p.Cond = StringCondition(*cond)
	case len(elems) > 0:
		p.Cond = StrEqual
	}
	switch p.Cond {
	case StrIgnore, StrBlank, StrNotBlank:
		return p, nil
	}
	list := p.Cond == StrIn || p.Cond == StrNotIn
	for _, e := range elems {
		if !list {
			if e.value == "" {
				return p, emptyValueError(e.path, p.Cond, "the value is empty")
			}
			if err := CheckSearchLength(e.path, e.value, size); err != nil {
				return p, err
			}
			p.Values = append(p.Values, e.value)
			continue
		}
		if strings.TrimSpace(e.value) == "" {
			return p, emptyValueError(e.path, p.Cond, "the value is empty or only spaces (In and NotIn trim their items)")
		}
		items := strings.Split(e.value, ",")
		for i, item := range items {
			item = strings.TrimSpace(item)
			if item == "" {
				return p, emptyValueError(e.path, p.Cond,
					fmt.Sprintf("item %d of %d of the comma-separated list is empty (items are trimmed)", i+1, len(items)))
			}
			if err := CheckSearchLength(e.path, item, size); err != nil {
				return p, err
			}
			p.Values = append(p.Values, item)
		}
	}
	if len(p.Values) == 0 {
		return p, searchValueError(condPath, "compareCondition %d (%s) needs at least one value", p.Cond, p.Cond)
	}
	return p, nil
}

func emptyValueError(path string, cond StringCondition, what string) error {
	return searchValueError(path, "%s, and compareCondition %d (%s) needs a value to compare; "+
		"to find blank values use compareCondition 3 (Blank) or 4 (NotBlank)", what, cond, cond)
}

// NewNumParam reads a NumSearchParam; a missing condition with values
// means Equal. Equal and NotEqual need a value.
func NewNumParam(path string, cond *int, values []*int64) (NumParam, error) {
	var p NumParam
	for _, v := range values {
		if v != nil {
			p.Values = append(p.Values, *v)
		}
	}
	condPath := path + ".compareCondition"
	switch {
	case cond != nil && (*cond < 0 || *cond > int(NumNotBlank)):
		return p, searchValueError(condPath, "compareCondition %d is outside 0..4", *cond)
	case cond != nil:
		p.Cond = NumCondition(*cond)
	case len(p.Values) > 0:
		p.Cond = NumEqual
	}
	if (p.Cond == NumEqual || p.Cond == NumNotEqual) && len(p.Values) == 0 {
		return p, searchValueError(condPath, "compareCondition %d (%s) needs at least one value", p.Cond, p.Cond)
	}
	return p, nil
}

// NewSearchColumns resolves includeCols of the person search (names
// case-insensitive, repeats counted once); without names, the default
// columns (dflt true).
func NewSearchColumns(names []string) (cols []SearchColumn, dflt bool, err error) {
	return PersonSearchCatalog.Resolve(names)
}

// NewRowCount reads startingRow, rowCount or topRows: not negative.
func NewRowCount(path string, v *int64) (int64, error) {
	if v != nil && *v < 0 {
		return 0, searchValueError(path, "%d is negative", *v)
	}
	return deref(v), nil
}

// NewBirthdayBound reads a bound of the birthday range; 0 is "not set", as
// a client that always sends its long fields does.
func NewBirthdayBound(path string, v *int64, max int64) (int, error) {
	if v != nil && (*v < 0 || *v > max) {
		return 0, searchValueError(path, "%d is outside 1..%d", *v, max)
	}
	return int(deref(v)), nil
}

// NewMarketingParam reads a MarketingSearchParam: at least one of the
// element recNo, the element id or the affiliation; checked defaults to true.
func NewMarketingParam(path string, affiliation, elementRecNo *int64, elementID *string, checked *bool) (MarketingParam, error) {
	if affiliation == nil && elementRecNo == nil && elementID == nil {
		return MarketingParam{}, searchValueError(path, "a marketing parameter needs marketingElementRecNo, marketingElementId or affiliation")
	}
	if elementID != nil {
		if err := CheckSearchLength(path+".marketingElementId", *elementID, 64); err != nil {
			return MarketingParam{}, err
		}
	}
	return MarketingParam{Affiliation: affiliation, ElementRecNo: elementRecNo, ElementID: elementID, Checked: checked == nil || *checked}, nil
}

// NewTagParam reads a TagsSearchParams: recNo (or its older name
// tagRecNo) is required (404, as the reference answers); checked defaults
// to true; value (already read with NewStringParam) applies to the tag's value.
func NewTagParam(path string, recNo, tagRecNo *int64, tagName *string, value StringParam, checked *bool) (TagParam, error) {
	if recNo != nil && tagRecNo != nil && *recNo != *tagRecNo {
		return TagParam{}, searchValueError(path+".tagRecNo", "tagRecNo (the older name of recNo) differs from recNo")
	}
	if recNo == nil {
		recNo = tagRecNo
	}
	if recNo == nil || *recNo <= 0 {
		return TagParam{}, Errorf(KindInvalid, contract.CodeMissingParameter, MethodParam, "Missing or blank required parameter: The RecNo field is required.")
	}
	if tagName != nil {
		if err := CheckSearchLength(path+".tagName", *tagName, 64); err != nil {
			return TagParam{}, err
		}
	}
	return TagParam{TagRecNo: recNo, TagName: tagName, Value: value, Checked: checked == nil || *checked}, nil
}

// InstantBound is a bound of a half-open range of instants, from a
// DateTimeUTCSearchParam: an instant (dateTime, which wins) or a whole day
// (date). Both bounds are inclusive on the wire: an upper day includes the
// whole day, an upper instant that instant. Instants are stored to the
// microsecond (see Timestamp), so an inclusive instant bound becomes a
// half-open microsecond one.
func InstantBound(dateTime *time.Time, date *Date, upper bool) *time.Time {
	var b time.Time
	switch {
	case dateTime != nil && upper:
		b = dateTime.UTC().Truncate(time.Microsecond).Add(time.Microsecond)
	case dateTime != nil:
		b = dateTime.UTC().Truncate(time.Microsecond)
		if b.Before(*dateTime) {
			b = b.Add(time.Microsecond)
		}
	case date != nil && upper:
		b = date.Time().AddDate(0, 0, 1)
	case date != nil:
		b = date.Time()
	default:
		return nil
	}
	return &b
}

func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}
