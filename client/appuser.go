package client

import (
	"context"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// SearchAppUsers runs POST /appUserSearch, for pickers (the AppUser
// Select permission); req may be nil (default columns recNo, id, userType,
// branch_recNo, name, enabled). No column holds a password hash, a lock or
// a token. For example the enabled users of a branch:
//
//	enabled := true
//	rows, err := c.SearchAppUsers(ctx, &contract.AppUserSearchRequest{
//		BranchRecNo: contract.NewNumSearchParam(1, branchRecNo), Enabled: &enabled})
func (c *Client) SearchAppUsers(ctx context.Context, req *contract.AppUserSearchRequest) ([]Row, error) {
	if req == nil {
		req = &contract.AppUserSearchRequest{}
	}
	return c.lookupSearch(ctx, "/appUserSearch", req)
}
