package wayfarer

import (
	"context"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// Branches: POST /branchSearch and GET /branch/{recNo} (docs/lookups.md),
// the first searches of the search kit (search_kit.go). A branch is in a
// session's reach when the session may see every branch (AllBranches) or
// it is the session's own branch; OnlySelf does not apply (a branch has no
// advisor).

// BranchSearchCatalog is the devportal's BranchSearch columns. Columns the
// reference has and Wayfarer does not keep (tags of branches, arcBspNo,
// the general ledger branch) are accepted and hold null, left out of rows.
var BranchSearchCatalog = NewSearchCatalog("branch", MethodBranchSearch, []Area{AreaBranch}, []SearchColumn{
	{Name: "recNo", Type: ColLong, Default: true},
	{Name: "tagRecNo", Type: ColLong},
	{Name: "tagName", Type: ColString, Size: 64},
	{Name: "tagValue", Type: ColString, Size: 1024},
	{Name: "summaryCount", Type: ColInt},
	{Name: "createDateTime", Type: ColDateTimeOffset, Default: true},
	{Name: "lastModifiedDateTime", Type: ColDateTimeOffset, Default: true},
	{Name: "name", Type: ColString, Size: 64, Default: true},
	{Name: "description", Type: ColString, Size: 128},
	{Name: "activeStatus", Type: ColShort},
	{Name: "arcBspNo", Type: ColInt},
	{Name: "generalLedgerBranch_recNo", Type: ColLong},
})

// BranchRecordCatalog is the fields of GET /branch/{recNo} that Wayfarer
// keeps (devportal Branch), read through the search kit as one row.
var BranchRecordCatalog = NewSearchCatalog("branchRecord", MethodBranch, []Area{AreaBranch}, []SearchColumn{
	{Name: "recNo", Type: ColLong, Default: true},
	{Name: "name", Type: ColString, Size: 64, Default: true},
	{Name: "description", Type: ColString, Size: 128, Default: true},
	{Name: "phone", Type: ColString, Size: 256, Default: true},
	{Name: "email", Type: ColString, Size: 256, Default: true},
	{Name: "activeStatus", Type: ColShort, Default: true},
	// Wayfarer keeps no logos: an empty byte array, as the devportal's
	// example answers a branch without one.
	{Name: "logoData", Type: ColString, Default: true},
})

// BranchService loads branches.
type BranchService struct {
	Search *FlatSearchService
}

// Load reads one branch as a row of BranchRecordCatalog. A branch out of
// reach (missing, another agency's, another branch for an OnlyBranch
// user) is KindNotFound, one answer for all.
func (s *BranchService) Load(ctx context.Context, sess *Session, recNo int64) (*SearchResult, error) {
	if err := sess.Require(AreaBranch, PermRead, MethodBranch); err != nil {
		return nil, err
	}
	cols, _, _ := BranchRecordCatalog.Resolve(nil)
	c := &FlatCriteria{BaseCriteria: BaseCriteria{Columns: cols, RecNo: NumParam{Cond: NumEqual, Values: []int64{recNo}}}}
	res, err := s.Search.Store.SearchFlat(ctx, BranchRecordCatalog, ReachOf(sess), c)
	if err != nil {
		return nil, rewordTimeout(err, MethodBranch, "Loading the branch took longer than the %s limit")
	}
	if len(res.Rows) == 0 {
		return nil, Errorf(KindNotFound, contract.CodeRecordNotFound, MethodBranch, "Branch not found")
	}
	return res, nil
}
