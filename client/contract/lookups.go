package contract

// The look-ups' request bodies (docs/lookups.md): searches of branches,
// profiles and app users, each embedding the inherited SearchBase.

// BranchSearchRequest is the body of POST /branchSearch.
type BranchSearchRequest struct {
	SearchBase
	Name         *StringSearchParam `json:"name,omitempty"`
	ActiveStatus []int16            `json:"activeStatus,omitempty"`
	ArcBspNo     *NumSearchParam    `json:"arcBspNo,omitempty"`
}
