package wire

import (
	"regexp"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// The person of contract 1.8.1 (served under /v1.8.1/): the 1.8.2 person
// with the flat card array in place of personCardLink (contract §9.3). Its
// types embed the 1.8.2 ones, so every field the 1.8.2 person gains is a
// 1.8.1 field too; only the cards differ, and they become links at this
// edge, so the core runs the same card rules for both contracts.

// flatCard is an element of the 1.8.1 card array: the 1.8.2 card plus the
// person it belongs to, which 1.8.2 carries on the link. Its recNo is the
// link's card_recNo.
type flatCard struct {
	wayfarer.Card
	PersonRecNo wayfarer.Opt[int64] `json:"person_recNo,omitzero" wf:"id"`
}

// person181 is a loaded person of contract 1.8.1.
type person181 struct {
	wayfarer.Person
	Card []flatCard `json:"card,omitzero"`
}

// savedPerson181 is a person in a 1.8.1 save body. Its members hide the
// 1.8.2 person's personCardLink and the card member savedPerson refuses.
type savedPerson181 struct {
	savedPerson
	Card []flatCard `json:"card"`
	// The 1.8.2 card shape: refused, naming the base path that takes it.
	PersonCardLink []any `json:"personCardLink"`
}

// PersonShape is the person's JSON in one contract: how a save body is
// read, how a person is written, and how a core error names card fields.
type PersonShape struct {
	DecodeSave func(dec *jsoncodec.Decoder, body []byte) (old, new *wayfarer.Person, err error)
	Encode     func(p *wayfarer.Person) ([]byte, error)
	Reword     func(err error) error
}

// The person shapes of the two contracts served.
var (
	Person182 = PersonShape{DecodeSave: DecodePersonSave, Encode: PersonJSON, Reword: func(err error) error { return err }}
	Person181 = PersonShape{DecodeSave: DecodePersonSave181, Encode: PersonJSON181, Reword: Reword181}
)

// DecodePersonSave181 reads a save body of contract 1.8.1: DecodePersonSave's
// forms, with cards in the flat card array (each with recNo and
// person_recNo), turned into the 1.8.2 links the core takes:
// card[i] becomes personCardLink[i] with person_recNo from the card and
// card_recNo and card.recNo both from its recNo. 407 for personCardLink.
func DecodePersonSave181(dec *jsoncodec.Decoder, body []byte) (old, new *wayfarer.Person, err error) {
	olds, news, err := decodeSides[savedPerson181](dec, body)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range append(olds, news...) {
		if p.PersonCardLink != nil {
			return nil, nil, invalid("personCardLink is the card shape of contract 1.8.2, which the base path without %s takes; under %s/ send cards in the flat card array",
				contract.BasePath181, contract.BasePath181)
		}
	}
	if len(olds) == 1 {
		old = olds[0].person()
	}
	return old, news[0].person(), nil
}

// person is the core's person of a 1.8.1 save side.
func (p *savedPerson181) person() *wayfarer.Person {
	q := &p.Person
	q.PersonCardLink = nil
	if p.Card != nil {
		q.PersonCardLink = make([]wayfarer.CardLink, len(p.Card))
		for i := range p.Card {
			c := &p.Card[i].Card
			q.PersonCardLink[i] = wayfarer.CardLink{PersonRecNo: p.Card[i].PersonRecNo, CardRecNo: c.RecNo, Card: c}
		}
	}
	return q
}

// PersonJSON181 is PersonJSON in contract 1.8.1: each link becomes a card
// of the flat array, carrying the link's person_recNo (and its card_recNo
// as recNo where the card has none).
func PersonJSON181(p *wayfarer.Person) ([]byte, error) {
	q := person181{Person: *p}
	q.Person.PersonCardLink = nil
	if p.PersonCardLink != nil {
		q.Card = make([]flatCard, len(p.PersonCardLink))
		for i, l := range p.PersonCardLink {
			c := &q.Card[i]
			if l.Card != nil {
				c.Card = *l.Card
			}
			if !c.RecNo.Present {
				c.RecNo = l.CardRecNo
			}
			c.PersonRecNo = l.PersonRecNo
		}
	}
	return jsoncodec.Marshal([]person181{q})
}

// cardPath182 finds the 1.8.2 card paths in a core message:
// personCardLink[i] and what follows it.
var cardPath182 = regexp.MustCompile(`personCardLink(\[\d+\])?(\.card_recNo|\.card\.person_recNo|\.person_recNo|\.card\.|\.card\b)?`)

// Reword181 names the card fields of a core error as contract 1.8.1 does:
// personCardLink[i].card.x is card[i].x, personCardLink[i].card_recNo is
// card[i].recNo, both person_recNo are card[i].person_recNo. The core
// words its rules once, in 1.8.2 names; the indexes are the same, since
// card[i] became personCardLink[i].
func Reword181(err error) error {
	e := wayfarer.AsError(err)
	if e == nil {
		return err
	}
	msg := cardPath182.ReplaceAllStringFunc(e.Message, func(m string) string {
		sub := cardPath182.FindStringSubmatch(m)
		card := "card" + sub[1]
		switch sub[2] {
		case ".card_recNo":
			return card + ".recNo"
		case ".card.person_recNo", ".person_recNo":
			return card + ".person_recNo"
		case ".card.":
			return card + "."
		}
		return card
	})
	if msg == e.Message {
		return err
	}
	c := *e
	c.Message = msg
	return &c
}
