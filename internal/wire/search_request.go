package wire

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// personSearchBody is the body of POST /personSearch: the request the
// client shares, and the parameters the reference knows that Wayfarer does
// not serve yet.
type personSearchBody struct {
	contract.PersonSearchRequest
	DisplayTagRecNo *int64 `json:"displayTagRecNo" wf:"unsupported"` // the Java client's base search model
	// Shadows the contract's member: its parameters not served yet are
	// refused (408) as in an activity search.
	PersonActivitySearchParams *activitySearchBody `json:"personActivitySearchParams"`
	Continuation               *string             `json:"continuation"` // Wayfarer's own: docs/search.md, "Walking every person"
}

// SearchParamNames lists the parameters of POST /personSearch as the
// contract spells them.
var SearchParamNames = paramNames[personSearchBody]()

// paramNames lists the members of a search body type (embedded types
// flattened) as the contract spells them.
func paramNames[T any]() (names []string) {
	for _, f := range reflect.VisibleFields(reflect.TypeFor[T]()) {
		if name := jsonName(f); name != "" && !f.Anonymous {
			names = append(names, name)
		}
	}
	return names
}

// DecodePersonSearch reads a personSearch body into criteria; an empty
// body or null is a search without parameters.
func DecodePersonSearch(dec *jsoncodec.Decoder, body []byte) (*wayfarer.SearchCriteria, error) {
	var b personSearchBody
	if len(bytes.TrimSpace(body)) > 0 {
		if err := dec.Decode(body, &b, wayfarer.MethodParam); err != nil {
			return nil, err
		}
	}
	if b.PersonActivitySearchParams != nil {
		b.PersonSearchRequest.PersonActivitySearchParams = &b.PersonActivitySearchParams.ActivitySearchRequest
	}
	c, err := SearchCriteria(&b.PersonSearchRequest)
	if c != nil {
		c.Continuation = deref(b.Continuation)
	}
	return c, err
}

// SearchCriteria converts a request: each parameter through the core's
// rule for it, with its path; the first broken rule is the answer.
func SearchCriteria(r *contract.PersonSearchRequest) (*wayfarer.SearchCriteria, error) {
	v := &converter{}
	c := &wayfarer.SearchCriteria{
		SkipLookup: deref(r.SkipLookup), Priority: deref(r.Priority),
		UniqueID: deref(r.UniqueID), CommType: ints(r.CommType), CardType: ints(r.CardType), ActiveStatus: ints(r.ActiveStatus),
		EmailPermitMarketing: r.EmailPermitMarketing, PhonePermitMarketing: r.PhonePermitMarketing,
		ActionItemCompleted: r.ActionItemCompleted,
	}
	c.BaseCriteria = v.base(wayfarer.PersonSearchCatalog, &r.SearchBase)
	if len(r.IncludeColsExtended) > 0 && v.err == nil {
		var extended []wayfarer.SearchColumn
		extended, v.err = wayfarer.NewExtendedColumns(extendedColumns(r.IncludeColsExtended))
		c.Columns = append(c.Columns, extended...)
	}
	v.check(wayfarer.CheckSearchLength("UniqueId", c.UniqueID, 64))
	c.FirstName = v.str("firstName", r.FirstName, 64)
	c.MiddleName = v.str("middleName", r.MiddleName, 64)
	c.LastName = v.str("lastName", r.LastName, 64)
	c.CommValue = v.str("commValue", r.CommValue, 256)
	c.CommValueCountryDomain = v.str("commValueCountryDomain", r.CommValueCountryDomain, 64)
	c.CommValueCityArea = v.str("commValueCityArea", r.CommValueCityArea, 4)
	c.CommValueUserSpecific = v.str("commValueUserSpecific", r.CommValueUserSpecific, 64)
	c.ProfileRecNo = v.num("profileRecNo", r.ProfileRecNo)
	c.BirthdayMonth = v.num("birthdayMonth", r.BirthdayMonth)
	c.Birthday.MonthFrom = v.birthday("birthdayMonthFrom", r.BirthdayMonthFrom, 12)
	c.Birthday.MonthTo = v.birthday("birthdayMonthTo", r.BirthdayMonthTo, 12)
	c.Birthday.DayFrom = v.birthday("birthdayDayFrom", r.BirthdayDayFrom, 31)
	c.Birthday.DayTo = v.birthday("birthdayDayTo", r.BirthdayDayTo, 31)
	c.CardSubType = v.num("cardSubType", r.CardSubType)
	c.CardExpiration.From = v.date("cardExpirationDateFrom", r.CardExpirationDateFrom)
	c.CardExpiration.To = v.date("cardExpirationDateTo", r.CardExpirationDateTo)
	c.AdvisorProfileRecNo = v.num("AdvisorProfileRecNo", r.AdvisorProfileRecNo)
	c.ActionItemDate.From = v.date("actionItemDateFrom", r.ActionItemDateFrom)
	c.ActionItemDate.To = v.date("actionItemDateTo", r.ActionItemDateTo)
	c.ActionItemAssignedTo = v.num("actionItemAssignedToAppUserRecNo", r.ActionItemAssignedToAppUserRecNo)
	for i, m := range r.Marketing {
		if m != nil && v.err == nil {
			var affiliation *int64
			if m.Affiliation != nil {
				affiliation = new(int64(*m.Affiliation))
			}
			p, err := wayfarer.NewMarketingParam(fmt.Sprintf("marketing[%d]", i), affiliation, m.MarketingElementRecNo, m.MarketingElementID, m.Checked)
			c.Marketing, v.err = append(c.Marketing, p), err
		}
	}
	for _, t := range v.tagParams("", r.Tags) {
		c.Tags = append(c.Tags, t.param)
	}
	c.PersonActivity = personActivityCriteria(v, r.PersonActivitySearchParams)
	if v.err != nil {
		return nil, v.err
	}
	return c, nil
}

