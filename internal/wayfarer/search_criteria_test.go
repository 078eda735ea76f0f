package wayfarer

import (
	"strings"
	"testing"
)

func TestSearchColumnCatalog(t *testing.T) {
	if len(SearchColumns) != 43 {
		t.Errorf("catalog has %d columns, contract §2.3 has 43", len(SearchColumns))
	}
	seen := map[string]bool{}
	for _, c := range SearchColumns {
		if seen[strings.ToLower(c.Name)] {
			t.Errorf("duplicate column %s", c.Name)
		}
		seen[strings.ToLower(c.Name)] = true
	}
	want := map[string]int{"name": 256, "tagValue": 1024, "cardDescription": 512, "cardNumber": 64, "uniqueId": 64,
		"firstName": 64, "middleName": 64, "lastName": 64, "tagName": 64, "branchRecName": 64, "advisorProfileName": 256}
	for n, size := range want {
		c, ok := LookupSearchColumn(n)
		if !ok || c.Size != size {
			t.Errorf("%s: size %d, want %d", n, c.Size, size)
		}
	}
	for _, n := range DefaultSearchColumns {
		if _, ok := LookupSearchColumn(n); !ok {
			t.Errorf("default column %s not in catalog", n)
		}
	}
	if c, _ := LookupSearchColumn("CARDNUMBER"); c.Name != "cardNumber" || c.Group != GroupCard {
		t.Errorf("case-insensitive lookup: %+v", c)
	}
}

func TestStringParamMatches(t *testing.T) {
	s := func(v string) *string { return &v }
	cases := []struct {
		p    StringParam
		v    *string
		want bool
	}{
		{StringParam{StrIgnore, nil}, nil, true},
		{StringParam{StrEqual, []string{"abler"}}, s("Abler"), true},
		{StringParam{StrEqual, []string{"abler"}}, s("Ablers"), false},
		{StringParam{StrEqual, []string{"x", "ABLER"}}, s("abler"), true},
		{StringParam{StrEqual, []string{"abler"}}, nil, false},
		{StringParam{StrNotEqual, []string{"abler"}}, s("Abler"), false},
		{StringParam{StrNotEqual, []string{"abler"}}, s("Able"), true},
		{StringParam{StrNotEqual, []string{"abler"}}, nil, true},
		{StringParam{StrBlank, nil}, nil, true},
		{StringParam{StrBlank, nil}, s(""), true},
		{StringParam{StrBlank, nil}, s(" "), false},
		{StringParam{StrNotBlank, nil}, s(""), false},
		{StringParam{StrNotBlank, nil}, s("a"), true},
		{StringParam{StrStartingWith, []string{"ABL"}}, s("Abler"), true},
		{StringParam{StrStartingWith, []string{"bl"}}, s("Abler"), false},
		{StringParam{StrContains, []string{"BLE"}}, s("Abler"), true},
		{StringParam{StrContains, []string{"%"}}, s("Abler"), false},
		{StringParam{StrIn, []string{"a", "abler"}}, s("ABLER"), true},
		{StringParam{StrNotIn, []string{"a", "abler"}}, s("ABLER"), false},
		{StringParam{StrNotStartingWith, []string{"x", "ab"}}, s("Abler"), false},
		{StringParam{StrNotStartingWith, []string{"x"}}, nil, true},
		{StringParam{StrNotContaining, []string{"z"}}, s("Abler"), true},
		{StringParam{StrNotContaining, []string{"bl"}}, s("Abler"), false},
		{StringParam{StrEqual, []string{"émile"}}, s("Émile"), false}, // ASCII folding, as SQLite
	}
	for _, tc := range cases {
		if got := tc.p.Matches(tc.v); got != tc.want {
			v := "<nil>"
			if tc.v != nil {
				v = *tc.v
			}
			t.Errorf("%v %q on %q: %v", tc.p.Cond, tc.p.Values, v, got)
		}
	}
}

func TestNumParamMatches(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	p := NumParam{NumEqual, []int64{1, 2}}
	if !p.Matches(n(2)) || p.Matches(n(3)) || p.Matches(nil) {
		t.Error("Equal")
	}
	p.Cond = NumNotEqual
	if p.Matches(n(2)) || !p.Matches(n(3)) || !p.Matches(nil) {
		t.Error("NotEqual")
	}
	if !(NumParam{Cond: NumBlank}).Matches(nil) || (NumParam{Cond: NumBlank}).Matches(n(0)) {
		t.Error("Blank")
	}
	if (NumParam{Cond: NumNotBlank}).Matches(nil) || !(NumParam{Cond: NumNotBlank}).Matches(n(0)) {
		t.Error("NotBlank")
	}
}

func TestBirthdayRangeMatches(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	cases := []struct {
		r          BirthdayRange
		month, day *int64
		want       bool
	}{
		{BirthdayRange{}, nil, nil, true},
		{BirthdayRange{MonthFrom: 3, MonthTo: 5}, n(4), nil, true},
		{BirthdayRange{MonthFrom: 3, MonthTo: 5}, n(6), n(1), false},
		{BirthdayRange{MonthFrom: 11, MonthTo: 2}, n(12), nil, true},
		{BirthdayRange{MonthFrom: 11, MonthTo: 2}, n(1), nil, true},
		{BirthdayRange{MonthFrom: 11, MonthTo: 2}, n(3), nil, false},
		{BirthdayRange{MonthFrom: 11}, n(12), nil, true},
		{BirthdayRange{MonthTo: 2}, n(3), nil, false},
		{BirthdayRange{DayFrom: 28, DayTo: 3}, n(5), n(30), true},
		{BirthdayRange{DayFrom: 28, DayTo: 3}, n(5), n(2), true},
		{BirthdayRange{DayFrom: 28, DayTo: 3}, n(5), n(10), false},
		{BirthdayRange{DayFrom: 10}, nil, n(10), true},
		{BirthdayRange{MonthFrom: 12, DayFrom: 20, MonthTo: 1, DayTo: 10}, n(12), n(25), true},
		{BirthdayRange{MonthFrom: 12, DayFrom: 20, MonthTo: 1, DayTo: 10}, n(1), n(10), true},
		{BirthdayRange{MonthFrom: 12, DayFrom: 20, MonthTo: 1, DayTo: 10}, n(1), n(11), false},
		{BirthdayRange{MonthFrom: 12, DayFrom: 20, MonthTo: 1, DayTo: 10}, n(12), n(19), false},
		{BirthdayRange{MonthFrom: 12, DayFrom: 20, MonthTo: 1, DayTo: 10}, n(12), nil, false},
		{BirthdayRange{MonthFrom: 3, DayFrom: 15, MonthTo: 4, DayTo: 15}, n(3), n(31), true},
		{BirthdayRange{MonthFrom: 3, DayFrom: 15, MonthTo: 4, DayTo: 15}, n(4), n(16), false},
	}
	for _, tc := range cases {
		if got := tc.r.Matches(tc.month, tc.day); got != tc.want {
			t.Errorf("%+v on %v/%v: %v", tc.r, tc.month, tc.day, got)
		}
	}
}
