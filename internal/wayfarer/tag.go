package wayfarer

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// Tag definitions (devportal Tag, TagSearch): the agency's list of tags a
// person's personTag rows point to. A tag is agency-wide: it has no branch
// or advisor, so of the Tag area's scope bits only the agency applies
// (docs/tags.md).

// Methods of the tag and affiliation routes, as error bodies name them.
const (
	MethodTag         = "tag"
	MethodTagSearch   = "tagSearch"
	MethodAffiliation = "affiliation"
)

// Tag requirements.
const (
	TagOptional    = 1
	TagRecommended = 2
	TagMandatory   = 3
)

// TagAreaFlagsAll is every area flag of a tag set (All 0, Client 1, ...,
// OtherProfile 2048).
const TagAreaFlagsAll = 4095

// Tag is a tag definition. Sizes are the devportal's; valueList has none
// published and takes Wayfarer's bound (docs/tags.md).
type Tag struct {
	RecNo         Opt[int64]  `json:"recNo,omitzero" wf:"id"`
	Name          Opt[string] `json:"name,omitzero" max:"64"`
	ActiveStatus  Opt[bool]   `json:"activeStatus,omitzero"`
	ValueFreeFlow Opt[bool]   `json:"valueFreeFlow,omitzero"`
	ValueRequired Opt[bool]   `json:"valueRequired,omitzero"`
	ValueList     Opt[string] `json:"valueList,omitzero" max:"4000"`
	Description   Opt[string] `json:"description,omitzero" max:"64"`
	AreaFlags     Opt[int]    `json:"areaFlags,omitzero"`
	Requirement   Opt[int]    `json:"requirement,omitzero"`
	DefaultValue  Opt[string] `json:"defaultValue,omitzero" max:"128"`
}

// TagStore keeps tag definitions, always within one agency; a tag of
// another agency is ErrNotFound.
type TagStore interface {
	LoadTag(ctx context.Context, agencyID, recNo int64) (*Tag, error)
	// CreateTag inserts the fields of t (wire names) and returns its recNo;
	// a name the agency already uses is a 407 *Error naming it.
	CreateTag(ctx context.Context, agencyID int64, t *Tag, fields []string, now time.Time) (int64, error)
	// UpdateTag loads the tag under a lock in one transaction, calls fn
	// with it and writes the fields fn returns (values on new); nothing
	// when fn returns none.
	UpdateTag(ctx context.Context, agencyID, recNo int64, now time.Time, fn func(current *Tag) (new *Tag, fields []string, err error)) error
}

// TagService loads and saves tag definitions under the Tag area's bits.
type TagService struct {
	Store TagStore
	Clock Clock
}

// TagNotFoundError is the one answer for a tag that is missing or another agency's.
func TagNotFoundError() *Error {
	return Errorf(KindNotFound, contract.CodeRecordNotFound, MethodTag, "Tag not found")
}

func (s *TagService) now() time.Time {
	if s.Clock == nil {
		return time.Now()
	}
	return s.Clock.Now()
}

// Load returns one tag (Read).
func (s *TagService) Load(ctx context.Context, sess *Session, recNo int64) (*Tag, error) {
	return loadLookup(ctx, sess, AreaTag, MethodTag, "tag", recNo, TagNotFoundError, s.Store.LoadTag)
}

// loadLookup loads an agency-wide look-up record (a tag, an affiliation)
// under its area's Read: a recNo below 1, a missing record and another
// agency's are notFound, one answer for all.
func loadLookup[T any](ctx context.Context, sess *Session, area Area, method, what string, recNo int64, notFound func() *Error,
	load func(ctx context.Context, agencyID, recNo int64) (*T, error)) (*T, error) {
	if err := sess.Require(area, PermRead, method); err != nil {
		return nil, err
	}
	if recNo <= 0 {
		return nil, notFound()
	}
	rec, err := load(ctx, sess.AgencyID, recNo)
	if errors.Is(err, ErrNotFound) {
		return nil, notFound()
	}
	if err != nil {
		return nil, rewordTimeout(err, method, "Loading the "+what+" took longer than the %s limit; try again")
	}
	return rec, nil
}

