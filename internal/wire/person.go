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
	// The flat card array of contracts before 1.8.2: refused, naming personCardLink.
	Card []any `json:"card"`
	// Loads of earlier Wayfarer versions carried it (the search column
	// stays); a body built from one may send it back: read and ignored.
	LastModifiedDateTime wayfarer.Opt[wayfarer.Timestamp] `json:"lastModifiedDateTime"`
}

// saveBody is every form of a save body at once, so that it is read in
// one pass: a person, or an oldNewDataset beside nothing else.
type saveBody struct {
	savedPerson
	OldNewDataset *struct {
		OldData []savedPerson `json:"oldData"`
		NewData []savedPerson `json:"newData"`
	} `json:"oldNewDataset"`
}

// DecodePersonSave reads the body of POST /person and POST /person/refresh:
// a person object or an array of one person (a create), or
// {"oldNewDataset":{"oldData":[p],"newData":[p]}} (an update; an empty
// oldData is a create). old is nil for a create.
//
// Besides the decoder's answers: 407 for a wrong number of persons, person
// members beside an oldNewDataset, or the pre-1.8.2 flat card array. The
// card rules (cvvCode, ...) are the core's.
func DecodePersonSave(dec *jsoncodec.Decoder, body []byte) (old, new *wayfarer.Person, err error) {
	var olds, news []savedPerson
	var newPath string
	if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '[' {
		if err := dec.Decode(body, &news, wayfarer.MethodPerson); err != nil {
			return nil, nil, err
		}
	} else {
		var b saveBody
		if err := dec.Decode(body, &b, wayfarer.MethodPerson); err != nil {
			return nil, nil, err
		}
		news = []savedPerson{b.savedPerson}
		if ds := b.OldNewDataset; ds != nil {
			if !reflect.ValueOf(b.savedPerson).IsZero() {
				return nil, nil, invalid("a body with oldNewDataset holds nothing else; person fields belong in oldData and newData")
			}
			olds, news, newPath = ds.OldData, ds.NewData, "oldNewDataset.newData"
		}
	}
	switch {
	case newPath != "" && len(news) != 1:
		return nil, nil, invalid("oldNewDataset.newData must hold exactly one person, got %d", len(news))
	case len(news) != 1:
		return nil, nil, invalid("the request must hold exactly one person, got %d", len(news))
	case len(olds) > 1:
		return nil, nil, invalid("oldNewDataset.oldData must hold at most one person, got %d", len(olds))
	}
	for _, p := range append(olds, news...) {
		if p.Card != nil {
			return nil, nil, invalid("card is the flat card array of contracts before 1.8.2; send cards in personCardLink")
		}
	}
	if len(olds) == 1 {
		old = &olds[0].Person
	}
	return old, &news[0].Person, nil
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
