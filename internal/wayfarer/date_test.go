package wayfarer

import (
	"testing"
	"time"
)

func TestParseDate(t *testing.T) {
	want := Date{2001, time.December, 31}
	for _, s := range []string{"2001-12-31", "12/31/2001", "2001-12-31T00:00:00", "2001-12-31T23:30:00-05:00", "2001-12-31T10:00:00Z", " 2001-12-31 "} {
		got, err := ParseDate(s)
		if err != nil || got != want {
			t.Errorf("ParseDate(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "2001-13-01", "31.12.2001", "2001-02-30", "tomorrow"} {
		if _, err := ParseDate(s); err == nil {
			t.Errorf("ParseDate(%q) accepted", s)
		}
	}
}

func TestAgeOn(t *testing.T) {
	on := Date{2024, time.June, 15}
	cases := []struct {
		y, m, d Opt[int]
		age     int
		ok      bool
	}{
		{Some(1980), Some(6), Some(15), 44, true},
		{Some(1980), Some(6), Some(16), 43, true},
		{Some(1980), Some(7), Some(1), 43, true},
		{Some(1980), Some(1), Some(1), 44, true},
		{Null[int](), Some(1), Some(1), 0, false},
		{Some(1980), Opt[int]{}, Some(1), 0, false},
		{Some(2030), Some(1), Some(1), 0, false},
	}
	for _, c := range cases {
		age, ok := AgeOn(c.y, c.m, c.d, on)
		if age != c.age || ok != c.ok {
			t.Errorf("AgeOn(%v,%v,%v) = %d,%v want %d,%v", c.y, c.m, c.d, age, ok, c.age, c.ok)
		}
	}
}

func TestActionItemDate(t *testing.T) {
	today := Date{2024, time.June, 15}
	created := Date{2020, time.January, 10}
	fixed := Date{2024, time.December, 24}
	cases := []struct {
		name string
		a    PersonActionItem
		m, d Opt[int]
		want Date
		ok   bool
	}{
		{"fixed", PersonActionItem{TriggerIndex: Some(1), TriggerFixedDate: Some(fixed), TriggerDaysOffset: Some(-7)}, Opt[int]{}, Opt[int]{}, Date{2024, 12, 17}, true},
		{"fixed missing", PersonActionItem{TriggerIndex: Some(1)}, Opt[int]{}, Opt[int]{}, Date{}, false},
		{"create", PersonActionItem{TriggerIndex: Some(2), TriggerDaysOffset: Some(30)}, Opt[int]{}, Opt[int]{}, Date{2020, 2, 9}, true},
		{"birthday later this year", PersonActionItem{TriggerIndex: Some(3)}, Some(8), Some(1), Date{2024, 8, 1}, true},
		{"birthday today", PersonActionItem{TriggerIndex: Some(3), TriggerDaysOffset: Some(-1)}, Some(6), Some(15), Date{2024, 6, 14}, true},
		{"birthday passed", PersonActionItem{TriggerIndex: Some(3)}, Some(1), Some(2), Date{2025, 1, 2}, true},
		{"birthday unknown", PersonActionItem{TriggerIndex: Some(3)}, Opt[int]{}, Some(2), Date{}, false},
		{"no trigger", PersonActionItem{}, Opt[int]{}, Opt[int]{}, Date{}, false},
	}
	for _, c := range cases {
		got, ok := ActionItemDate(&c.a, c.m, c.d, created, today)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: got %v,%v want %v,%v", c.name, got, ok, c.want, c.ok)
		}
	}
}
