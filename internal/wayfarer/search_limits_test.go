package wayfarer

import (
	"github.com/wayfarerhq/wayfarer/client/contract"

	"context"
	"strings"
	"testing"
	"time"
)

func words(n int, w string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = w
	}
	return out
}

func nums(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(i)
	}
	return out
}

func TestCheckSearchLimits(t *testing.T) {
	sp := func(s string) *string { return &s }
	tags := func(n int) []TagParam {
		out := make([]TagParam, n)
		for i := range out {
			out[i] = TagParam{TagName: sp("VIP"), Checked: true}
		}
		return out
	}
	cases := []struct {
		name string
		c    SearchCriteria
		want string // "": accepted; else the end of the 407's description
	}{
		{"nothing", SearchCriteria{}, ""},
		{"tags at the limit", SearchCriteria{Tags: tags(MaxSearchFilterEntries)}, ""},
		{"tags past the limit", SearchCriteria{Tags: tags(MaxSearchFilterEntries + 1)},
			"21 tag filters are more than the 20 one search takes; narrow the search or split it into several. Path 'tags'."},
		{"marketing past the limit", SearchCriteria{Marketing: make([]MarketingParam, 10_000)},
			"10000 marketing filters are more than the 20 one search takes; narrow the search or split it into several. Path 'marketing'."},
		{"string values at the limit", SearchCriteria{LastName: StringParam{StrIn, words(MaxSearchFilterValues, "x")}}, ""},
		{"string values past the limit", SearchCriteria{LastName: StringParam{StrIn, words(MaxSearchFilterValues+1, "x")}},
			"1001 values are more than the 1000 one filter compares; split the search into several. Path 'lastName.value'."},
		{"number values past the limit", SearchCriteria{ProfileRecNo: NumParam{NumNotEqual, nums(50_000)}},
			"50000 values are more than the 1000 one filter compares; split the search into several. Path 'profileRecNo.value'."},
		{"list past the limit", SearchCriteria{ActiveStatus: nums(MaxSearchFilterValues + 1)}, "Path 'activeStatus'."},
		{"tag values past the limit", SearchCriteria{Tags: []TagParam{{}, {Value: StringParam{StrEqual, words(MaxSearchFilterValues+1, "x")}}}},
			"Path 'tags[1].value.value'."},
		{"value at its column's size", SearchCriteria{CommValueCityArea: StringParam{StrEqual, []string{"abcd"}}}, ""},
		{"value longer than its column", SearchCriteria{CommValueCityArea: StringParam{StrEqual, []string{"abcde"}}},
			"a value is 5 characters long, longer than the column's 4. Path 'commValueCityArea.value'."},
		{"tag value longer than its column", SearchCriteria{Tags: []TagParam{{Value: StringParam{StrContains, []string{strings.Repeat("é", 1025)}}}}},
			"a value is 1025 characters long, longer than the column's 1024. Path 'tags[0].value.value'."},
		{"all values at the limit", SearchCriteria{BaseCriteria: BaseCriteria{RecNo: NumParam{NumEqual, nums(1000)}}, FirstName: StringParam{StrEqual, words(1000, "x")}}, ""},
		{"all values past the limit", SearchCriteria{BaseCriteria: BaseCriteria{RecNo: NumParam{NumEqual, nums(1000)}}, FirstName: StringParam{StrEqual, words(1000, "x")},
			CardType: []int64{1}, CommType: []int64{1, 2}},
			"the search compares 2003 values in all (firstName 1000, recNo 1000, commType 2, ...), more than the 2000 one search takes; split it into several."},
		{"report name", SearchCriteria{BaseCriteria: BaseCriteria{ReportName: strings.Repeat("r", 256)}},
			"the name is 256 characters long, longer than the 255 a report name takes. Path 'reportName'."},
		{"baseUrl", SearchCriteria{BaseCriteria: BaseCriteria{BaseURL: strings.Repeat("u", 2049)}}, "Path 'baseUrl'."},
	}
	for _, tc := range cases {
		err := CheckSearchLimits(&tc.c)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		e := AsError(err)
		if e == nil || e.Kind != KindInvalid || e.Code != contract.CodeInvalidValue || e.Method != MethodParam {
			t.Errorf("%s: %v, want a 407", tc.name, err)
			continue
		}
		if !strings.HasSuffix(e.Message, tc.want) || !strings.HasPrefix(e.Message, "Invalid value: ") {
			t.Errorf("%s: %q, want it to end with %q", tc.name, e.Message, tc.want)
		}
	}
}

// The search is checked before the store is asked.
func TestSearchServiceChecksLimitsFirst(t *testing.T) {
	store := &countingSearchStore{}
	s := &SearchService{Store: store, MaxRows: 100}
	sess := &Session{Perms: Permissions{AreaPerson: PermSelect}}
	c := &SearchCriteria{}
	for range MaxSearchFilterEntries + 1 {
		c.Tags = append(c.Tags, TagParam{TagRecNo: new(int64(1)), Checked: true})
	}
	if _, err := s.Search(t.Context(), sess, c); AsError(err) == nil || AsError(err).Code != contract.CodeInvalidValue {
		t.Fatalf("got %v", err)
	}
	if store.calls != 0 {
		t.Errorf("the store was asked")
	}
}

