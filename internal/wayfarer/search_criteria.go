package wayfarer

import (
	"strings"
	"time"
)

// StringCondition is the compareCondition of a StringSearchParam.
type StringCondition int

const (
	StrIgnore StringCondition = iota
	StrEqual
	StrNotEqual
	StrBlank // null or empty
	StrNotBlank
	StrStartingWith
	StrContains
	StrIn // like Equal; a value may hold a comma-separated list
	StrNotIn
	StrNotStartingWith
	StrNotContaining
)

var stringConditionNames = [...]string{"Ignore", "Equal", "NotEqual", "Blank", "NotBlank", "StartingWith", "Contains", "In", "NotIn", "NotStartingWith", "NotContaining"}

func (c StringCondition) String() string {
	if c >= 0 && int(c) < len(stringConditionNames) {
		return stringConditionNames[c]
	}
	return "Invalid"
}

// Negated reports whether c is a negative condition, and returns the
// positive condition it is the complement of.
func (c StringCondition) Negated() (StringCondition, bool) {
	switch c {
	case StrNotEqual:
		return StrEqual, true
	case StrNotBlank:
		return StrBlank, true
	case StrNotIn:
		return StrIn, true
	case StrNotStartingWith:
		return StrStartingWith, true
	case StrNotContaining:
		return StrContains, true
	}
	return c, false
}

// StringParam is a decoded StringSearchParam. For In and NotIn the values
// are already split at commas and trimmed. the decoding (internal/wire) never
// leaves an empty value (it answers 407: Blank and NotBlank find blank
// fields) and leaves no values for Ignore, Blank and NotBlank, which do not
// use them.
//
// Semantics, shared by the SQL and by Matches: comparison ignores case
// (ASCII letters on SQLite, as its lower() does; PostgreSQL folds Unicode);
// a positive condition holds when the value is not null and matches any of
// the values; a negative condition is the exact complement of its positive
// one, so a null matches NotEqual, NotIn, NotStartingWith and NotContaining.
type StringParam struct {
	Cond   StringCondition
	Values []string
}

// Active reports whether the parameter filters anything.
func (p StringParam) Active() bool { return p.Cond != StrIgnore }

// Matches evaluates the parameter on a value (nil is null) in plain Go.
func (p StringParam) Matches(v *string) bool {
	pos, neg := p.Cond.Negated()
	ok := p.matchPositive(pos, v)
	if neg {
		return !ok
	}
	return ok
}

func (p StringParam) matchPositive(c StringCondition, v *string) bool {
	switch c {
	case StrIgnore:
		return true
	case StrBlank:
		return v == nil || *v == ""
	}
	if v == nil {
		return false
	}
	s := FoldASCII(*v)
	for _, x := range p.Values {
		x = FoldASCII(x)
		switch c {
		case StrEqual, StrIn:
			if s == x {
				return true
			}
		case StrStartingWith:
			if strings.HasPrefix(s, x) {
				return true
			}
		case StrContains:
			if strings.Contains(s, x) {
				return true
			}
		}
	}
	return false
}

// FoldASCII lower-cases ASCII letters only, as SQLite's lower() does.
func FoldASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// NumCondition is the compareCondition of a NumSearchParam.
type NumCondition int

const (
	NumIgnore   NumCondition = iota
	NumEqual                 // any of the values
	NumNotEqual              // none of the values; null matches
	NumBlank                 // null
	NumNotBlank
)

var numConditionNames = [...]string{"Ignore", "Equal", "NotEqual", "Blank", "NotBlank"}

func (c NumCondition) String() string {
	if c >= 0 && int(c) < len(numConditionNames) {
		return numConditionNames[c]
	}
	return "Invalid"
}

// NumParam is a decoded NumSearchParam.
type NumParam struct {
	Cond   NumCondition
	Values []int64
}

// Active reports whether the parameter filters anything.
func (p NumParam) Active() bool { return p.Cond != NumIgnore }

// Matches evaluates the parameter on a value (nil is null) in plain Go.
func (p NumParam) Matches(v *int64) bool {
	switch p.Cond {
	case NumBlank:
		return v == nil
	case NumNotBlank:
		return v != nil
	case NumEqual, NumNotEqual:
		in := false
		if v != nil {
			for _, x := range p.Values {
				if x == *v {
					in = true
					break
				}
			}
		}
		return in == (p.Cond == NumEqual)
	}
	return true
}

