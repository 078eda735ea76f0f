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
	BranchID    *int64      // the user's branch; nil when the user has none
	Perms       Permissions // one bit set per area
	AdvisorIDs  []int64     // advisor profiles the user is linked to
	ExpiresAt   time.Time
	// OperatorID is set for a host operator's session (docs/operators.md):
	// UserID is then 0 and UserName the operator's name; AgencyID 0 is
	// the admin domain, any other agency is one the operator was granted
	// (Perms are the grant's).
	OperatorID int64
}

// IsOperator reports whether a host operator holds the session.
func (s *Session) IsOperator() bool { return s.OperatorID != 0 }

// IsAdminDomain reports whether the session is an operator's in the host's
// admin domain (GET /login/:), not in an agency.
func (s *Session) IsAdminDomain() bool { return s.OperatorID != 0 && s.AgencyID == 0 }

// Scope bounds which records of an area a caller can reach: always one
// agency; without the area's AllUsers only records whose advisor is one of
// the user's advisors (OnlySelf); without its AllBranches only records of
// the user's branch (OnlyBranch).
type Scope struct {
	AgencyID   int64
	OnlySelf   bool
	AdvisorIDs []int64
	OnlyBranch bool
	BranchID   *int64
	// UserID is the session's app user, for records a user owns (a private
	// activity is seen by its owner only: a search kit scope hook reads it).
	UserID int64
}

// Scope derives the session's scope in an area from the area's AllUsers
// and AllBranches bits.
func (s *Session) Scope(area Area) Scope {
	p := s.Perms[area]
	return Scope{
		AgencyID:   s.AgencyID,
		OnlySelf:   !p.Has(PermAllUsers),
		AdvisorIDs: s.AdvisorIDs,
		OnlyBranch: !p.Has(PermAllBranches),
		BranchID:   s.BranchID,
		UserID:     s.UserID,
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

// Can reports whether the session holds every bit of perm in area.
func (s *Session) Can(area Area, perm Permission) bool { return s.Perms[area].Has(perm) }

// Require returns a 403 error (600, naming the area and the bits) unless
// the session holds perm in area.
func (s *Session) Require(area Area, perm Permission, method string) error {
	if s.Can(area, perm) {
		return nil
	}
	return Errorf(KindForbidden, contract.CodePermissionDenied, method, "Permission denied: %s %s permission required", area, perm)
}

// Clock is the time source; tests inject a fake one.
type Clock interface{ Now() time.Time }

// SystemClock is the real clock.
type SystemClock struct{}

func (SystemClock) Now() time.Time { return time.Now() }
