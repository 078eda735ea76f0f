package wire

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// DecodeActivitySave reads the body of POST /activity and POST
// /activity/refresh: an activity object or an array of one (a create), or
// {"oldNewDataset":{"oldData":[a],"newData":[a]}} (an update; an empty
// oldData is a create). old is nil for a create.
func DecodeActivitySave(dec *jsoncodec.Decoder, body []byte) (old, new *wayfarer.Activity, err error) {
	olds, news, err := decodeRecordSides[wayfarer.Activity](dec, body, wayfarer.MethodActivity, "activity")
	if err != nil {
		return nil, nil, err
	}
	if len(olds) == 1 {
		old = &olds[0]
	}
	return old, &news[0], nil
}

// ActivityJSON is the answer of GET /activity/{recNo} and POST
// /activity/refresh: an array holding the activity, as the person's.
func ActivityJSON(a *wayfarer.Activity) ([]byte, error) {
	return jsoncodec.Marshal([]*wayfarer.Activity{a})
}

// activitySearchBody is the body of POST /activitySearch: the request the
// client shares, and the parameters the devportal lists that Wayfarer
// does not serve yet.
type activitySearchBody struct {
	contract.ActivitySearchRequest
	SearchUnserved
	activityUnserved
}

// activityUnserved are ActivitySearch parameters Wayfarer does not serve
// yet: activities link to persons only.
type activityUnserved struct {
	ClientProfileRecNo   *contract.NumSearchParam    `json:"clientProfileRecNo" wf:"unsupported"`
	SupplierProfileRecNo *contract.NumSearchParam    `json:"supplierProfileRecNo" wf:"unsupported"`
	TripRecNo            *contract.NumSearchParam    `json:"tripRecNo" wf:"unsupported"`
	PromoID              *contract.StringSearchParam `json:"promoId" wf:"unsupported"`
}

// ActivitySearchParamNames lists the parameters of POST /activitySearch as
// the devportal spells them.
var ActivitySearchParamNames = func() (names []string) {
	for _, f := range reflect.VisibleFields(reflect.TypeFor[activitySearchBody]()) {
		if name := jsonName(f); name != "" && !f.Anonymous {
			names = append(names, name)
		}
	}
	return names
}()

// DecodeActivitySearch reads an activitySearch body (search kit).
func DecodeActivitySearch(dec *jsoncodec.Decoder, body []byte) (*wayfarer.FlatCriteria, error) {
	var b activitySearchBody
	if err := DecodeSearchBody(dec, body, &b); err != nil {
		return nil, err
	}
	cat, r, v := wayfarer.ActivitySearchCatalog, &b.ActivitySearchRequest, &converter{}
	for _, name := range r.IncludeCols {
		for _, u := range wayfarer.UnservedActivityColumns {
			if strings.EqualFold(strings.TrimSpace(name), u) {
				return nil, wayfarer.Errorf(wayfarer.KindInvalid, contract.CodeNotSupported, wayfarer.MethodParam,
					"includeCols: column %s is not yet supported by Wayfarer", u)
			}
		}
	}
	c := &wayfarer.FlatCriteria{BaseCriteria: v.base(cat, &r.SearchBase)}
	v.activityFilters(c, r, "")
	return v.done(c)
}