// TimeRange is a half-open range [From, Before) of instants, in UTC. A nil
// bound is open.
type TimeRange struct {
	From, Before *time.Time
}

// Active reports whether the range bounds anything.
func (r TimeRange) Active() bool { return r.From != nil || r.Before != nil }

// Matches evaluates the range; a null never matches an active range.
func (r TimeRange) Matches(t *time.Time) bool {
	if !r.Active() {
		return true
	}
	if t == nil {
		return false
	}
	if r.From != nil && t.Before(*r.From) {
		return false
	}
	if r.Before != nil && !t.Before(*r.Before) {
		return false
	}
	return true
}

// DateRange is an inclusive range of calendar dates, "2006-01-02"; an empty
// bound is open.
type DateRange struct {
	From, To string
}

// Active reports whether the range bounds anything.
func (r DateRange) Active() bool { return r.From != "" || r.To != "" }

// Matches evaluates the range on a "2006-01-02" date; a null never matches
// an active range.
func (r DateRange) Matches(d *string) bool {
	if !r.Active() {
		return true
	}
	if d == nil {
		return false
	}
	day := *d
	if len(day) > 10 {
		day = day[:10]
	}
	return (r.From == "" || day >= r.From) && (r.To == "" || day <= r.To)
}

// BirthdayRange is the range of birthdays of birthdayMonthFrom/To and
// birthdayDayFrom/To; 0 is an absent bound.
//
//   - Only month bounds: the month lies in [MonthFrom, MonthTo] (open bounds
//     are 1 and 12).
//   - Only day bounds: the day of the month lies in [DayFrom, DayTo] (open
//     bounds are 1 and 31).
//   - Both: the birthday (month, day) lies between (MonthFrom, DayFrom) and
//     (MonthTo, DayTo), missing parts defaulting as above; a person without a
//     birthday day does not match.
//
// In each case a range whose start lies after its end wraps around: months
// 12 to 1 is December and January, (12, 20) to (1, 10) is December 20 to
// January 10.
type BirthdayRange struct {
	MonthFrom, MonthTo, DayFrom, DayTo int
}

// Active reports whether any bound is set.
func (b BirthdayRange) Active() bool {
	return b.MonthFrom != 0 || b.MonthTo != 0 || b.DayFrom != 0 || b.DayTo != 0
}

// HasMonths and HasDays tell which of the three modes applies.
func (b BirthdayRange) HasMonths() bool { return b.MonthFrom != 0 || b.MonthTo != 0 }
func (b BirthdayRange) HasDays() bool   { return b.DayFrom != 0 || b.DayTo != 0 }

// Months returns the month bounds with open ends filled in.
func (b BirthdayRange) Months() (lo, hi int) {
	return srOrDefault(b.MonthFrom, 1), srOrDefault(b.MonthTo, 12)
}

// Days returns the day bounds with open ends filled in.
func (b BirthdayRange) Days() (lo, hi int) {
	return srOrDefault(b.DayFrom, 1), srOrDefault(b.DayTo, 31)
}

// Keys returns the bounds as month*100+day, for the combined mode.
func (b BirthdayRange) Keys() (lo, hi int) {
	ml, mh := b.Months()
	dl, dh := b.Days()
	return ml*100 + dl, mh*100 + dh
}

// Matches evaluates the range on a birthday month and day (nil is null).
func (b BirthdayRange) Matches(month, day *int64) bool {
	switch {
	case !b.Active():
		return true
	case b.HasMonths() && b.HasDays():
		if month == nil || day == nil {
			return false
		}
		lo, hi := b.Keys()
		return srInWrapped(int(*month)*100+int(*day), lo, hi)
	case b.HasMonths():
		lo, hi := b.Months()
		return month != nil && srInWrapped(int(*month), lo, hi)
	default:
		lo, hi := b.Days()
		return day != nil && srInWrapped(int(*day), lo, hi)
	}
}

func srInWrapped(v, lo, hi int) bool {
	if lo <= hi {
		return v >= lo && v <= hi
	}
	return v >= lo || v <= hi
}