// Save creates (old nil: Insert) or updates (Update) a tag and returns its
// recNo. An update writes the fields of new that differ from old, and is
// refused (409) when a field old shows differs from the stored tag.
func (s *TagService) Save(ctx context.Context, sess *Session, old, new *Tag) (int64, error) {
	if old == nil {
		if err := sess.Require(AreaTag, PermInsert, MethodTag); err != nil {
			return 0, err
		}
		if err := ValidateTag(new, true); err != nil {
			return 0, err
		}
		if new.RecNo.Valid {
			return 0, tagError(contract.CodeIdentifierMismatch, "recNo must be null for a new tag; to change a tag send an oldNewDataset")
		}
		n := *new
		if !n.ActiveStatus.Present {
			n.ActiveStatus = Some(true)
		}
		id, err := s.Store.CreateTag(ctx, sess.AgencyID, &n, presentFields(&n), s.now())
		return id, tagSaveTimeout(err)
	}
	if err := sess.Require(AreaTag, PermUpdate, MethodTag); err != nil {
		return 0, err
	}
	if err := ValidateTag(new, false); err != nil {
		return 0, err
	}
	if !old.RecNo.Valid || old.RecNo.Value <= 0 {
		return 0, tagError(contract.CodeIdentifierMismatch, "oldData recNo is required")
	}
	recNo := old.RecNo.Value
	if new.RecNo.Present && (!new.RecNo.Valid || new.RecNo.Value != recNo) {
		return 0, tagError(contract.CodeIdentifierMismatch, "newData recNo (%s) differs from oldData recNo (%d)", optString(new.RecNo), recNo)
	}
	err := s.Store.UpdateTag(ctx, sess.AgencyID, recNo, s.now(), func(current *Tag) (*Tag, []string, error) {
		for _, f := range dataFieldNames[Tag]() {
			if staleField(old, current, f) {
				return nil, nil, Errorf(KindConflict, contract.CodeConcurrencyConflict, MethodTag,
					"tag was changed by someone else since it was loaded; reload and apply your change again")
			}
		}
		return new, changedFields(old, new), nil
	})
	if errors.Is(err, ErrNotFound) {
		return 0, TagNotFoundError()
	}
	return recNo, tagSaveTimeout(err)
}

// SaveAndLoad saves and returns the tag as Load shows it (Read is checked first).
func (s *TagService) SaveAndLoad(ctx context.Context, sess *Session, old, new *Tag) (*Tag, error) {
	if err := sess.Require(AreaTag, PermRead, MethodTag); err != nil {
		return nil, err
	}
	recNo, err := s.Save(ctx, sess, old, new)
	if err != nil {
		return nil, err
	}
	return s.Load(ctx, sess, recNo)
}

func tagSaveTimeout(err error) error {
	return rewordTimeout(err, MethodTag, "Saving the tag took longer than the %s limit; nothing was saved, try again")
}

func tagError(code int, format string, args ...any) *Error {
	return Errorf(KindInvalid, code, MethodTag, format, args...)
}

// ValidateTag checks the new side of a tag save: text rules, sizes, the
// required name and requirement of a new tag, ranges.
func ValidateTag(t *Tag, create bool) error {
	if t == nil {
		return tagError(contract.CodeInvalidValue, "the tag to save is missing")
	}
	if err := checkRecordText(t, MethodTag); err != nil {
		return err
	}
	if create && !t.Name.Present || t.Name.Present && (!t.Name.Valid || strings.TrimSpace(t.Name.Value) == "") {
		return tagError(contract.CodeInvalidValue, "name is required")
	}
	if err := enumField(t.Requirement, "", "requirement", TagOptional, TagMandatory, create, true, "Optional 1, Recommended 2, Mandatory 3"); err != nil {
		return withMethod(err, MethodTag)
	}
	if err := enumField(t.AreaFlags, "", "areaFlags", 0, TagAreaFlagsAll, false, true,
		"a sum of All 0, Client 1, Traveler 2, Supplier 4, Advisor 8, Trip 16, Reservation 32, Payment 64, Activity 128, AdvisorAdjustment 256, Destination 512, Branch 1024, OtherProfile 2048"); err != nil {
		return withMethod(err, MethodTag)
	}
	for _, f := range []struct {
		name string
		v    Opt[bool]
	}{{"activeStatus", t.ActiveStatus}, {"valueFreeFlow", t.ValueFreeFlow}, {"valueRequired", t.ValueRequired}} {
		if f.v.Present && !f.v.Valid {
			return tagError(contract.CodeInvalidValue, "%s must be true or false, not null", f.name)
		}
	}
	return nil
}

// checkRecordText applies the text rules of every record to the string
// fields of rec (a pointer to a record struct without children): no card
// number (410), valid text, the field's size. Errors name method.
func checkRecordText(rec any, method string) error {
	for _, f := range stringFields(rec, "") {
		if f.info.ro {
			continue
		}
		var err error
		switch {
		case ContainsCardNumber(f.value):
			err = cardRuleError("card numbers must not be written into text fields (field %s)", f.path())
		case validText(f) != nil:
			err = validText(f)
		case f.info.max > 0 && utf8.RuneCountInString(f.value) > f.info.max:
			err = invalidValue("%s is longer than %d", f.path(), f.info.max)
		}
		if err != nil {
			return withMethod(err, method)
		}
	}
	return nil
}

// withMethod names method in a rule's *Error (the person's rules name the person).
func withMethod(err error, method string) error {
	if e := AsError(err); e != nil {
		e.Method = method
	}
	return err
}
