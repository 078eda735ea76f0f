package wayfarer

import (
	"strings"
	"time"
)

// AgencyStatus is the state of an agency; only an active agency takes logins.
type AgencyStatus int

const (
	AgencyActive         AgencyStatus = 1
	AgencyDisabled       AgencyStatus = 2
	AgencyCancelled      AgencyStatus = 3
	AgencyNotInitialized AgencyStatus = 4
)

var agencyStatusNames = map[AgencyStatus]string{
	AgencyActive: "active", AgencyDisabled: "disabled", AgencyCancelled: "cancelled", AgencyNotInitialized: "uninitialized",
}

func (s AgencyStatus) String() string {
	if n, ok := agencyStatusNames[s]; ok {
		return n
	}
	return "unknown"
}

// ParseAgencyStatus reads a status name as String writes it.
func ParseAgencyStatus(s string) (AgencyStatus, bool) {
	for k, v := range agencyStatusNames {
		if strings.EqualFold(v, s) {
			return k, true
		}
	}
	return 0, false
}

// Agency is one agency context, named by its alias at login.
type Agency struct {
	ID                 int64
	Alias              string
	Name               string
	Status             AgencyStatus
	MaxPasswordAgeDays int // 0: passwords never expire
}

// NormalizeAlias is the stored form of an alias: aliases are case-insensitive.
func NormalizeAlias(alias string) string { return strings.ToUpper(strings.TrimSpace(alias)) }

// NormalizeUserName is the key user names are looked up by: case-insensitive.
func NormalizeUserName(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

// User is an app user of an agency, as the login needs it.
type User struct {
	ID                   int64
	AgencyID             int64
	UserName             string
	Type                 UserType
	Enabled              bool
	PasswordHash         string
	NonExpiringPassword  bool
	PasswordLastModified time.Time
	// Locked: an administrator locked the user (until unlocked); logins
	// with the right password answer 103.
	Locked   bool
	BranchID *int64
	Perms    Permissions
	// LockedOut (ListUsers only): failed logins lock the name now, from
	// some address or from all.
	LockedOut bool
}

// PasswordExpired reports whether the agency's maximum password age has
// passed since the password was set.
func (u *User) PasswordExpired(a *Agency, now time.Time) bool {
	if u.NonExpiringPassword || a.MaxPasswordAgeDays <= 0 {
		return false
	}
	return now.Sub(u.PasswordLastModified) > time.Duration(a.MaxPasswordAgeDays)*24*time.Hour
}

// ParseUserType reads "user", "manager" or "admin".
func ParseUserType(s string) (UserType, bool) {
	switch strings.ToLower(s) {
	case "user":
		return UserTypeUser, true
	case "manager":
		return UserTypeManager, true
	case "admin":
		return UserTypeAdmin, true
	}
	return 0, false
}

func (t UserType) String() string {
	switch t {
	case UserTypeUser:
		return "user"
	case UserTypeManager:
		return "manager"
	case UserTypeAdmin:
		return "admin"
	}
	return "unknown"
}
