package wayfarer

import (
	"fmt"
	"strings"
)

// Area is a permission area: what a user may do is one Permission bit set
// per area, as the reference gives every app user one `<area>Actions`
// field per area.
type Area int

// The areas Wayfarer has. Their order is only the order of the table
// below and of listings; the store keys rows by Name, so areas can be
// added anywhere.
const (
	AreaPerson Area = iota
	AreaActivity
	AreaTag
	AreaBranch
	AreaAdvisorProfile
	AreaClientProfile
	AreaAppUser
	AreaAffiliation
	areaCount
)

// areaNames: Name as the devportal spells its "Permission Areas" (and the
// store keys rows), CLI as the admin commands' flags spell it.
var areaNames = [areaCount]struct{ Name, CLI string }{
	AreaPerson:         {"Person", "person"},
	AreaActivity:       {"Activity", "activity"},
	AreaTag:            {"Tag", "tag"},
	AreaBranch:         {"Branch", "branch"},
	AreaAdvisorProfile: {"AdvisorProfile", "advisor-profile"},
	AreaClientProfile:  {"ClientProfile", "client-profile"},
	AreaAppUser:        {"AppUser", "app-user"},
	AreaAffiliation:    {"Affiliation", "affiliation"},
}

// Areas lists every area in table order.
func Areas() []Area {
	out := make([]Area, areaCount)
	for i := range out {
		out[i] = Area(i)
	}
	return out
}

func (a Area) valid() bool { return a >= 0 && a < areaCount }

// String is the area's name as the devportal spells it ("AdvisorProfile").
func (a Area) String() string {
	if !a.valid() {
		return fmt.Sprintf("Area(%d)", int(a))
	}
	return areaNames[a].Name
}

// CLIName is the area's name on the command line ("advisor-profile").
func (a Area) CLIName() string {
	if !a.valid() {
		return a.String()
	}
	return areaNames[a].CLI
}

// AreaByName finds an area by its devportal name, as the store keeps it.
func AreaByName(name string) (Area, bool) {
	for a, n := range areaNames {
		if n.Name == name {
			return Area(a), true
		}
	}
	return 0, false
}

// Permissions holds one Permission per area. It is an array, so it is
// comparable and copied with the Session that carries it.
type Permissions [areaCount]Permission

// AllPermissions is every permission in every area.
func AllPermissions() Permissions {
	var p Permissions
	for a := range p {
		p[a] = PermAll
	}
	return p
}

// String lists every area with its bits, in table order:
// "person=select,read activity=none ...".
func (p Permissions) String() string {
	parts := make([]string, len(p))
	for a, bits := range p {
		parts[a] = Area(a).CLIName() + "=" + bits.String()
	}
	return strings.Join(parts, " ")
}
