// Package demo creates the fixed demo data the README lists. Every step
// checks before it creates, so seeding again (a restart, or a seed cut off
// half way) adds only what is missing.
package demo

import (
	"context"
	"errors"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Alias of the demo agency.
const Alias = "DEMO"

// Login is one demo login.
type Login struct{ Alias, User, Password, Note string }

// Logins are the demo logins, as the README lists them.
var Logins = []Login{
	{"DEMO", "admin", "demo-admin", "Admin, every permission in every area (incl. AllUsers, AllBranches, Decrypt)"},
	{"DEMO", "agent", "demo-agent", "User, branch Main, one advisor; person and activity Select|Read|Insert|Update, other areas Select|Read (OnlySelf, OnlyBranch)"},
	{"DEMO", "branch", "demo-branch", "Manager, branch Harbor; like agent plus AllUsers in every area (OnlyBranch)"},
	{"DEMO", "viewer", "demo-viewer", "no permission in any area"},
	{"DEMO", "disabled", "demo-disabled", "disabled user (login answers 104)"},
	{"DEMO", "expired", "demo-expired", "password expired (login answers 102)"},
	{"OTHER", "admin", "demo-admin", "a second active agency"},
	{"DISABLED", "admin", "demo-admin", "disabled agency (107)"},
	{"CANCELLED", "admin", "demo-admin", "cancelled agency (108)"},
	{"NEWAGENCY", "admin", "demo-admin", "agency not initialized (106)"},
}

// userNames are the demo users' display names (appUserSearch's pickers).
var userNames = map[string]string{"admin": "Ada Admin", "agent": "Alice Agent", "branch": "Hal Harbor", "viewer": "Vera Viewer"}

// Advisors of the demo agency and their branches.
var Advisors = []struct{ Name, Branch string }{
	{"Alice Advisor", "Main"}, {"Mark Mainwaring", "Main"}, {"Hana Harbor", "Harbor"},
}

// ClientProfiles persons of the demo agency can be associated with.
var ClientProfiles = []string{"Acme Travel Dept", "Globex Corporate", "Initech Events"}

type store interface {
	wayfarer.AdminStore
	wayfarer.AuthStore
}

// Seed creates whatever of the demo agencies and users is missing.
// maxPasswordAgeDays of DEMO is 90, and the "expired" user's password was
// set long before that; the other demo passwords never expire.
func Seed(ctx context.Context, admin *wayfarer.AdminService, st store) error {
	agencies := []struct {
		alias  string
		status wayfarer.AgencyStatus
	}{
		{"DEMO", wayfarer.AgencyActive}, {"OTHER", wayfarer.AgencyActive}, {"DISABLED", wayfarer.AgencyDisabled},
		{"CANCELLED", wayfarer.AgencyCancelled}, {"NEWAGENCY", wayfarer.AgencyNotInitialized},
	}
	ids := map[string]int64{}
	for _, a := range agencies {
		ag, err := st.AgencyByAlias(ctx, a.alias)
		if errors.Is(err, wayfarer.ErrNotFound) {
			id, err := admin.CreateAgency(ctx, a.alias, "Demo agency "+a.alias, a.status, 90)
			if err != nil {
				return err
			}
			ids[a.alias] = id
			continue
		} else if err != nil {
			return err
		}
		ids[a.alias] = ag.ID
	}
	demo := ids["DEMO"]
	branches := map[string]int64{}
	for _, name := range []string{"Main", "Harbor"} {
		id, err := ensure(func() (int64, error) { return st.BranchByName(ctx, demo, name) },
			func() (int64, error) { return st.CreateBranch(ctx, demo, name) })
		if err != nil {
			return err
		}
		branches[name] = id
	}
	advisors := map[string]int64{}
	for _, a := range Advisors {
		b := branches[a.Branch]
		id, err := ensure(func() (int64, error) { return st.ProfileByName(ctx, demo, wayfarer.ProfileAdvisor, a.Name) },
			func() (int64, error) { return st.CreateProfile(ctx, demo, wayfarer.ProfileAdvisor, a.Name, &b) })
		if err != nil {
			return err
		}
		advisors[a.Name] = id
	}
	for _, name := range ClientProfiles {
		if _, err := ensure(func() (int64, error) { return st.ProfileByName(ctx, demo, wayfarer.ProfileClient, name) },
			func() (int64, error) { return st.CreateProfile(ctx, demo, wayfarer.ProfileClient, name, nil) }); err != nil {
			return err
		}
	}

	main, harbor := branches["Main"], branches["Harbor"]
	users := []struct {
		login   Login
		typ     wayfarer.UserType
		branch  *int64
		perms   wayfarer.Permissions
		enabled bool
		advisor string
	}{
		{Logins[0], wayfarer.UserTypeAdmin, &main, wayfarer.AllPermissions(), true, ""},
		{Logins[1], wayfarer.UserTypeUser, &main, agentPermissions(), true, "Alice Advisor"},
		{Logins[2], wayfarer.UserTypeManager, &harbor, branchPermissions(), true, ""},
		{Logins[3], wayfarer.UserTypeUser, &main, wayfarer.Permissions{}, true, ""},
		{Logins[4], wayfarer.UserTypeUser, &main, personOnly(wayfarer.PermSelect | wayfarer.PermRead), false, ""},
		{Logins[5], wayfarer.UserTypeUser, &main, personOnly(wayfarer.PermSelect | wayfarer.PermRead), true, ""},
	}
	for _, u := range users {
		if err := ensureUser(ctx, admin, st, demo, u.login, u.typ, u.branch, u.perms, u.enabled); err != nil {
			return err
		}
		if u.advisor != "" {
			usr, err := st.UserByName(ctx, demo, u.login.User)
			if err != nil {
				return err
			}
			if err := st.LinkUserAdvisor(ctx, demo, usr.ID, advisors[u.advisor]); err != nil {
				return err
			}
		}
	}
	for _, l := range Logins[6:] {
		if err := ensureUser(ctx, admin, st, ids[l.Alias], l, wayfarer.UserTypeAdmin, nil, wayfarer.AllPermissions(), true); err != nil {
			return err
		}
	}
	return nil
}

const editBits = wayfarer.PermSelect | wayfarer.PermRead | wayfarer.PermInsert | wayfarer.PermUpdate

// agentPermissions: edits persons and activities, looks up the rest.
func agentPermissions() wayfarer.Permissions {
	var p wayfarer.Permissions
	for _, a := range wayfarer.Areas() {
		p[a] = wayfarer.PermSelect | wayfarer.PermRead
	}
	p[wayfarer.AreaPerson], p[wayfarer.AreaActivity] = editBits, editBits
	return p
}

// branchPermissions: the agent's, reaching every user's records of its
// branch (AllUsers) in every area, as in the person area.
func branchPermissions() wayfarer.Permissions {
	p := agentPermissions()
	for a := range p {
		p[a] |= wayfarer.PermAllUsers
	}
	return p
}

func personOnly(bits wayfarer.Permission) wayfarer.Permissions {
	var p wayfarer.Permissions
	p[wayfarer.AreaPerson] = bits
	return p
}

func ensure(find, create func() (int64, error)) (int64, error) {
	id, err := find()
	if errors.Is(err, wayfarer.ErrNotFound) {
		return create()
	}
	return id, err
}

func ensureUser(ctx context.Context, admin *wayfarer.AdminService, st store, agencyID int64, l Login,
	typ wayfarer.UserType, branch *int64, perms wayfarer.Permissions, enabled bool) error {
	if _, err := st.UserByName(ctx, agencyID, l.User); err == nil {
		return nil
	} else if !errors.Is(err, wayfarer.ErrNotFound) {
		return err
	}
	expired := l.User == "expired"
	id, err := admin.CreateUser(ctx, wayfarer.NewUser{
		AgencyID: agencyID, UserName: l.User, Name: userNames[l.User], Type: typ, BranchID: branch, Perms: perms,
		Enabled: enabled, NonExpiringPassword: !expired,
	}, l.Password)
	if err != nil {
		return err
	}
	if expired {
		hash, err := admin.Hasher.Hash(l.Password)
		if err != nil {
			return err
		}
		// set a year ago, so DEMO's 90-day maximum has long passed
		return st.SetUserPassword(ctx, agencyID, id, hash, admin.Clock.Now().AddDate(-1, 0, 0))
	}
	return nil
}