// extendedColumns reads includeColsExtended entries; a null entry is an
// entry without members, refused as such.
func extendedColumns(entries []*contract.ExtendedColumn) []wayfarer.ExtendedColumnRequest {
	out := make([]wayfarer.ExtendedColumnRequest, len(entries))
	for i, e := range entries {
		if e != nil {
			out[i] = wayfarer.ExtendedColumnRequest{Type: e.Type, RecNo: e.RecNo}
		}
	}
	return out
}

// converter keeps the first error of a conversion, so that each parameter
// takes one line.
type converter struct{ err error }

func (v *converter) check(err error) {
	if v.err == nil {
		v.err = err
	}
}

func (v *converter) str(path string, p *contract.StringSearchParam, size int) wayfarer.StringParam {
	if p == nil || v.err != nil {
		return wayfarer.StringParam{}
	}
	sp, err := wayfarer.NewStringParam(path, p.CompareCondition, p.Value, size)
	v.check(err)
	return sp
}

func (v *converter) num(path string, p *contract.NumSearchParam) wayfarer.NumParam {
	if p == nil || v.err != nil {
		return wayfarer.NumParam{}
	}
	np, err := wayfarer.NewNumParam(path, p.CompareCondition, p.Value)
	v.check(err)
	return np
}

func (v *converter) count(path string, n *int64) int64 {
	c, err := wayfarer.NewRowCount(path, n)
	v.check(err)
	return c
}

func (v *converter) birthday(path string, n *int64, max int64) int {
	b, err := wayfarer.NewBirthdayBound(path, n, max)
	v.check(err)
	return b
}

// parseDate reads a date string, answering 406 (its form is the wire's).
func (v *converter) parseDate(path string, s *string) *wayfarer.Date {
	if s == nil || v.err != nil {
		return nil
	}
	d, err := wayfarer.ParseDate(*s)
	if err != nil {
		v.check(jsoncodec.TypeError(wayfarer.MethodParam, path, "a date (YYYY-MM-DD, MM/DD/YYYY or an ISO date-time)", "a string in another form"))
		return nil
	}
	return &d
}

// date reads a DateSearchParam as a "2006-01-02" bound ("" for none).
func (v *converter) date(path string, p *contract.DateSearchParam) string {
	if p == nil {
		return ""
	}
	if d := v.parseDate(path+".date", p.Date); d != nil {
		return d.String()
	}
	return ""
}

// instant reads a DateTimeUTCSearchParam as a bound; dateTime (an
// instant, or a date's midnight UTC) wins over date (a whole day).
func (v *converter) instant(path string, p *contract.DateTimeUTCSearchParam, upper bool) *time.Time {
	if p == nil || v.err != nil {
		return nil
	}
	var at *time.Time
	if p.DateTime != nil {
		t, err := wayfarer.ParseInstant(*p.DateTime)
		if d, derr := wayfarer.ParseDate(*p.DateTime); err != nil && derr == nil {
			t, err = d.Time(), nil
		}
		if err != nil {
			v.check(jsoncodec.TypeError(wayfarer.MethodParam, path+".dateTime", "a date and time (RFC 3339)", "a string in another form"))
			return nil
		}
		at = &t
	}
	return wayfarer.InstantBound(at, v.parseDate(path+".date", p.Date), upper)
}

func ints[T int16 | int32](s []T) []int64 {
	var out []int64
	for _, x := range s {
		out = append(out, int64(x))
	}
	return out
}

func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}
