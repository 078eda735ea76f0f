package wayfarer

import (
	"context"
	"strconv"
	"strings"
)

// A save that changes only the person's own fields (not its branch or
// advisor, no child row) needs nothing of the stored person but what its
// checks compare: that the stored values of the fields it changes are
// those of its old side (CheckStale), that the stored version is one
// If-Match names (Precondition), and that the stored branch and advisor
// are in the caller's scope. A store that can check those with the write
// itself (PersonStore.UpdatePersonRow: one conditional UPDATE) saves a
// read and, on PostgreSQL, every round trip but one. When a condition does
// not hold nothing is written and the save runs the whole way (update),
// which then answers what failed (404, 409, 412) or, had the row changed
// back meanwhile, saves: the conditional write only ever takes the saves
// the whole way would take unchanged.

// RowExpect is what a save of the person's own fields requires of the
// stored row besides being in scope.
type RowExpect struct {
	// Old holds, for each of Fields, the value the stored row must hold
	// (null: the column must be null).
	Old    *Person
	Fields []string
	// Versions the stored version must be one of; nil: any.
	Versions []int64
}

// rowSaveFields are the fields a conditional save must not change: they
// need their references checked and the scope applied to their new value.
var rowSaveFields = []string{"branch_recNo", "advisorProfile_recNo"}

// updateRow is update by one conditional write where the save allows it
// (ch is its diff, without a child row); done false: run the whole way.
func (s *PersonService) updateRow(ctx context.Context, sess *Session, scope Scope, recNo int64, ch *PersonChanges, pre *Precondition) (done bool, err error) {
	if ch.Empty() || !ch.PersonOnly() {
		return false, nil
	}
	old := ch.Old
	for _, f := range rowSaveFields {
		if hasField(ch.Fields, f) {
			return false, nil
		}
	}
	expect := RowExpect{Old: old}
	for _, f := range ch.Fields {
		if staleChecks(old, f) { // as CheckStale
			expect.Fields = append(expect.Fields, f)
		}
	}
	if pre != nil {
		if expect.Versions = pre.versions(recNo); len(expect.Versions) == 0 {
			return false, nil
		}
	}
	return s.Store.UpdatePersonRow(ctx, scope, recNo, expect, &PersonWrite{Changes: ch, Now: s.now(), UserID: sess.UserID})
}

// versions are the stored versions of person recNo that the tags name.
func (pc *Precondition) versions(recNo int64) []int64 {
	var out []int64
	prefix := strconv.FormatInt(recNo, 10) + "-"
	for _, t := range pc.VersionTags {
		rest, ok := strings.CutPrefix(t, prefix)
		if !ok {
			continue
		}
		if v, err := strconv.ParseInt(rest, 10, 64); err == nil && strconv.FormatInt(v, 10) == rest {
			out = append(out, v)
		}
	}
	return out
}