// activityFilters adds the activity search's own filters, each path
// prefixed with prefix.
func (v *converter) activityFilters(c *wayfarer.FlatCriteria, r *contract.ActivitySearchRequest, prefix string) {
	cat := wayfarer.ActivitySearchCatalog
	c.Add(v.numFilter(prefix+"appUserRecNo", "appUser_recNo", r.AppUserRecNo))
	c.Add(v.numFilter(prefix+"type", "type", r.Type))
	c.Add(v.numFilter(prefix+"personRecNo", wayfarer.ActivityFilterPerson, r.PersonRecNo))
	c.Add(v.strFilter(cat, prefix+"subject", "subject", r.Subject))
	c.Add(boolFilter(prefix+"completed", wayfarer.ActivityFilterCompleted, r.Completed))
	c.Add(wayfarer.SearchFilter{Key: "targetDate", Path: prefix + "targetDate", Date: wayfarer.DateRange{
		From: v.date(prefix+"targetDateFrom", r.TargetDateFrom), To: v.date(prefix+"targetDateTo", r.TargetDateTo)}})
	c.Add(wayfarer.SearchFilter{Key: "targetDateTime", Path: prefix + "targetDateTime", Time: wayfarer.TimeRange{
		From:   v.instant(prefix+"targetDateTimeFrom", r.TargetDateTimeFrom, false),
		Before: v.instant(prefix+"targetDateTimeTo", r.TargetDateTimeTo, true)}})
	for _, t := range v.tagParams(prefix, r.Tags) {
		c.Add(wayfarer.SearchFilter{Key: wayfarer.ActivityFilterTag, Path: t.path, Tag: &t.param})
	}
}

// personActivityCriteria converts personActivitySearchParams: the activity
// filters, recNo and the createDateTime/modifiedDateTime bounds. Paging,
// columns and a report are the person search's; given here they would be
// ignored, so they are refused. Without any filter it is no filter, as an
// empty array is elsewhere.
func personActivityCriteria(v *converter, r *contract.ActivitySearchRequest) *wayfarer.FlatCriteria {
	if r == nil || v.err != nil {
		return nil
	}
	const path = "personActivitySearchParams"
	for _, m := range []struct {
		name string
		set  bool
	}{
		{"startingRow", r.StartingRow != nil}, {"rowCount", r.RowCount != nil}, {"topRows", r.TopRows != nil},
		{"distinct", deref(r.Distinct)}, {"includeCols", len(r.IncludeCols) > 0}, {"reportFormat", deref(r.ReportFormat)},
		{"reportName", r.ReportName != nil}, {"readOnlyIntent", deref(r.ReadOnlyIntent)},
	} {
		if m.set {
			v.check(wayfarer.Errorf(wayfarer.KindInvalid, contract.CodeInvalidValue, wayfarer.MethodParam,
				"Invalid value: the person search's own %s applies; personActivitySearchParams takes activity filters only. Path '%s.%s'.", m.name, path, m.name))
			return nil
		}
	}
	const p = path + "."
	c := &wayfarer.FlatCriteria{}
	c.RecNo = v.num(p+"recNo", r.RecNo)
	c.Created.From = v.instant(p+"createDateTimeFrom", r.CreateDateTimeFrom, false)
	c.Created.Before = v.instant(p+"createDateTimeTo", r.CreateDateTimeTo, true)
	c.Modified.From = v.instant(p+"modifiedDateTimeFrom", r.ModifiedDateTimeFrom, false)
	c.Modified.Before = v.instant(p+"modifiedDateTimeTo", r.ModifiedDateTimeTo, true)
	v.activityFilters(c, r, p)
	if v.err != nil || len(c.Filters) == 0 && !c.RecNo.Active() && !c.Created.Active() && !c.Modified.Active() {
		return nil
	}
	return c
}

type tagFilter struct {
	path  string
	param wayfarer.TagParam
}

// tagParams converts the tags parameter (TagsSearchParams entries) as the
// person search reads it: recNo required (the reference's 404), the value
// a StringSearchParam of up to 1024 characters.
func (v *converter) tagParams(prefix string, entries []*contract.TagsSearchParams) []tagFilter {
	var out []tagFilter
	for i, t := range entries {
		if t == nil || v.err != nil {
			continue
		}
		path := fmt.Sprintf("%stags[%d]", prefix, i)
		value := v.str(path+".value", t.Value, 1024)
		p, err := wayfarer.NewTagParam(path, t.RecNo, t.TagRecNo, t.TagName, value, t.Checked)
		out = append(out, tagFilter{path, p})
		v.check(err)
	}
	return out
}
