package wire

import (
	"bytes"
	"fmt"
	"reflect"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// DecodeActivitySave reads the body of POST /activity and POST
// /activity/refresh: an activity object or an array of one (a create), or
// {"oldNewDataset":{"oldData":[a],"newData":[a]}} (an update; an empty
// oldData is a create). old is nil for a create.
func DecodeActivitySave(dec *jsoncodec.Decoder, body []byte) (old, new *wayfarer.Activity, err error) {
	olds, news, err := decodeSidesOf[wayfarer.Activity](dec, body, wayfarer.MethodActivity, "activity")
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
	activityUnserved
}

// activityUnserved are ActivitySearch parameters Wayfarer does not serve
// yet: activities link to persons only, and rows are never merged.
type activityUnserved struct {
	ClientProfileRecNo   *contract.NumSearchParam    `json:"clientProfileRecNo" wf:"unsupported"`
	SupplierProfileRecNo *contract.NumSearchParam    `json:"supplierProfileRecNo" wf:"unsupported"`
	TripRecNo            *contract.NumSearchParam    `json:"tripRecNo" wf:"unsupported"`
	PromoID              *contract.StringSearchParam `json:"promoId" wf:"unsupported"`
	Distinct             *bool                       `json:"distinct" wf:"unsupported"`
	IncludeColsExtended  []any                       `json:"includeColsExtended" wf:"unsupported"`
}

// DecodeActivitySearch reads an activitySearch body; an empty body or null
// is a search without parameters.
func DecodeActivitySearch(dec *jsoncodec.Decoder, body []byte) (*wayfarer.ActivityCriteria, error) {
	var b activitySearchBody
	if len(bytes.TrimSpace(body)) > 0 {
		if err := dec.Decode(body, &b, wayfarer.MethodParam); err != nil {
			return nil, err
		}
	}
	r := &b.ActivitySearchRequest
	v := &converter{}
	c := activityFilters(v, r, "")
	c.ReportFormat, c.ReportName = deref(r.ReportFormat), deref(r.ReportName)
	if v.err == nil {
		c.Columns, c.DefaultCols, v.err = wayfarer.NewActivitySearchColumns(r.IncludeCols)
	}
	c.StartingRow = v.count("startingRow", r.StartingRow)
	c.RowCount = v.count("rowCount", r.RowCount)
	c.TopRows = v.count("topRows", r.TopRows)
	if v.err != nil {
		return nil, v.err
	}
	return c, nil
}

// personActivityCriteria converts personActivitySearchParams: its filters
// only. Paging, columns and a report are the person search's; given here
// they would be ignored, so they are refused. Without any filter it is no
// filter, as an empty array is elsewhere.
func personActivityCriteria(v *converter, r *contract.ActivitySearchRequest) *wayfarer.ActivityCriteria {
	if r == nil || v.err != nil {
		return nil
	}
	const path = "personActivitySearchParams"
	for _, m := range []struct {
		name string
		set  bool
	}{
		{"startingRow", r.StartingRow != nil}, {"rowCount", r.RowCount != nil}, {"topRows", r.TopRows != nil},
		{"includeCols", len(r.IncludeCols) > 0}, {"reportFormat", deref(r.ReportFormat)}, {"reportName", r.ReportName != nil},
	} {
		if name := m.name; m.set {
			v.check(wayfarer.Errorf(wayfarer.KindInvalid, contract.CodeInvalidValue, wayfarer.MethodParam,
				"Invalid value: the person search's own %s applies; personActivitySearchParams takes activity filters only. Path '%s.%s'.", name, path, name))
			return nil
		}
	}
	c := activityFilters(v, r, path+".")
	if v.err != nil || !c.Filters() {
		return nil
	}
	return c
}

// activityFilters converts the filters of an activity search, each path
// prefixed with prefix.
func activityFilters(v *converter, r *contract.ActivitySearchRequest, prefix string) *wayfarer.ActivityCriteria {
	c := &wayfarer.ActivityCriteria{Completed: r.Completed}
	c.RecNo = v.num(prefix+"recNo", r.RecNo)
	c.AppUserRecNo = v.num(prefix+"appUserRecNo", r.AppUserRecNo)
	c.Type = v.num(prefix+"type", r.Type)
	c.PersonRecNo = v.num(prefix+"personRecNo", r.PersonRecNo)
	c.Subject = v.str(prefix+"subject", r.Subject, 64)
	c.TargetDate.From = v.date(prefix+"targetDateFrom", r.TargetDateFrom)
	c.TargetDate.To = v.date(prefix+"targetDateTo", r.TargetDateTo)
	c.TargetDateTime.From = v.instant(prefix+"targetDateTimeFrom", r.TargetDateTimeFrom, false)
	c.TargetDateTime.Before = v.instant(prefix+"targetDateTimeTo", r.TargetDateTimeTo, true)
	c.Created.From = v.instant(prefix+"createDateTimeFrom", r.CreateDateTimeFrom, false)
	c.Created.Before = v.instant(prefix+"createDateTimeTo", r.CreateDateTimeTo, true)
	c.Modified.From = v.instant(prefix+"modifiedDateTimeFrom", r.ModifiedDateTimeFrom, false)
	c.Modified.Before = v.instant(prefix+"modifiedDateTimeTo", r.ModifiedDateTimeTo, true)
	c.Tags = v.tags(prefix, r.Tags)
	return c
}

// tags converts the tags parameter (TagsSearchParams entries).
func (v *converter) tags(prefix string, entries []*contract.TagsSearchParams) []wayfarer.TagParam {
	var out []wayfarer.TagParam
	for i, t := range entries {
		if t == nil || v.err != nil {
			continue
		}
		path := fmt.Sprintf("%stags[%d]", prefix, i)
		value := v.str(path+".value", t.Value, 1024)
		p, err := wayfarer.NewTagParam(path, t.RecNo, t.TagRecNo, t.TagName, value, t.Checked)
		out = append(out, p)
		v.check(err)
	}
	return out
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
