package wire

import (
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// kitBody is a search body as a new search writes it with the kit: the
// request (embedding SearchBase) beside SearchUnserved, one level up, so
// that SearchUnserved's members win over SearchBase's of the same name.
type kitBody struct {
	kitRequest
	SearchUnserved
}

type kitRequest struct {
	contract.SearchBase
	Name       *contract.StringSearchParam      `json:"name"`
	Kind       contract.ShortSet                `json:"kind"`
	Status     contract.StatusSet               `json:"status"`
	DayFrom    *contract.DateSearchParam        `json:"dayFrom"`
	DayTo      *contract.DateSearchParam        `json:"dayTo"`
	AtFrom     *contract.DateTimeUTCSearchParam `json:"atFrom"`
	AtTo       *contract.DateTimeUTCSearchParam `json:"atTo"`
	Done       *bool                            `json:"done"`
	Owner      *contract.NumSearchParam         `json:"owner"`
	Tags       []*contract.TagsSearchParams     `json:"tags"`
	LongerName *contract.StringSearchParam      `json:"longerName"`
}

func decodeKit(body string) (*wayfarer.FlatCriteria, error) {
	var b kitBody
	if err := DecodeSearchBody(jsoncodec.Strict, []byte(body), &b); err != nil {
		return nil, err
	}
	cat, v := wayfarer.BranchSearchCatalog, &converter{}
	c := &wayfarer.FlatCriteria{BaseCriteria: v.base(cat, &b.SearchBase)}
	c.Add(v.strFilter(cat, "name", "name", b.Name))
	c.Add(inFilter("kind", "kind", b.Kind))
	c.Add(inFilter("status", "status", b.Status))
	c.Add(v.dateFilter("day", "day", "dayFrom", "dayTo", b.DayFrom, b.DayTo))
	c.Add(v.timeFilter("at", "at", "atFrom", "atTo", b.AtFrom, b.AtTo))
	c.Add(boolFilter("done", "done", b.Done))
	c.Add(v.numFilter("owner", "owner", b.Owner))
	c.Add(v.tags(b.Tags))
	c.Add(v.strFilterSized("longerName", "longerName", b.LongerName, 3))
	return v.done(c)
}

func TestSearchKitDecoding(t *testing.T) {
	c, err := decodeKit(``)
	if err != nil || len(c.Filters) != 0 || !c.DefaultCols || len(c.Columns) != 4 {
		t.Fatalf("empty body: %+v %v", c, err)
	}
	c, err = decodeKit(`{"includeCols":["name"],"rowCount":5,"recNo":{"value":[7]},"createDateTimeFrom":{"date":"2024-01-02"},
		"name":{"value":["P"],"compareCondition":5},"kind":3,"status":false,"dayFrom":{"date":"12/31/2024"},
		"atTo":{"dateTime":"2024-05-01T10:00:00Z"},"done":true,"owner":{"value":[1,2]},"tags":[{"recNo":4,"checked":false}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if c.RowCount != 5 || c.RecNo.Values[0] != 7 || c.Created.From.Format(time.DateOnly) != "2024-01-02" || len(c.Columns) != 1 {
		t.Errorf("inherited: %+v", c.BaseCriteria)
	}
	got := map[string]wayfarer.SearchFilter{}
	for _, f := range c.Filters {
		got[f.Key] = f
	}
	if f := got["name"]; f.Str.Cond != wayfarer.StrStartingWith || f.Size != 64 {
		t.Errorf("name: %+v", f)
	}
	if got["kind"].In[0] != 3 || got["status"].In[0] != 0 {
		t.Errorf("one number, a boolean: %+v %+v", got["kind"], got["status"])
	}
	if f := got["day"]; f.Date.From != "2024-12-31" || f.Date.To != "" {
		t.Errorf("day: %+v", f)
	}
	if f := got["at"]; f.Time.From != nil || !f.Time.Before.Equal(time.Date(2024, 5, 1, 10, 0, 0, 1000, time.UTC)) {
		t.Errorf("at: %+v", f)
	}
	if !*got["done"].Bool || len(got["owner"].Num.Values) != 2 || *got["tags"].Bool {
		t.Errorf("done, owner, tags: %+v %+v %+v", got["done"], got["owner"], got["tags"])
	}

	for body, want := range map[string]string{
		`{"includeCols":["BOGUS"]}`:                      "Invalid column: BOGUS",
		`{"tags":[{"checked":true}]}`:                    "The RecNo field is required.",
		`{"longerName":{"value":["abcd"]}}`:              "longer than the column's 3. Path 'longerName.value[0]'",
		`{"dayTo":{"date":"soon"}}`:                      "dayTo.date",
		`{"kind":"x"}`:                                   "kind",
		`{"includeColsExtended":[{"type":"tag"}]}`:       "includeColsExtended",
		`{"startingRow":-1}`:                             "startingRow",
		`{"name":{"value":["P"],"compareCondition":12}}`: "outside 0..10",
	} {
		if _, err := decodeKit(body); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}
