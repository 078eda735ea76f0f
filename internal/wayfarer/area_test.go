package wayfarer

import (
	"errors"
	"testing"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// Every area has its devportal name and CLI name, each used once.
func TestAreaTable(t *testing.T) {
	names, cli := map[string]bool{}, map[string]bool{}
	for _, a := range Areas() {
		n, c := a.String(), a.CLIName()
		if n == "" || c == "" || names[n] || cli[c] {
			t.Errorf("area %d: name %q, CLI name %q (empty or used twice)", int(a), n, c)
		}
		names[n], cli[c] = true, true
		if got, ok := AreaByName(n); !ok || got != a {
			t.Errorf("AreaByName(%q) = %v, %v", n, got, ok)
		}
	}
	if len(Areas()) != 8 || AreaAdvisorProfile.String() != "AdvisorProfile" || AreaAdvisorProfile.CLIName() != "advisor-profile" {
		t.Errorf("areas: %v", Areas())
	}
	if _, ok := AreaByName("person"); ok {
		t.Error("AreaByName takes the devportal spelling only")
	}
}

// A check in one area is answered by that area's bits alone: person bits
// do not open the Tag area.
func TestRequireChecksTheAreaNamed(t *testing.T) {
	var perms Permissions
	perms[AreaPerson] = PermAll
	sess := &Session{AgencyID: 1, Perms: perms}
	if err := sess.Require(AreaPerson, PermSelect|PermRead, MethodPerson); err != nil {
		t.Fatalf("person read: %v", err)
	}
	err := sess.Require(AreaTag, PermRead, "tag")
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindForbidden || e.Code != contract.CodePermissionDenied || e.Method != "tag" {
		t.Fatalf("tag read with person bits only: %#v", err)
	}
	if want := "Permission denied: Tag read permission required"; e.Message != want {
		t.Errorf("description %q, want %q", e.Message, want)
	}
	if sess.Can(AreaTag, PermSelect) || !sess.Can(AreaPerson, PermDecrypt) {
		t.Error("Can mixes areas")
	}

	sess.Perms[AreaTag] = PermSelect | PermRead
	if err := sess.Require(AreaTag, PermRead, "tag"); err != nil {
		t.Fatalf("tag read with tag bits: %v", err)
	}
	if err := sess.Require(AreaTag, PermRead|PermInsert, "tag"); err == nil {
		t.Fatal("tag insert with select,read only")
	}
}

// An area's scope comes from its own AllUsers and AllBranches bits.
func TestScopeIsPerArea(t *testing.T) {
	branch := int64(3)
	sess := &Session{AgencyID: 1, BranchID: &branch, AdvisorIDs: []int64{7}}
	sess.Perms[AreaPerson] = PermSelect | PermAllUsers | PermAllBranches
	sess.Perms[AreaActivity] = PermSelect | PermAllUsers
	for _, c := range []struct {
		area           Area
		self, inBranch bool
	}{
		{AreaPerson, false, false},
		{AreaActivity, false, true},
		{AreaTag, true, true},
	} {
		sc := sess.Scope(c.area)
		if sc.AgencyID != 1 || sc.OnlySelf != c.self || sc.OnlyBranch != c.inBranch || sc.BranchID != &branch || len(sc.AdvisorIDs) != 1 {
			t.Errorf("%s scope: %+v", c.area, sc)
		}
	}
}

func TestPermissionsString(t *testing.T) {
	var p Permissions
	p[AreaPerson] = PermSelect | PermRead
	p[AreaClientProfile] = PermAll
	want := "person=select,read activity=none tag=none branch=none advisor-profile=none " +
		"client-profile=select,read,insert,update,delete,allusers,allbranches,decrypt,export,import app-user=none affiliation=none"
	if got := p.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if AllPermissions()[AreaAffiliation] != PermAll {
		t.Error("AllPermissions misses an area")
	}
}
