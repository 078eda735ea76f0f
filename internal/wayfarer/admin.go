package wayfarer

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// Profile types: advisors serve persons; client profiles group them.
const (
	ProfileAdvisor = 1
	ProfileClient  = 2
)

// MaxUserNameLength is the longest user name, in bytes.
const MaxUserNameLength = 64

// NewUser is what creating an app user takes.
type NewUser struct {
	AgencyID            int64
	UserName            string
	Name                string // shown in pickers (appUserSearch); "" is none
	Email               string // "" is none
	Type                UserType
	BranchID            *int64
	Perms               Permissions
	Enabled             bool
	NonExpiringPassword bool
	PasswordHash        string
	PasswordSetAt       time.Time
}

// AdminStore is what the admin commands and the demo data change.
//
// Changes to who a user is or may do end the user's sessions in the same
// transaction, on every instance (docs/security.md, "Sessions"): a new
// password, new permissions, another branch, an advisor linked or
// unlinked, disabling or locking the user; an agency leaving the active
// state ends all of its sessions. Each records a Revocation for the
// session caches.
type AdminStore interface {
	CreateAgency(ctx context.Context, a Agency) (int64, error)
	SetAgencyStatus(ctx context.Context, agencyID int64, s AgencyStatus) error
	ListAgencies(ctx context.Context) ([]Agency, error)
	CreateBranch(ctx context.Context, agencyID int64, name string) (int64, error)
	BranchByName(ctx context.Context, agencyID int64, name string) (int64, error)
	CreateProfile(ctx context.Context, agencyID int64, typ int, name string, branchID *int64) (int64, error)
	ProfileByName(ctx context.Context, agencyID int64, typ int, name string) (int64, error)
	CreateUser(ctx context.Context, u NewUser) (int64, error)
	// ListUsers fills LockedOut as of now.
	ListUsers(ctx context.Context, agencyID int64, now time.Time) ([]User, error)
	SetUserPassword(ctx context.Context, agencyID, userID int64, hash string, at time.Time) error
	// SetUserPermissions replaces the bits of the areas in set, keeping
	// the other areas'.
	SetUserPermissions(ctx context.Context, agencyID, userID int64, set map[Area]Permission) error
	SetUserBranch(ctx context.Context, agencyID, userID int64, branchID *int64) error
	SetUserEnabled(ctx context.Context, agencyID, userID int64, enabled bool) error
	SetUserLocked(ctx context.Context, agencyID, userID int64, locked bool) error
	// UnlockUser lifts an administrator's lock and every lockout of the
	// user's name by failed logins.
	UnlockUser(ctx context.Context, agencyID, userID int64) error
	LinkUserAdvisor(ctx context.Context, agencyID, userID, profileID int64) error
	UnlinkUserAdvisor(ctx context.Context, agencyID, userID, profileID int64) error
}

// AdminService applies the rules of agency and user administration.
type AdminService struct {
	Store  AdminStore
	Auth   AuthStore
	Hasher PasswordHasher
	Clock  Clock
}

var aliasPattern = regexp.MustCompile(`^[A-Z0-9_-]{1,32}$`)

// adminInvalid and adminNotFound are the refusals of the admin rules: the
// caller's input, never the store's failure. The command line prints their
// message; the operators' admin API answers them 400/407 and 404/601.
func adminInvalid(format string, args ...any) error {
	return Errorf(KindInvalid, contract.CodeInvalidValue, MethodAdmin, format, args...)
}

func adminNotFound(format string, args ...any) error {
	return Errorf(KindNotFound, contract.CodeRecordNotFound, MethodAdmin, format, args...)
}

// CreateAgency creates an agency with a valid, unused alias.
func (s *AdminService) CreateAgency(ctx context.Context, alias, name string, status AgencyStatus, maxPasswordAgeDays int) (int64, error) {
	alias = NormalizeAlias(alias)
	if !aliasPattern.MatchString(alias) {
		return 0, adminInvalid("alias %q: use 1 to 32 letters, digits, '-' or '_'", alias)
	}
	if _, err := s.Auth.AgencyByAlias(ctx, alias); err == nil {
		return 0, adminInvalid("agency %s already exists", alias)
	}
	if strings.TrimSpace(name) == "" {
		name = alias
	}
	if maxPasswordAgeDays < 0 {
		return 0, adminInvalid("max password age must not be negative")
	}
	return s.Store.CreateAgency(ctx, Agency{Alias: alias, Name: name, Status: status, MaxPasswordAgeDays: maxPasswordAgeDays})
}

// Agency finds an agency by alias with a readable error.
func (s *AdminService) Agency(ctx context.Context, alias string) (*Agency, error) {
	a, err := s.Auth.AgencyByAlias(ctx, alias)
	if errors.Is(err, ErrNotFound) {
		return nil, adminNotFound("no agency with alias %q", alias)
	}
	return a, err
}

// User finds a user of an agency by name with a readable error.
func (s *AdminService) User(ctx context.Context, agencyID int64, name string) (*User, error) {
	u, err := s.Auth.UserByName(ctx, agencyID, name)
	if errors.Is(err, ErrNotFound) {
		return nil, adminNotFound("no user %q in this agency", name)
	}
	return u, err
}

