package wire

import (
	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// branchSearchBody is the body of POST /branchSearch.
type branchSearchBody struct {
	contract.BranchSearchRequest
	SearchUnserved
	Tags []any `json:"tags" wf:"unsupported"` // inherited; Wayfarer keeps no tags on branches
}

// DecodeBranchSearch reads a branchSearch body.
func DecodeBranchSearch(dec *jsoncodec.Decoder, body []byte) (*wayfarer.FlatCriteria, error) {
	var b branchSearchBody
	if err := DecodeSearchBody(dec, body, &b); err != nil {
		return nil, err
	}
	cat, r, v := wayfarer.BranchSearchCatalog, &b.BranchSearchRequest, &converter{}
	c := &wayfarer.FlatCriteria{BaseCriteria: v.base(cat, &r.SearchBase)}
	c.Add(v.strFilter(cat, "name", "name", r.Name))
	c.Add(inFilter("activeStatus", "activeStatus", r.ActiveStatus))
	c.Add(v.numFilter("arcBspNo", "arcBspNo", r.ArcBspNo))
	return v.done(c)
}
