package wire

import (
	"sort"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// DecodeAdminUserCreate reads the body of POST /admin/agency/{alias}/user
// (docs/operators.md). An area name no area has is refused, naming it.
func DecodeAdminUserCreate(dec *jsoncodec.Decoder, body []byte) (wayfarer.NewUserRequest, error) {
	var in contract.AdminUserCreateRequest
	if err := dec.Decode(body, &in, wayfarer.MethodAdmin); err != nil {
		return wayfarer.NewUserRequest{}, err
	}
	out := wayfarer.NewUserRequest{UserName: in.UserName, Password: in.Password, Type: wayfarer.UserType(in.Type),
		Branch: in.Branch, Disabled: in.Disabled, NonExpiringPassword: in.NonExpiringPassword}
	if in.UserName == "" {
		return out, wayfarer.Errorf(wayfarer.KindInvalid, contract.CodeMissingParameter, wayfarer.MethodAdmin,
			"Missing or blank required parameter: userName")
	}
	names := make([]string, 0, len(in.Permissions))
	for name := range in.Permissions {
		names = append(names, name)
	}
	sort.Strings(names) // the first unknown name in one order
	for _, name := range names {
		a, ok := wayfarer.AreaByName(name)
		if !ok {
			return out, wayfarer.Errorf(wayfarer.KindInvalid, contract.CodeInvalidValue, wayfarer.MethodAdmin,
				"permissions.%s: not a permission area", name)
		}
		bits := wayfarer.Permission(in.Permissions[name])
		if bits&^wayfarer.PermAll != 0 {
			return out, wayfarer.Errorf(wayfarer.KindInvalid, contract.CodeInvalidValue, wayfarer.MethodAdmin,
				"permissions.%s: %d holds bits no permission has (all of them: %d)", name, bits, wayfarer.PermAll)
		}
		out.Perms[a] = bits
	}
	return out, nil
}

// AdminAgencies is the answer of GET /admin/agencies.
func AdminAgencies(list []wayfarer.Agency) []contract.AdminAgency {
	out := make([]contract.AdminAgency, len(list))
	for i, a := range list {
		out[i] = contract.AdminAgency{RecNo: a.ID, Alias: a.Alias, Name: a.Name, Status: a.Status.String()}
	}
	return out
}

// AdminUsers is the answer of GET /admin/agency/{alias}/users.
func AdminUsers(list []wayfarer.User) []contract.AdminUser {
	out := make([]contract.AdminUser, len(list))
	for i, u := range list {
		perms := map[string]uint32{}
		for a, bits := range u.Perms {
			if bits != 0 {
				perms[wayfarer.Area(a).String()] = uint32(bits)
			}
		}
		out[i] = contract.AdminUser{RecNo: u.ID, UserName: u.UserName, Type: int(u.Type), Enabled: u.Enabled,
			Locked: u.Locked, LockedOut: u.LockedOut, Permissions: perms}
	}
	return out
}
