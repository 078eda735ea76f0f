package wayfarer

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

func TestValidateTag(t *testing.T) {
	ok := func() *Tag { return &Tag{Name: Some("Seat"), Requirement: Some(TagOptional)} }
	if err := ValidateTag(ok(), true); err != nil {
		t.Fatal(err)
	}
	// An update may leave out name and requirement.
	if err := ValidateTag(&Tag{Description: Some("x")}, false); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		edit     func(*Tag)
		create   bool
		code     int
		contains string
	}{
		{func(t *Tag) { t.Name = Opt[string]{} }, true, contract.CodeInvalidValue, "name is required"},
		{func(t *Tag) { t.Name = Null[string]() }, false, contract.CodeInvalidValue, "name is required"},
		{func(t *Tag) { t.Name = Some(" ") }, false, contract.CodeInvalidValue, "name is required"},
		{func(t *Tag) { t.Requirement = Opt[int]{} }, true, contract.CodeInvalidValue, "requirement is required"},
		{func(t *Tag) { t.Requirement = Null[int]() }, false, contract.CodeInvalidValue, "requirement is required"},
		{func(t *Tag) { t.Requirement = Some(0) }, true, contract.CodeInvalidValue, "requirement must be one of"},
		{func(t *Tag) { t.AreaFlags = Some(-1) }, true, contract.CodeInvalidValue, "areaFlags"},
		{func(t *Tag) { t.AreaFlags = Some(TagAreaFlagsAll + 1) }, true, contract.CodeInvalidValue, "areaFlags"},
		{func(t *Tag) { t.ValueRequired = Null[bool]() }, true, contract.CodeInvalidValue, "valueRequired"},
		{func(t *Tag) { t.Name = Some(strings.Repeat("é", 65)) }, true, contract.CodeInvalidValue, "name is longer than 64"},
		{func(t *Tag) { t.ValueList = Some(strings.Repeat("v", 4001)) }, true, contract.CodeInvalidValue, "valueList is longer than 4000"},
		{func(t *Tag) { t.DefaultValue = Some("5555 5555 5555 4444") }, true, contract.CodeCardRule, "defaultValue"},
		{func(t *Tag) { t.Description = Some("a\x00b") }, true, contract.CodeInvalidValue, "control character"},
	} {
		tag := ok()
		c.edit(tag)
		err := ValidateTag(tag, c.create)
		wantErr(t, err, c.code, c.contains)
		if AsError(err).Method != MethodTag {
			t.Fatalf("%v: method %q", err, AsError(err).Method)
		}
	}
}

// tagStoreStub keeps one tag in memory.
type tagStoreStub struct {
	tag    Tag
	fields []string
}

func (s *tagStoreStub) LoadTag(_ context.Context, agencyID, recNo int64) (*Tag, error) {
	if agencyID != 1 || recNo != s.tag.RecNo.Value {
		return nil, ErrNotFound
	}
	t := s.tag
	return &t, nil
}

func (s *tagStoreStub) CreateTag(_ context.Context, _ int64, t *Tag, fields []string, _ time.Time) (int64, error) {
	s.tag, s.fields = *t, fields
	s.tag.RecNo = Some[int64](7)
	return 7, nil
}

func (s *tagStoreStub) UpdateTag(ctx context.Context, agencyID, recNo int64, _ time.Time, fn func(*Tag) (*Tag, []string, error)) error {
	cur, err := s.LoadTag(ctx, agencyID, recNo)
	if err != nil {
		return err
	}
	_, fields, err := fn(cur)
	s.fields = fields
	return err
}

func TestTagServiceSave(t *testing.T) {
	st := &tagStoreStub{}
	svc := &TagService{Store: st}
	admin := &Session{AgencyID: 1, Perms: AllPermissions()}
	ctx := context.Background()
	id, err := svc.Save(ctx, admin, nil, &Tag{Name: Some("Seat"), Requirement: Some(TagOptional)})
	if err != nil || id != 7 || !st.tag.ActiveStatus.Value || strings.Join(st.fields, ",") != "name,activeStatus,requirement" {
		t.Fatalf("%v %d %+v %v", err, id, st.tag, st.fields)
	}
	old := st.tag
	n := old
	n.Description = Some("Aisle")
	if _, err := svc.Save(ctx, admin, &old, &n); err != nil || strings.Join(st.fields, ",") != "description" {
		t.Fatalf("%v %v", err, st.fields)
	}
	stale := old
	stale.Name = Some("Other")
	_, err = svc.Save(ctx, admin, &stale, &n)
	wantErr(t, err, contract.CodeConcurrencyConflict, "changed by someone else")
	moved := n
	moved.RecNo = Some[int64](8)
	_, err = svc.Save(ctx, admin, &old, &moved)
	wantErr(t, err, contract.CodeIdentifierMismatch, "differs from oldData recNo")
	_, err = svc.Save(ctx, &Session{AgencyID: 2, Perms: AllPermissions()}, &old, &n)
	wantErr(t, err, contract.CodeRecordNotFound, "Tag not found")

	reader := &Session{AgencyID: 1}
	reader.Perms[AreaTag] = PermSelect | PermRead
	_, err = svc.Save(ctx, reader, nil, &Tag{Name: Some("X"), Requirement: Some(1)})
	wantErr(t, err, contract.CodePermissionDenied, "Tag insert")
	_, err = svc.Save(ctx, reader, &old, &n)
	wantErr(t, err, contract.CodePermissionDenied, "Tag update")
	if _, err := svc.Load(ctx, reader, 7); err != nil {
		t.Fatal(err)
	}
	_, err = svc.Load(ctx, &Session{AgencyID: 1}, 7)
	wantErr(t, err, contract.CodePermissionDenied, "Tag read")
}

func TestNewExtendedColumns(t *testing.T) {
	typ, other := "Tag", "marketing"
	one, seven := int64(1), int64(7)
	cols, err := NewExtendedColumns([]ExtendedColumnRequest{{&typ, &one}, {&other, &seven}})
	if err != nil || cols[0].Name != "tag:1" || cols[0].Type != ColString || cols[1].Name != "marketing:7" || cols[1].Type != ColBool ||
		cols[1].Extended.Path != "includeColsExtended[1]" {
		t.Fatalf("%+v %v", cols, err)
	}
	_, err = NewExtendedColumns([]ExtendedColumnRequest{{&typ, &one}, {nil, &one}})
	wantErr(t, err, contract.CodeMissingParameter, "includeColsExtended[1].type")
	bad := "4111111111111111"
	_, err = NewExtendedColumns([]ExtendedColumnRequest{{&bad, &one}})
	wantErr(t, err, contract.CodeInvalidValue, "(withheld)")
	if strings.Contains(AsError(err).Message, bad) {
		t.Fatal("a card number in an error")
	}
}
