package wayfarer

import (
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// UserType is an app user's type.
type UserType int

const (
	UserTypeUser    UserType = 1
	UserTypeManager UserType = 2
	UserTypeAdmin   UserType = 3
)

// Session is an authenticated caller: who holds the identity token, in which
// agency, with the permissions the store holds now (never the token's word).
type Session struct {
	TokenID     int64
	AgencyID    int64
	AgencyAlias string
	UserID      int64
	UserName    string
	UserType    UserType
	BranchID    *int64 // the user's branch; nil when the user has none
	Person      Permission
	AdvisorIDs  []int64 // advisor profiles the user is linked to
	ExpiresAt   time.Time
}

// Scope bounds which persons a caller can reach: always one agency; without
// AllUsers only persons whose advisor is one of the user's advisors (OnlySelf);
// without AllBranches only persons of the user's branch (OnlyBranch).
type Scope struct {
	AgencyID   int64
	OnlySelf   bool
	AdvisorIDs []int64
	OnlyBranch bool
	BranchID   *int64
}

// PersonScope derives the person scope of a session.
func (s *Session) PersonScope() Scope {
	return Scope{
		AgencyID:   s.AgencyID,
		OnlySelf:   !s.Person.Has(PermAllUsers),
		AdvisorIDs: s.AdvisorIDs,
		OnlyBranch: !s.Person.Has(PermAllBranches),
		BranchID:   s.BranchID,
	}
}

// Allows reports whether a person with the given branch and advisor lies in
// the scope. A user bound to OnlySelf without advisors, or to OnlyBranch
// without a branch, reaches nobody.
func (sc Scope) Allows(branchID, advisorID *int64) bool {
	if sc.OnlyBranch {
		if sc.BranchID == nil || branchID == nil || *branchID != *sc.BranchID {
			return false
		}
	}
	if sc.OnlySelf {
		if advisorID == nil {
			return false
		}
		found := false
		for _, a := range sc.AdvisorIDs {
			if a == *advisorID {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// Require returns a 403 error unless the session holds perm.
func (s *Session) Require(perm Permission, method string) error {
	if s.Person.Has(perm) {
		return nil
	}
	return Errorf(KindForbidden, contract.CodePermissionDenied, method, "Permission denied: person %s permission required", perm)
}

// Clock is the time source; tests inject a fake one.
type Clock interface{ Now() time.Time }

// SystemClock is the real clock.
type SystemClock struct{}

func (SystemClock) Now() time.Time { return time.Now() }
