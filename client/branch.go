package client

import (
	"context"
	"net/http"
	"strconv"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// Branch is a branch as GET /branch/{recNo} answers it: the fields
// Wayfarer keeps (devportal Branch); absent ones are zero.
type Branch struct {
	RecNo        int64  `json:"recNo"`
	Name         string `json:"name"`
	Description  string `json:"description"`
	Phone        string `json:"phone"`
	Email        string `json:"email"`
	ActiveStatus int16  `json:"activeStatus"`
}

// LoadBranch loads a branch (GET /branch/{recNo}): the Branch Read
// permission. A branch that does not exist or is outside the caller's
// reach (the server answers 204) is an error for which IsNotFound is true.
func (c *Client) LoadBranch(ctx context.Context, recNo int64) (*Branch, error) {
	var bs []Branch
	a, err := c.call(ctx, http.MethodGet, "/branch/"+strconv.FormatInt(recNo, 10), nil, &bs)
	if err != nil {
		return nil, err
	}
	if a.noContent() || len(bs) != 1 {
		return nil, &recordNotFound{"branch", recNo}
	}
	return &bs[0], nil
}

// SearchBranches runs POST /branchSearch (the Branch Select permission);
// req may be nil (every branch in reach, the default columns recNo,
// createDateTime, lastModifiedDateTime, name). For example the branches
// whose names start with P:
//
//	rows, err := c.SearchBranches(ctx, &contract.BranchSearchRequest{Name: contract.NewStringSearchParam(5, "P")})
func (c *Client) SearchBranches(ctx context.Context, req *contract.BranchSearchRequest) ([]Row, error) {
	if req == nil {
		req = &contract.BranchSearchRequest{}
	}
	return c.lookupSearch(ctx, "/branchSearch", req)
}