// CheckPassword is the minimum a new password must meet.
func CheckPassword(pw string) error {
	if len(pw) < 8 {
		return adminInvalid("password must be at least 8 characters")
	}
	if len(pw) > 256 {
		return adminInvalid("password must be at most 256 characters")
	}
	return nil
}

// CreateUser creates a user; password may be empty (set later) and then no
// login succeeds until it is set.
func (s *AdminService) CreateUser(ctx context.Context, u NewUser, password string) (int64, error) {
	u.UserName = strings.TrimSpace(u.UserName)
	if u.UserName == "" || len(u.UserName) > MaxUserNameLength {
		return 0, adminInvalid("user name must be 1 to %d characters", MaxUserNameLength)
	}
	if _, err := s.Auth.UserByName(ctx, u.AgencyID, u.UserName); err == nil {
		return 0, adminInvalid("user %q already exists in this agency", u.UserName)
	}
	if password != "" {
		if err := CheckPassword(password); err != nil {
			return 0, err
		}
		h, err := s.Hasher.Hash(password)
		if err != nil {
			return 0, err
		}
		u.PasswordHash = h
	}
	if err := checkUserText(&u); err != nil {
		return 0, err
	}
	u.PasswordSetAt = s.Clock.Now()
	return s.Store.CreateUser(ctx, u)
}

// SetPassword replaces a user's password and restarts its age; the user's
// sessions end.
func (s *AdminService) SetPassword(ctx context.Context, agencyID, userID int64, password string) error {
	if err := CheckPassword(password); err != nil {
		return err
	}
	h, err := s.Hasher.Hash(password)
	if err != nil {
		return err
	}
	return s.Store.SetUserPassword(ctx, agencyID, userID, h, s.Clock.Now())
}

// SetPermissions replaces a user's permissions in the areas of set (the
// other areas keep theirs); the user's sessions end.
func (s *AdminService) SetPermissions(ctx context.Context, u *User, set map[Area]Permission) error {
	if len(set) == 0 {
		return adminInvalid("no permission area given")
	}
	for a := range set {
		if !a.valid() {
			return adminInvalid("unknown permission area %d", int(a))
		}
	}
	return s.Store.SetUserPermissions(ctx, u.AgencyID, u.ID, set)
}

// SetBranch moves a user to a branch (empty name: none); the user's
// sessions end.
func (s *AdminService) SetBranch(ctx context.Context, u *User, branch string) error {
	var id *int64
	if strings.TrimSpace(branch) != "" {
		b, err := s.Store.BranchByName(ctx, u.AgencyID, branch)
		if errors.Is(err, ErrNotFound) {
			return adminNotFound("no branch %q", branch)
		} else if err != nil {
			return err
		}
		id = &b
	}
	return s.Store.SetUserBranch(ctx, u.AgencyID, u.ID, id)
}

// advisor finds an advisor profile by name with a readable error.
func (s *AdminService) advisor(ctx context.Context, agencyID int64, name string) (int64, error) {
	id, err := s.Store.ProfileByName(ctx, agencyID, ProfileAdvisor, name)
	if errors.Is(err, ErrNotFound) {
		return 0, adminNotFound("no advisor profile %q", name)
	}
	return id, err
}

// LinkAdvisor links a user to an advisor profile (OnlySelf reaches its
// persons); a new link ends the user's sessions.
func (s *AdminService) LinkAdvisor(ctx context.Context, u *User, advisor string) error {
	id, err := s.advisor(ctx, u.AgencyID, advisor)
	if err != nil {
		return err
	}
	return s.Store.LinkUserAdvisor(ctx, u.AgencyID, u.ID, id)
}

// UnlinkAdvisor removes a user's link to an advisor profile; the user's
// sessions end.
func (s *AdminService) UnlinkAdvisor(ctx context.Context, u *User, advisor string) error {
	id, err := s.advisor(ctx, u.AgencyID, advisor)
	if err != nil {
		return err
	}
	return s.Store.UnlinkUserAdvisor(ctx, u.AgencyID, u.ID, id)
}

// SetEnabled enables or disables a user; disabling ends its sessions.
func (s *AdminService) SetEnabled(ctx context.Context, u *User, enabled bool) error {
	return s.Store.SetUserEnabled(ctx, u.AgencyID, u.ID, enabled)
}

// Lock locks a user until Unlock: its sessions end, and logins with the
// right password answer 103.
func (s *AdminService) Lock(ctx context.Context, u *User) error {
	return s.Store.SetUserLocked(ctx, u.AgencyID, u.ID, true)
}

// Unlock lifts an administrator's lock and every lockout by failed logins.
func (s *AdminService) Unlock(ctx context.Context, u *User) error {
	return s.Store.UnlockUser(ctx, u.AgencyID, u.ID)
}

// SetAgencyStatus changes an agency's state; leaving active ends all of
// its sessions.
func (s *AdminService) SetAgencyStatus(ctx context.Context, a *Agency, st AgencyStatus) error {
	return s.Store.SetAgencyStatus(ctx, a.ID, st)
}