func srOrDefault(v, d int) int {
	if v == 0 {
		return d
	}
	return v
}

// MarketingParam is a decoded MarketingSearchParam: the person has
// (Checked) or has not (!Checked) a marketing element matching every given
// field. ElementID compares case-insensitively with the element's code.
type MarketingParam struct {
	Affiliation  *int64
	ElementRecNo *int64
	ElementID    *string
	Checked      bool
}

// TagParam is a decoded TagsSearchParams: the person has (Checked) or has
// not (!Checked) a tag matching every given field. TagName compares
// case-insensitively; Value applies to the tag's value.
type TagParam struct {
	TagRecNo *int64
	TagName  *string
	Value    StringParam
	Checked  bool
}

// SearchCriteria is a decoded personSearch request (contract §2.4).
//
// Filters on a child record (cards, communications, action items) select
// persons with at least one such child passing every filter on that child;
// a person without any never passes. When that child's columns are shown,
// only the children passing those filters make rows. profileRecNo is
// different: it tests the set of the person's profiles, so NotEqual means
// "linked to none of them" and Blank "linked to no profile".
type SearchCriteria struct {
	BaseCriteria

	SkipLookup bool
	Priority   int64
	// Continuation starts the page after the row it names (a search's
	// continuation, search_continuation.go); "" is none.
	Continuation string

	// person
	UniqueID            string // exact match; "" is no filter
	FirstName           StringParam
	MiddleName          StringParam
	LastName            StringParam
	ActiveStatus        []int64
	AdvisorProfileRecNo NumParam
	BirthdayMonth       NumParam
	Birthday            BirthdayRange

	// primary communications: true has the permission, false has not (no
	// primary communication of that type, or it does not permit)
	EmailPermitMarketing *bool
	PhonePermitMarketing *bool

	// communications (one child must pass all)
	CommType               []int64
	CommValue              StringParam
	CommValueCountryDomain StringParam
	CommValueCityArea      StringParam
	CommValueUserSpecific  StringParam

	// cards (one child must pass all)
	CardType       []int64
	CardSubType    NumParam
	CardExpiration DateRange

	// action items (one child must pass all)
	ActionItemCompleted  *bool // true: completed is set; false: it is not
	ActionItemDate       DateRange
	ActionItemAssignedTo NumParam

	ProfileRecNo NumParam
	Marketing    []MarketingParam
	Tags         []TagParam

	// PersonActivity (personActivitySearchParams): persons with at least
	// one activity in the caller's reach among activities (ActivityScope,
	// set by the service) that passes every activity filter; nil: none.
	// Only its filters, recNo and createDateTime/modifiedDateTime bounds
	// apply (FlatCriteria of ActivitySearchCatalog).
	PersonActivity *FlatCriteria
	ActivityScope  Scope
}

// ShowsGroup reports whether any column of the group is requested, so the
// result has a row per child of that group.
func (c *SearchCriteria) ShowsGroup(g ColumnGroup) bool {
	for _, col := range c.Columns {
		if col.Group == g {
			return true
		}
	}
	return false
}

// FiltersCards, FiltersComms and FiltersActionItems report whether a filter
// on that child is present.
func (c *SearchCriteria) FiltersCards() bool {
	return len(c.CardType) > 0 || c.CardSubType.Active() || c.CardExpiration.Active()
}

func (c *SearchCriteria) FiltersComms() bool {
	return len(c.CommType) > 0 || c.CommValue.Active() || c.CommValueCountryDomain.Active() ||
		c.CommValueCityArea.Active() || c.CommValueUserSpecific.Active()
}

// WithoutCommFilters is a copy of c without the filters FiltersComms
// reports.
func (c *SearchCriteria) WithoutCommFilters() *SearchCriteria {
	out := *c
	out.CommType, out.CommValue, out.CommValueCountryDomain, out.CommValueCityArea, out.CommValueUserSpecific =
		nil, StringParam{}, StringParam{}, StringParam{}, StringParam{}
	return &out
}

func (c *SearchCriteria) FiltersActionItems() bool {
	return c.ActionItemCompleted != nil || c.ActionItemDate.Active() || c.ActionItemAssignedTo.Active()
}
