package wire

import (
	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// tagSearchBody is the body of POST /tagSearch.
type tagSearchBody struct {
	contract.TagSearchRequest
	SearchUnserved
}

// DecodeTagSearch reads a tagSearch body.
func DecodeTagSearch(dec *jsoncodec.Decoder, body []byte) (*wayfarer.FlatCriteria, error) {
	var b tagSearchBody
	if err := DecodeSearchBody(dec, body, &b); err != nil {
		return nil, err
	}
	cat, r, v := wayfarer.TagSearchCatalog, &b.TagSearchRequest, &converter{}
	c := &wayfarer.FlatCriteria{BaseCriteria: v.base(cat, &r.SearchBase)}
	c.Add(v.strFilter(cat, "name", "name", r.Name))
	c.Add(boolFilter("activeStatus", "activeStatus", r.ActiveStatus))
	for i, f := range r.AreaFlags {
		if f < 0 || f > wayfarer.TagAreaFlagsAll {
			v.check(wayfarer.Errorf(wayfarer.KindInvalid, contract.CodeInvalidValue, wayfarer.MethodParam,
				"Invalid value: %d is not a sum of tag area flags (0 to %d). Path 'areaFlags[%d]'.", f, wayfarer.TagAreaFlagsAll, i))
		}
	}
	c.Add(inFilter("areaFlags", "areaFlags", r.AreaFlags))
	return v.done(c)
}