type countingSearchStore struct{ calls int }

func (s *countingSearchStore) SearchPersons(_ context.Context, _ Scope, c *SearchCriteria) (*SearchResult, error) {
	s.calls++
	return &SearchResult{Columns: c.Columns}, nil
}

// A query timeout of the store is the search's 420, asking to narrow it.
func TestSearchTimeoutAnswer(t *testing.T) {
	s := &SearchService{Store: timeoutStore{}, MaxRows: 100}
	_, err := s.Search(t.Context(), &Session{Perms: Permissions{AreaPerson: PermSelect}}, &SearchCriteria{})
	e := AsError(err)
	if e == nil || e.Kind != KindUnavailable || e.Code != contract.CodeQueryTimeout || e.Method != MethodPersonSearch ||
		e.Message != "The search took longer than the 1.5s limit; narrow it" {
		t.Fatalf("got %#v", err)
	}
	if limit, ok := QueryTimeoutOf(err); !ok || limit != 1500*time.Millisecond {
		t.Errorf("QueryTimeoutOf: %v %v", limit, ok)
	}
}

type timeoutStore struct{}

func (timeoutStore) SearchPersons(context.Context, Scope, *SearchCriteria) (*SearchResult, error) {
	return nil, QueryTimeoutError(1500 * time.Millisecond)
}

// Shape names what a search uses and how much, never a value.
func TestSearchShapeHasNoValues(t *testing.T) {
	sp := func(s string) *string { return &s }
	yes := true
	c := &SearchCriteria{
		LastName: StringParam{StrStartingWith, []string{"Secretname"}},
		UniqueID: "UNIQUE-SECRET", CommValue: StringParam{StrContains, []string{"4111111111111111"}},
		Tags:                 []TagParam{{TagName: sp("SecretTag"), Value: StringParam{StrIn, []string{"a", "b"}}}},
		Marketing:            []MarketingParam{{ElementID: sp("SECRETCODE")}},
		EmailPermitMarketing: &yes, ActiveStatus: []int64{1, 2},
		BaseCriteria: BaseCriteria{RecNo: NumParam{NumEqual, []int64{987654}},
			Columns:  []SearchColumn{{Name: "recNo"}, {Name: "cardNumber", Group: GroupCard}},
			RowCount: 50, StartingRow: 424242, ReportName: "secret-report"},
	}
	got := c.Shape()
	want := "recNo:Equal/1 UniqueId lastName:StartingWith/1 activeStatus/2 emailPermitMarketing commValue:Contains/1 marketing:1 tags:1(values 2) columns:2 cardRows startingRow rowCount"
	if got != want {
		t.Errorf("shape\n got %q\nwant %q", got, want)
	}
	for _, secret := range []string{"Secret", "987654", "UNIQUE", "4111", "SECRET", "424242", "secret"} {
		if strings.Contains(got, secret) {
			t.Errorf("shape %q holds %q", got, secret)
		}
	}
}

// slowStore answers QueryTimeoutError where told to, else as fakeStore.
type slowStore struct {
	*fakeStore
	load, save bool
}

func (s slowStore) LoadPerson(ctx context.Context, scope Scope, recNo int64) (*Person, error) {
	if s.load {
		return nil, QueryTimeoutError(time.Second)
	}
	return s.fakeStore.LoadPerson(ctx, scope, recNo)
}

func (s slowStore) CreatePerson(ctx context.Context, scope Scope, w *PersonWrite) (int64, error) {
	if s.save {
		return 0, QueryTimeoutError(time.Second)
	}
	return s.fakeStore.CreatePerson(ctx, scope, w)
}

// A cut-off save says nothing was saved; a save whose load back was cut
// off says the save happened, so that the client does not send it again.
func TestPersonTimeoutAnswers(t *testing.T) {
	for _, tc := range []struct {
		load, save bool
		want       string
	}{
		{save: true, want: "Saving the person took longer than the 1s limit; nothing was saved, try again"},
		{load: true, want: "The person was saved (recNo 77), but loading it back took longer than the 1s limit; load it with GET /person/77"},
	} {
		svc, st := newService(t)
		svc.Store = slowStore{st, tc.load, tc.save}
		_, err := svc.SaveAndLoad(t.Context(), session(everything), nil, mustPerson(t, `{"activeStatus":1}`))
		e := AsError(err)
		if e == nil || e.Kind != KindUnavailable || e.Code != contract.CodeQueryTimeout || e.Method != MethodPerson || e.Message != tc.want {
			t.Errorf("got %#v, want %q", err, tc.want)
		}
	}
	svc, st := newService(t)
	svc.Store = slowStore{st, true, false}
	_, err := svc.Load(t.Context(), session(everything), 10, false)
	if e := AsError(err); e == nil || e.Message != "Loading the person took longer than the 1s limit; try again" {
		t.Errorf("load: %v", err)
	}
}
