package wayfarer

import (
	"fmt"
	"strings"
)

// Permission is the bit set of one permission area (Area), with the
// reference's bit values.
type Permission uint32

const (
	PermSelect Permission = 1 << iota
	PermRead
	PermInsert
	PermUpdate
	PermDelete
	PermAllUsers
	PermAllBranches
	PermDecrypt
	PermExport
	PermImport
)

// PermAll is every permission of an area.
const PermAll = PermSelect | PermRead | PermInsert | PermUpdate | PermDelete | PermAllUsers | PermAllBranches | PermDecrypt | PermExport | PermImport

var permissionNames = []struct {
	bit  Permission
	name string
}{
	{PermSelect, "select"}, {PermRead, "read"}, {PermInsert, "insert"}, {PermUpdate, "update"},
	{PermDelete, "delete"}, {PermAllUsers, "allusers"}, {PermAllBranches, "allbranches"},
	{PermDecrypt, "decrypt"}, {PermExport, "export"}, {PermImport, "import"},
}

// Has reports whether every bit of q is set in p.
func (p Permission) Has(q Permission) bool { return p&q == q }

// String lists the set bits by name, comma-separated ("none" when empty).
func (p Permission) String() string {
	var names []string
	for _, n := range permissionNames {
		if p.Has(n.bit) {
			names = append(names, n.name)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ",")
}

// ParsePermissions reads a comma-separated list of names ("select,read",
// "all", "none"), case-insensitively.
func ParsePermissions(s string) (Permission, error) {
	var p Permission
	for _, part := range strings.Split(s, ",") {
		name := strings.ToLower(strings.TrimSpace(part))
		switch name {
		case "", "none":
			continue
		case "all":
			p |= PermAll
			continue
		}
		found := false
		for _, n := range permissionNames {
			if n.name == name {
				p |= n.bit
				found = true
			}
		}
		if !found {
			return 0, fmt.Errorf("unknown permission %q (known: select, read, insert, update, delete, allusers, allbranches, decrypt, export, import, all, none)", part)
		}
	}
	return p, nil
}
