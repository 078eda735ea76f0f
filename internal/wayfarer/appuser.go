package wayfarer

import (
	"strings"
	"unicode/utf8"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// App users: POST /appUserSearch, for pickers (docs/lookups.md), through
// the search kit. Never a password hash, a failed-login count, a lock or
// a token: the catalog's columns are the devportal's, and those of them
// that would tell who is locked out (locked) or when someone last logged
// in (lastLoginDateTime) hold null.
//
// Reach (area AppUser): OnlyBranch keeps the users of the session's
// branch; OnlySelf the users linked to one of the session's advisors.

// AppUserSearchCatalog is the devportal's AppUserSearch columns.
var AppUserSearchCatalog = NewSearchCatalog("appUser", MethodAppUserSearch, []Area{AreaAppUser}, []SearchColumn{
	{Name: "recNo", Type: ColLong, Default: true},
	{Name: "summaryCount", Type: ColInt},
	{Name: "createDateTime", Type: ColDateTimeOffset},
	{Name: "lastModifiedDateTime", Type: ColDateTimeOffset},
	{Name: "id", Type: ColString, Size: 64, Default: true},
	{Name: "userType", Type: ColShort, Default: true},
	{Name: "branch_recNo", Type: ColLong, Default: true},
	{Name: "branchName", Type: ColString, Size: 64},
	{Name: "name", Type: ColString, Size: 64, Default: true},
	{Name: "mobilePhone", Type: ColString, Size: 64},
	{Name: "email", Type: ColString, Size: 128},
	{Name: "enabled", Type: ColBool, Default: true},
	{Name: "locked", Type: ColDateTimeOffset},
	{Name: "lastLoginDateTime", Type: ColDateTimeOffset},
})

// checkUserText checks a user's display name and email (appUserSearch
// shows them): their sizes (the devportal's AppUser: 64 and 128), and, as
// every free-text field, no card number. Its refusals are the admin
// rules' (400/407, method "admin").
func checkUserText(u *NewUser) error {
	u.Name, u.Email = strings.TrimSpace(u.Name), strings.TrimSpace(u.Email)
	for _, f := range []struct {
		name, v string
		max     int
	}{{"name", u.Name, 64}, {"email", u.Email, 128}} {
		if utf8.RuneCountInString(f.v) > f.max {
			return Errorf(KindInvalid, contract.CodeInvalidValue, MethodAdmin, "%s must be at most %d characters", f.name, f.max)
		}
		if ContainsCardNumber(f.v) {
			return Errorf(KindInvalid, contract.CodeInvalidValue, MethodAdmin, "%s looks like it holds a card number; card numbers are kept only in cards", f.name)
		}
	}
	return nil
}
