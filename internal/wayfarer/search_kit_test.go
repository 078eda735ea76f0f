package wayfarer

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

var testCatalog = NewSearchCatalog("thing", "thingSearch", []Area{AreaAdvisorProfile, AreaClientProfile}, []SearchColumn{
	{Name: "recNo", Type: ColLong, Default: true},
	{Name: "summaryCount", Type: ColInt},
	{Name: "name", Type: ColString, Size: 8, Default: true},
})

func TestSearchCatalogResolve(t *testing.T) {
	names := func(cols []SearchColumn) (out []string) {
		for _, c := range cols {
			out = append(out, c.Name)
		}
		return out
	}
	cols, dflt, err := testCatalog.Resolve(nil)
	if err != nil || !dflt || !slices.Equal(names(cols), []string{"recNo", "name"}) {
		t.Errorf("defaults: %v %v %v", names(cols), dflt, err)
	}
	cols, dflt, err = testCatalog.Resolve([]string{" NAME", "recno", "name"})
	if err != nil || dflt || !slices.Equal(names(cols), []string{"name", "recNo"}) {
		t.Errorf("asked: %v %v %v", names(cols), dflt, err)
	}
	_, _, err = testCatalog.Resolve([]string{"recNo", "BOGUS"})
	wantCode(t, err, KindInvalid, contract.CodeInvalidColumn, "Invalid column: BOGUS")
	if e := AsError(err); e.Message != "Invalid column: BOGUS" || e.Method != MethodParam {
		t.Errorf("the reference's text: %+v", e)
	}
	_, _, err = testCatalog.Resolve([]string{"4111 1111 1111 1111"})
	if e := AsError(err); strings.Contains(e.Message, "4111") {
		t.Errorf("a card number echoed: %q", e.Message)
	}
	// The person search's catalog keeps its defaults' own order.
	cols, _, _ = PersonSearchCatalog.Resolve(nil)
	if !slices.Equal(names(cols), DefaultSearchColumns) {
		t.Errorf("person defaults: %v", names(cols))
	}
}

// flatStoreFunc is a FlatSearchStore over a function.
type flatStoreFunc func(reach SearchReach, c *FlatCriteria) *SearchResult

func (f flatStoreFunc) SearchFlat(_ context.Context, _ *SearchCatalog, reach SearchReach, c *FlatCriteria) (*SearchResult, error) {
	return f(reach, c), nil
}

func TestFlatSearchPermissionsAndBounds(t *testing.T) {
	var asked int64
	svc := &FlatSearchService{MaxRows: 2, Store: flatStoreFunc(func(_ SearchReach, c *FlatCriteria) *SearchResult {
		asked = c.RowCount
		return &SearchResult{Rows: make([]SearchRow, min(c.RowCount, 5))}
	})}
	ctx := t.Context()
	sess := func(a Area, p Permission) *Session { var ps Permissions; ps[a] = p; return &Session{Perms: ps} }

	_, err := svc.Search(ctx, sess(AreaPerson, PermAll), testCatalog, &FlatCriteria{})
	wantCode(t, err, KindForbidden, contract.CodePermissionDenied, "AdvisorProfile select")
	// Select in any area of the catalog will do; a report needs Export there.
	if _, err := svc.Search(ctx, sess(AreaClientProfile, PermSelect), testCatalog, &FlatCriteria{BaseCriteria: BaseCriteria{RowCount: 2}}); err != nil {
		t.Errorf("select in the second area: %v", err)
	}
	_, err = svc.Search(ctx, sess(AreaClientProfile, PermSelect), testCatalog, &FlatCriteria{BaseCriteria: BaseCriteria{ReportFormat: true}})
	wantCode(t, err, KindForbidden, contract.CodePermissionDenied, "ClientProfile export")

	all := sess(AreaAdvisorProfile, PermAll)
	_, err = svc.Search(ctx, all, testCatalog, &FlatCriteria{BaseCriteria: BaseCriteria{RowCount: 3}})
	wantCode(t, err, KindInvalid, contract.CodeInvalidValue, "rowCount 3 is more than the 2 rows")
	c := &FlatCriteria{}
	_, err = svc.Search(ctx, all, testCatalog, c)
	wantCode(t, err, KindInvalid, contract.CodeInvalidValue, "more than 2 rows")
	if asked != 3 || c.RowCount != 0 {
		t.Errorf("an unbounded search asks for one row more than the bound (%d), and leaves the criteria as they were (%d)", asked, c.RowCount)
	}
}

func TestCheckFlatLimits(t *testing.T) {
	words := func(n int) []string { return slices.Repeat([]string{"x"}, n) }
	for _, tc := range []struct {
		c    FlatCriteria
		want string
	}{
		{FlatCriteria{}, ""},
		{FlatCriteria{Filters: []SearchFilter{{Path: "name", Str: StringParam{StrIn, words(MaxSearchFilterValues + 1)}}}}, "Path 'name.value'."},
		{FlatCriteria{Filters: []SearchFilter{{Path: "type", In: make([]int64, MaxSearchFilterValues+1)}}}, "Path 'type'."},
		{FlatCriteria{Filters: []SearchFilter{{Path: "name", Size: 3, Str: StringParam{StrEqual, []string{"abcd"}}}}}, "longer than the column's 3"},
		{FlatCriteria{BaseCriteria: BaseCriteria{RecNo: NumParam{NumEqual, make([]int64, 1000)}},
			Filters: []SearchFilter{{Path: "b", Num: NumParam{NumEqual, make([]int64, 1000)}}, {Path: "c", In: []int64{1}}}}, "2001 values in all"},
		{FlatCriteria{BaseCriteria: BaseCriteria{ReportName: strings.Repeat("r", 256)}}, "Path 'reportName'."},
	} {
		err := CheckFlatLimits(&tc.c)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%+v: %v", tc.c, err)
			}
			continue
		}
		wantCode(t, err, KindInvalid, contract.CodeInvalidValue, tc.want)
	}
}

func TestFlatShapeHasNoValues(t *testing.T) {
	c := &FlatCriteria{BaseCriteria: BaseCriteria{Columns: make([]SearchColumn, 2), RowCount: 7, RecNo: NumParam{NumEqual, []int64{987654}}}}
	yes := true
	c.Add(SearchFilter{Path: "name", Str: StringParam{StrStartingWith, []string{"Secret"}}})
	c.Add(SearchFilter{Path: "type", In: []int64{31337}})
	c.Add(SearchFilter{Path: "enabled", Bool: &yes})
	c.Add(SearchFilter{Path: "ignored"})
	if got, want := c.Shape(), "recNo:Equal/1 name:StartingWith/1 type/1 enabled columns:2 rowCount"; got != want {
		t.Errorf("shape %q, want %q", got, want)
	}
}

// A user's display name and email are free text: sized, and never a card
// number (appUserSearch shows them).
func TestCheckUserText(t *testing.T) {
	for _, tc := range []struct {
		u    NewUser
		want string
	}{
		{NewUser{Name: "  Ada Admin ", Email: "ada@example.com"}, ""},
		{NewUser{Name: strings.Repeat("n", 65)}, "name must be at most 64"},
		{NewUser{Email: strings.Repeat("e", 129)}, "email must be at most 128"},
		{NewUser{Name: "Ada 4111 1111 1111 1111"}, "name looks like it holds a card number"},
	} {
		err := checkUserText(&tc.u)
		if tc.want == "" && (err != nil || tc.u.Name != "Ada Admin") || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%+v: %v, want %q", tc.u, err, tc.want)
		}
	}
}
