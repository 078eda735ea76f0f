package client

import (
	"context"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// Profile types as profileSearch numbers them (profileType); Wayfarer
// keeps clients and advisors.
const (
	ProfileTypeClient  int16 = 1
	ProfileTypeAdvisor int16 = 3
)

// SearchProfiles runs POST /profileSearch over advisor and client
// profiles (Select in AdvisorProfile or ClientProfile: each kind needs its
// own area); req may be nil (default columns recNo, name, profileType,
// activeStatus). For example the active client profiles whose names start
// with "Able":
//
//	rows, err := c.SearchProfiles(ctx, &contract.ProfileSearchRequest{
//		ProfileType: contract.ShortSet{client.ProfileTypeClient}, ActiveStatus: contract.StatusSet{1},
//		ProfileName: contract.NewStringSearchParam(5, "Able")})
func (c *Client) SearchProfiles(ctx context.Context, req *contract.ProfileSearchRequest) ([]Row, error) {
	if req == nil {
		req = &contract.ProfileSearchRequest{}
	}
	return c.lookupSearch(ctx, "/profileSearch", req)
}
