package wire

import (
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// DecodeTagSave reads the body of POST /tag and POST /tag/refresh in the
// person's forms: a tag or an array of one (a create), or
// {"oldNewDataset":{"oldData":[t],"newData":[t]}} (an update; an empty
// oldData is a create). old is nil for a create.
func DecodeTagSave(dec *jsoncodec.Decoder, body []byte) (old, new *wayfarer.Tag, err error) {
	olds, news, err := decodeRecordSides[wayfarer.Tag](dec, body, wayfarer.MethodTag, "tag")
	if err != nil {
		return nil, nil, err
	}
	if len(olds) == 1 {
		old = &olds[0]
	}
	return old, &news[0], nil
}

// TagJSON is the answer of GET /tag/{recNo} and POST /tag/refresh: an array
// holding the tag.
func TagJSON(t *wayfarer.Tag) ([]byte, error) { return jsoncodec.Marshal([]*wayfarer.Tag{t}) }

// AffiliationJSON is the answer of GET /affiliation/{recNo}: an array
// holding the affiliation with its categories and elements.
func AffiliationJSON(a *wayfarer.Affiliation) ([]byte, error) {
	return jsoncodec.Marshal([]*wayfarer.Affiliation{a})
}
