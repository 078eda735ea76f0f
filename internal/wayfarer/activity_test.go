package wayfarer

import (
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

func TestValidateActivity(t *testing.T) {
	ok := func() *Activity { return &Activity{Type: Some(ActivityTask), Priority: Some(PriorityLow)} }
	if err := ValidateActivity(ok(), true); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		edit   func(a *Activity)
		create bool
		code   int
		text   string
	}{
		{func(a *Activity) { a.Type = Opt[int]{} }, true, contract.CodeInvalidValue, "type is required"},
		{func(a *Activity) { a.Type = Null[int]() }, false, contract.CodeInvalidValue, "type is required"},
		{func(a *Activity) { a.Priority = Some(4) }, false, contract.CodeInvalidValue, "priority must be one of"},
		{func(a *Activity) { a.Subject = Some(strings.Repeat("é", 65)) }, false, contract.CodeInvalidValue, "subject is longer than 64"},
		{func(a *Activity) { a.Remarks = Some("pay with 4111 1111 1111 1111") }, false, contract.CodeCardRule, "remarks"},
		{func(a *Activity) { a.ActivityTag = []ActivityTag{{Value: Some("5555555555554444")}} }, false, contract.CodeCardRule, "activityTag[0].value"},
		{func(a *Activity) { a.ActivityTag = []ActivityTag{{Value: Some("x")}} }, false, contract.CodeInvalidValue, "activityTag[0].tag_recNo is required"},
		{func(a *Activity) { a.Duration = Some(-1) }, false, contract.CodeInvalidValue, "duration"},
		{func(a *Activity) { a.AppUserRecNo = Some[int64](0) }, false, contract.CodeInvalidValue, "appUser_recNo"},
		{func(a *Activity) { a.Subject = Some("bell\a") }, false, contract.CodeInvalidValue, "control character"},
		{func(a *Activity) {
			a.ActivityPersonLink = &ActivityPersonLink{ActivityRecNo: Some[int64](9), PersonRecNo: Some[int64](1)}
		}, true, contract.CodeIdentifierMismatch, "activityPersonLink.activity_recNo"},
	} {
		a := ok()
		c.edit(a)
		e := AsError(ValidateActivity(a, c.create))
		if e == nil || e.Code != c.code || e.Method != MethodActivity || !strings.Contains(e.Message, c.text) {
			t.Errorf("%+v: got %v, want %d %q", a, e, c.code, c.text)
		}
	}
}

func TestDiffActivityAndStale(t *testing.T) {
	stored := &Activity{RecNo: Some[int64](5), Type: Some(1), Priority: Some(1), Subject: Some("Call"),
		ActivityPersonLink: &ActivityPersonLink{ActivityRecNo: Some[int64](5), PersonRecNo: Some[int64](7)},
		ActivityTag:        []ActivityTag{{RecNo: Some[int64](1), TagRecNo: Some[int64](3), Value: Some("a")}}}
	old := cloneActivity(stored)

	n := cloneActivity(old)
	n.Subject = Some("Call back")
	n.ActivityPersonLink = &ActivityPersonLink{PersonRecNo: Null[int64]()}
	n.ActivityTag = []ActivityTag{}
	ch, err := DiffActivity(old, n)
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Fields) != 1 || ch.Fields[0] != "subject" || !ch.LinkChanged || ch.Person() != nil ||
		len(ch.Tags) != 1 || ch.Tags[0].Op != OpDelete {
		t.Fatalf("%+v", ch)
	}
	if err := CheckActivityStale(stored, old, ch); err != nil {
		t.Fatal(err)
	}
	// Someone else changed the subject meanwhile: stale; the priority: not.
	cur := cloneActivity(stored)
	cur.Priority = Some(3)
	if err := CheckActivityStale(cur, old, ch); err != nil {
		t.Fatal(err)
	}
	cur.Subject = Some("Email")
	if e := AsError(CheckActivityStale(cur, old, ch)); e == nil || e.Code != contract.CodeConcurrencyConflict || e.Method != MethodActivity {
		t.Fatalf("%v", e)
	}
	// The link moved meanwhile: stale.
	cur = cloneActivity(stored)
	cur.ActivityPersonLink.PersonRecNo = Some[int64](8)
	if CheckActivityStale(cur, old, ch) == nil {
		t.Fatal("a moved link is not stale")
	}
	// An absent link and absent tags are left alone.
	n = cloneActivity(old)
	n.ActivityPersonLink, n.ActivityTag = nil, nil
	if ch, err := DiffActivity(old, n); err != nil || !ch.Empty() {
		t.Fatalf("%+v %v", ch, err)
	}
	// Identifiers that disagree.
	n = cloneActivity(old)
	n.RecNo = Some[int64](6)
	if e := AsError(firstErr(DiffActivity(old, n))); e == nil || e.Code != contract.CodeIdentifierMismatch {
		t.Fatalf("%v", e)
	}
	n = cloneActivity(old)
	n.ActivityTag = []ActivityTag{{RecNo: Some[int64](99), Value: Some("x")}}
	if e := AsError(firstErr(DiffActivity(old, n))); e == nil || !strings.Contains(e.Message, "is not a tag of this activity") {
		t.Fatalf("%v", e)
	}
}

func firstErr[T any](_ T, err error) error { return err }

func TestSearchShapeWithPersonActivity(t *testing.T) {
	open := false
	c := &SearchCriteria{PersonActivity: &FlatCriteria{Filters: []SearchFilter{
		{Key: "type", Path: "personActivitySearchParams.type", Num: NumParam{Cond: NumEqual, Values: []int64{1}}},
		{Key: "subject", Path: "personActivitySearchParams.subject", Str: StringParam{Cond: StrContains, Values: []string{"4111111111111111"}}},
		{Key: ActivityFilterCompleted, Path: "personActivitySearchParams.completed", Bool: &open},
	}}}
	got := c.Shape()
	want := "personActivitySearchParams(personActivitySearchParams.type:Equal/1 personActivitySearchParams.subject:Contains/1 personActivitySearchParams.completed) columns:0"
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}
