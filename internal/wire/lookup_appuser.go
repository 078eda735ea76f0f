package wire

import (
	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// appUserSearchBody is the body of POST /appUserSearch.
type appUserSearchBody struct {
	contract.AppUserSearchRequest
	SearchUnserved
	// Whether a user is locked out is not a picker's business (docs/lookups.md).
	Locked any `json:"locked" wf:"unsupported"`
}

// DecodeAppUserSearch reads an appUserSearch body.
func DecodeAppUserSearch(dec *jsoncodec.Decoder, body []byte) (*wayfarer.FlatCriteria, error) {
	var b appUserSearchBody
	if err := DecodeSearchBody(dec, body, &b); err != nil {
		return nil, err
	}
	cat, r, v := wayfarer.AppUserSearchCatalog, &b.AppUserSearchRequest, &converter{}
	c := &wayfarer.FlatCriteria{BaseCriteria: v.base(cat, &r.SearchBase)}
	c.Add(v.strFilter(cat, "id", "id", r.ID))
	c.Add(v.numFilter("branchRecNo", "branch_recNo", r.BranchRecNo))
	c.Add(v.numFilter("userType", "userType", r.UserType))
	c.Add(v.strFilter(cat, "name", "name", r.Name))
	c.Add(v.strFilter(cat, "email", "email", r.Email))
	c.Add(boolFilter("enabled", "enabled", r.Enabled))
	if r.AdvisorProfileRecNo != nil {
		c.Add(wayfarer.SearchFilter{Key: "advisorProfileRecNo", Path: "advisorProfileRecNo",
			Num: wayfarer.NumParam{Cond: wayfarer.NumEqual, Values: []int64{*r.AdvisorProfileRecNo}}})
	}
	return v.done(c)
}
