package wayfarer

import (
	"context"
	"errors"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// An activity's reach (docs/activities.md, "Scope"), from the session's
// Scope of the Activity area (ActivityReach):
//
//   - Always one agency, and a private activity only when its appUser is
//     the caller (Scope.UserID).
//   - OnlySelf (no AllUsers): the activity's appUser is the caller, or it
//     links a person whose advisor is one of the caller's advisors.
//   - OnlyBranch (no AllBranches): the activity's appUser belongs to the
//     caller's branch, or it links a person of that branch; a caller
//     without a branch reaches none.

// ActivityReach is the session's reach among activities.
func (s *Session) ActivityReach() Scope { return s.Scope(AreaActivity) }

// ActivityWrite is what an activity store applies. The store checks that
// the app user, person and tags referred to exist in the agency (407
// naming the field), sets createDateTime and lastModifiedDateTime from Now,
// and refuses (ErrOutOfScope) a save after which the activity would lie
// outside the scope it was given.
type ActivityWrite struct {
	Changes *ActivityChanges
	Now     time.Time
}

// ActivityStore keeps activities. Every method works inside one agency and
// treats an activity out of reach exactly like a missing one: ErrNotFound.
type ActivityStore interface {
	LoadActivity(ctx context.Context, sc Scope, recNo int64) (*Activity, error)
	CreateActivity(ctx context.Context, sc Scope, w *ActivityWrite) (int64, error)
	// UpdateActivity opens one transaction, loads the current activity
	// (within reach) with a row lock, calls fn and applies what it returns.
	UpdateActivity(ctx context.Context, sc Scope, recNo int64, fn func(current *Activity) (*ActivityWrite, error)) error
}

// ActivityService loads and saves activities under the caller's Activity
// permissions and reach; activitySearch is a search of the search kit
// (ActivitySearchCatalog).
type ActivityService struct {
	Store ActivityStore
	Clock Clock
}

func (s *ActivityService) now() time.Time {
	if s.Clock == nil {
		return time.Now()
	}
	return s.Clock.Now()
}

// ActivityNotFoundError is the one answer for an activity that does not
// exist, belongs to another agency or lies out of the caller's reach.
func ActivityNotFoundError() *Error {
	return Errorf(KindNotFound, contract.CodeRecordNotFound, MethodActivity, "Activity not found")
}

func activityOutOfScope() *Error {
	return Errorf(KindForbidden, contract.CodePermissionDenied, MethodActivity,
		"Permission denied: the activity would lie outside your reach (a private activity belongs to its appUser; without AllUsers or AllBranches it must be yours or about a person you reach)")
}

// Load returns one activity (Read).
func (s *ActivityService) Load(ctx context.Context, sess *Session, recNo int64) (*Activity, error) {
	if err := sess.Require(AreaActivity, PermRead, MethodActivity); err != nil {
		return nil, err
	}
	return s.load(ctx, sess, recNo)
}

func (s *ActivityService) load(ctx context.Context, sess *Session, recNo int64) (*Activity, error) {
	if recNo <= 0 {
		return nil, ActivityNotFoundError()
	}
	a, err := s.Store.LoadActivity(ctx, sess.ActivityReach(), recNo)
	if errors.Is(err, ErrNotFound) {
		return nil, ActivityNotFoundError()
	}
	if err != nil {
		return nil, rewordTimeout(err, MethodActivity, "Loading the activity took longer than the %s limit; try again")
	}
	return a, nil
}

// Save creates (old nil) or updates an activity and returns its recNo.
func (s *ActivityService) Save(ctx context.Context, sess *Session, old, new *Activity) (int64, error) {
	if old == nil {
		return s.create(ctx, sess, new)
	}
	return s.update(ctx, sess, old, new)
}

// SaveAndLoad saves and returns the activity as Load shows it; Read is
// checked before anything is written.
func (s *ActivityService) SaveAndLoad(ctx context.Context, sess *Session, old, new *Activity) (*Activity, error) {
	if err := sess.Require(AreaActivity, PermRead, MethodActivity); err != nil {
		return nil, err
	}
	recNo, err := s.Save(ctx, sess, old, new)
	if err != nil {
		return nil, err
	}
	return s.load(ctx, sess, recNo)
}

// create inserts an activity (Insert). An absent appUser_recNo is the
// caller: an activity is someone's.
func (s *ActivityService) create(ctx context.Context, sess *Session, a *Activity) (int64, error) {
	if err := sess.Require(AreaActivity, PermInsert, MethodActivity); err != nil {
		return 0, err
	}
	if a == nil {
		return 0, activityError(invalidValue("the activity to save is missing"))
	}
	if err := ValidateActivity(a, true); err != nil {
		return 0, err
	}
	n := cloneActivity(a)
	if !n.AppUserRecNo.Present {
		n.AppUserRecNo = Some(sess.UserID)
	}
	ch, err := DiffActivity(nil, n)
	if err != nil {
		return 0, err
	}
	recNo, err := s.Store.CreateActivity(ctx, sess.ActivityReach(), &ActivityWrite{Changes: ch, Now: s.now()})
	return recNo, activitySaveError(err)
}

// update applies the difference between old and new in one transaction,
// refusing a stale save (409).
func (s *ActivityService) update(ctx context.Context, sess *Session, old, new *Activity) (int64, error) {
	if err := sess.Require(AreaActivity, PermUpdate, MethodActivity); err != nil {
		return 0, err
	}
	if new == nil {
		return 0, activityError(invalidValue("an update needs oldData and newData"))
	}
	if err := ValidateActivity(new, false); err != nil {
		return 0, err
	}
	if !old.RecNo.Valid {
		return 0, activityError(mismatch("oldData recNo is required"))
	}
	recNo := old.RecNo.Value
	if recNo <= 0 {
		return 0, ActivityNotFoundError()
	}
	err := s.Store.UpdateActivity(ctx, sess.ActivityReach(), recNo, func(current *Activity) (*ActivityWrite, error) {
		o, n := cloneActivity(old), cloneActivity(new)
		ch, err := DiffActivity(o, n)
		if err != nil {
			return nil, err
		}
		if err := CheckActivityStale(current, o, ch); err != nil {
			return nil, err
		}
		return &ActivityWrite{Changes: ch, Now: s.now()}, nil
	})
	if err != nil {
		return 0, activitySaveError(err)
	}
	return recNo, nil
}

func activitySaveError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNotFound):
		return ActivityNotFoundError()
	case errors.Is(err, ErrOutOfScope):
		return activityOutOfScope()
	}
	return rewordTimeout(err, MethodActivity, "Saving the activity took longer than the %s limit; nothing was saved, try again")
}
