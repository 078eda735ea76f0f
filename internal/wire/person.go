package wire

import (
	"bytes"
	"reflect"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// savedPerson is a person in a save body: the core's record, whose tags
// name its members, and the person members that are not the core's.
type savedPerson struct {
	wayfarer.Person
	// The flat card array of contract 1.8.1: refused, naming personCardLink
	// and the base path that takes it.
	Card []any `json:"card"`
	// Loads of earlier Wayfarer versions carried it (the search column
	// stays); a body built from one may send it back: read and ignored.
	LastModifiedDateTime wayfarer.Opt[wayfarer.Timestamp] `json:"lastModifiedDateTime"`
}

// saveBody is every form of a save body at once, so that it is read in
// one pass: a person, or an oldNewDataset beside nothing else. P is the
// person of the body's contract (savedPerson, savedPerson181).
type saveBody[P any] struct {
	Person        P `json:",embed"`
	OldNewDataset *struct {
		OldData []P `json:"oldData"`
		NewData []P `json:"newData"`
	} `json:"oldNewDataset"`
}

// DecodePersonSave reads the body of POST /person and POST /person/refresh:
// a person object or an array of one person (a create), or
// {"oldNewDataset":{"oldData":[p],"newData":[p]}} (an update; an empty
// oldData is a create). old is nil for a create.
//
// Besides the decoder's answers: 407 for a wrong number of persons, person
// members beside an oldNewDataset, or the flat card array of contract
// 1.8.1. The card rules (cvvCode, ...) are the core's.
func DecodePersonSave(dec *jsoncodec.Decoder, body []byte) (old, new *wayfarer.Person, err error) {
	olds, news, err := decodeSides[savedPerson](dec, body)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range append(olds, news...) {
		if p.Card != nil {
			return nil, nil, invalid("card is the flat card array of contract 1.8.1: send cards in personCardLink, or send this body under the base path %s/, which takes the 1.8.1 shape",
				contract.BasePath181)
		}
	}
	if len(olds) == 1 {
		old = &olds[0].Person
	}
	return old, &news[0].Person, nil
}

// decodeSides reads a save body of either contract into its sides and
// checks the shape of the body itself.
func decodeSides[P any](dec *jsoncodec.Decoder, body []byte) (olds, news []P, err error) {
	return decodeRecordSides[P](dec, body, wayfarer.MethodPerson, "person")
}

// decodeRecordSides reads the save body of a record (noun, named in errors
// with method) in the person's forms: the record, an array of one, or an
// oldNewDataset.
func decodeRecordSides[P any](dec *jsoncodec.Decoder, body []byte, method, noun string) (olds, news []P, err error) {
	invalid := func(format string, args ...any) error {
		return wayfarer.Errorf(wayfarer.KindInvalid, contract.CodeInvalidValue, method, format, args...)
	}
	var newPath string
	if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '[' {
		if err := dec.Decode(body, &news, method); err != nil {
			return nil, nil, err
		}
	} else {
		var b saveBody[P]
		if err := dec.Decode(body, &b, method); err != nil {
			return nil, nil, err
		}
		news = []P{b.Person}
		if ds := b.OldNewDataset; ds != nil {
			if !reflect.ValueOf(b.Person).IsZero() {
				return nil, nil, invalid("a body with oldNewDataset holds nothing else; %s fields belong in oldData and newData", noun)
			}
			olds, news, newPath = ds.OldData, ds.NewData, "oldNewDataset.newData"
		}
	}
	switch {
	case newPath != "" && len(news) != 1:
		return nil, nil, invalid("oldNewDataset.newData must hold exactly one %s, got %d", noun, len(news))
	case len(news) != 1:
		return nil, nil, invalid("the request must hold exactly one %s, got %d", noun, len(news))
	case len(olds) > 1:
		return nil, nil, invalid("oldNewDataset.oldData must hold at most one %s, got %d", noun, len(olds))
	}
	return olds, news, nil
}

func invalid(format string, args ...any) error {
	return wayfarer.Errorf(wayfarer.KindInvalid, contract.CodeInvalidValue, wayfarer.MethodPerson, format, args...)
}

// PersonJSON is the answer of GET /person/{recNo} and POST /person/refresh:
// an array holding the person.
func PersonJSON(p *wayfarer.Person) ([]byte, error) { return jsoncodec.Marshal([]*wayfarer.Person{p}) }

// SaveResult is the answer of POST /person.
type SaveResult struct {
	ResultCode        int    `json:"resultCode"`
	ResultDescription string `json:"resultDescription"`
	RecNo             int64  `json:"recNo"`
}
