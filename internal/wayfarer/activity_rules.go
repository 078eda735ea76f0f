package wayfarer

import (
	"errors"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// Methods of the activity calls, as error bodies name them.
const (
	MethodActivity       = "activity"
	MethodActivitySearch = "activitySearch"
)

// ErrOutOfScope is what an activity store returns when a save would leave
// the activity outside the saver's reach; the service answers 403.
var ErrOutOfScope = errors.New("out of scope")

// ActivityConflictMessage is the description of a refused stale save.
const ActivityConflictMessage = "activity was changed by someone else since it was loaded; reload and apply your change again"

// ValidateActivity checks the new side of a save on its own: no card
// number in text, sizes, ranges, and what a new activity requires (type,
// priority). Rules that need the old side or stored data are in
// DiffActivity, CheckActivityStale and the store.
func ValidateActivity(a *Activity, create bool) error {
	recs := []record{{path: "", value: a, isNew: create}}
	for i := range a.ActivityTag {
		t := &a.ActivityTag[i]
		recs = append(recs, record{indexPath("activityTag", i), t, !t.RecNo.Valid})
	}
	if err := validateTexts(recs); err != nil {
		return activityError(err)
	}
	checks := []error{
		enumField(a.Type, "", "type", 1, 4, create, true, "Task 1, Appointment 2, Note 3, Promo 4"),
		enumField(a.Priority, "", "priority", 1, 3, create, true, "Low 1, Medium 2, High 3"),
		rangeField(a.SubType, "subType", -32768, 32767),
		rangeField(a.Duration, "duration", 0, 32767),
		rangeField(a.AlertOffset, "alertOffset", -2147483648, 2147483647),
		positiveID(a.AppUserRecNo, "appUser_recNo"),
	}
	if a.Private.Present && !a.Private.Valid {
		checks = append(checks, invalidValue("private must be true or false"))
	}
	if l := a.ActivityPersonLink; l != nil {
		checks = append(checks, positiveID(l.PersonRecNo, "activityPersonLink.person_recNo"))
		if l.ActivityRecNo.Valid && (create || a.RecNo.Valid && l.ActivityRecNo.Value != a.RecNo.Value) {
			checks = append(checks, mismatch("activityPersonLink.activity_recNo (%d) is not this activity", l.ActivityRecNo.Value))
		}
	}
	for i, t := range a.ActivityTag {
		checks = append(checks, requiredID(t.TagRecNo, indexPath("activityTag", i), "tag_recNo", !t.RecNo.Valid))
	}
	for _, err := range checks {
		if err != nil {
			return activityError(err)
		}
	}
	return nil
}

func rangeField(o Opt[int], path string, lo, hi int) error {
	if o.Valid && (o.Value < lo || o.Value > hi) {
		return invalidValue("%s must be a whole number from %d to %d", path, lo, hi)
	}
	return nil
}

func positiveID(o Opt[int64], path string) error {
	if o.Valid && o.Value <= 0 {
		return invalidValue("%s must be a record number (1 or more)", path)
	}
	return nil
}

// activityError names the activity call in a rule's error (the shared
// person rules name the person call).
func activityError(err error) error {
	if e := AsError(err); e != nil && e.Method == MethodPerson {
		c := *e
		c.Method = MethodActivity
		return &c
	}
	return err
}

// ActivityChanges is the difference between the old and new side of an
// activity save: only these are written.
type ActivityChanges struct {
	RecNo    int64 // 0 for a new activity
	Old, New *Activity
	Fields   []string // activity fields to write (values on New)
	// LinkChanged: the person link is set to New's person (nil: removed).
	LinkChanged bool
	Tags        []RowChange[ActivityTag]
}

// Empty reports whether nothing is to be written.
func (ch *ActivityChanges) Empty() bool {
	return len(ch.Fields) == 0 && !ch.LinkChanged && len(ch.Tags) == 0
}

// Person is the person the saved activity links to (nil: none).
func (ch *ActivityChanges) Person() *int64 { return ch.New.linkedPerson() }

var activityTagKind = childKind{array: "activityTag", linkID: "recNo", owner: "activity", ownerID: "activity_recNo"}

// DiffActivity compares the old side of a save with the new one (old nil:
// a new activity), as DiffPerson does: only fields present on the new side
// count, tags are matched by recNo, an absent activityTag leaves the tags
// alone and an empty one removes those the old side lists.
func DiffActivity(old, new *Activity) (*ActivityChanges, error) {
	if new == nil {
		return nil, activityError(invalidValue("the activity to save is missing"))
	}
	ch := &ActivityChanges{Old: old, New: new}
	create := old == nil
	if create {
		if new.RecNo.Valid {
			return nil, activityError(mismatch("recNo must be null for a new activity; to change an activity send an oldNewDataset"))
		}
		ch.Fields = presentFields(new)
		ch.LinkChanged = new.linkedPerson() != nil
		old = &Activity{}
	} else {
		if !old.RecNo.Valid {
			return nil, activityError(mismatch("oldData recNo is required"))
		}
		ch.RecNo = old.RecNo.Value
		if new.RecNo.Present && (!new.RecNo.Valid || new.RecNo.Value != ch.RecNo) {
			return nil, activityError(mismatch("newData recNo (%s) differs from oldData recNo (%d)", optString(new.RecNo), ch.RecNo))
		}
		ch.Fields = changedFields(old, new)
		if l := new.ActivityPersonLink; l != nil && l.PersonRecNo.Present {
			ch.LinkChanged = !ptrEqual(old.linkedPerson(), new.linkedPerson())
		}
	}
	var err error
	ch.Tags, err = diffChildren(activityTagKind, ch.RecNo, create,
		activityTagRefs(old.ActivityTag), activityTagRefs(new.ActivityTag), new.ActivityTag != nil)
	if err != nil {
		return nil, activityError(err)
	}
	return ch, nil
}

func activityTagRefs(ts []ActivityTag) []childRef[ActivityTag] {
	out := make([]childRef[ActivityTag], len(ts))
	for i := range ts {
		t := &ts[i]
		out[i] = childRef[ActivityTag]{array: activityTagKind.array, index: i, personRecNo: t.ActivityRecNo, linkID: t.RecNo, row: t, rowID: t.RecNo}
	}
	return out
}

func ptrEqual[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// CheckActivityStale is the optimistic concurrency check of an activity
// save, as CheckStale is for persons: the save is stale (409) if the
// stored value of anything it changes differs from what old says (fields,
// the person link when old names it, edited and deleted tags), or a tag it
// edits or deletes is gone.
func CheckActivityStale(current, old *Activity, ch *ActivityChanges) error {
	if old == nil || ch.Old == nil {
		return nil
	}
	stale := current == nil
	for _, f := range ch.Fields {
		stale = stale || staleField(old, current, f)
	}
	if !stale && ch.LinkChanged && old.ActivityPersonLink != nil && old.ActivityPersonLink.PersonRecNo.Present {
		stale = !ptrEqual(old.linkedPerson(), current.linkedPerson())
	}
	if !stale {
		tags := map[int64]*ActivityTag{}
		for i := range current.ActivityTag {
			if t := &current.ActivityTag[i]; t.RecNo.Valid {
				tags[t.RecNo.Value] = t
			}
		}
		stale = staleRows(ch.Tags, tags, nil)
	}
	if stale {
		return Errorf(KindConflict, contract.CodeConcurrencyConflict, MethodActivity, ActivityConflictMessage)
	}
	return nil
}
