package client

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// CardType is the kind of a card. It is set when a card is made and never
// changes: replacing a card of one kind by another is a new card.
type CardType int

const (
	CardCreditDebit    CardType = 1
	CardLoyalty        CardType = 2
	CardTravelDocument CardType = 3
)

func (t CardType) String() string {
	switch t {
	case CardCreditDebit:
		return "credit/debit"
	case CardLoyalty:
		return "loyalty"
	case CardTravelDocument:
		return "travel document"
	}
	return fmt.Sprintf("cardType(%d)", int(t))
}

// Card is a credit/debit card, loyalty card or travel document.
//
// Its record number, type, number and token are readable only: the number
// changes through SetNumber, and the rest is the server's. There is no
// cvvCode: the contract forbids sending one.
type Card struct {
	SubType            *int    `json:"subType"`
	IssueDate          *Date   `json:"issueDate"`
	ExpirationDate     *Date   `json:"expirationDate"`
	IssuingCity        *string `json:"issuingCity"`
	IssuingCountry     *string `json:"issuingCountry"` // two letters
	IssuingCountryName *string `json:"issuingCountryName"`
	Description        *string `json:"description"` // never a card number or a CVV
	Code               *string `json:"code"`
	NameOnCard         *string `json:"nameOnCard"`

	recNo  *int64
	typ    CardType
	number *string
	token  *string
}

// NewCard makes a card that the server does not know yet. For a
// credit/debit card, number is the full number; it is validated and
// tokenized by the server and comes back masked.
func NewCard(t CardType, number string) Card {
	return Card{typ: t, number: &number}
}

// RecNo is the card's record number; 0 for a new card.
func (c Card) RecNo() int64 { return deref(c.recNo) }

// Type is the kind of card.
func (c Card) Type() CardType { return c.typ }

// Number is the card number: masked for a loaded credit/debit card (unless
// loaded with LoadPersonDecrypted).
func (c Card) Number() string { return deref(c.number) }

// Token is the server's cardNumberToken of a credit/debit card.
func (c Card) Token() string { return deref(c.token) }

// Masked reports whether Number is masked.
func (c Card) Masked() bool { return IsMaskedNumber(c.Number()) }

// SetNumber replaces the card number with a new one. A masked number is
// refused: it is never a number.
func (c *Card) SetNumber(number string) error {
	if strings.TrimSpace(number) == "" {
		return fmt.Errorf("%w: the card number is empty", ErrCardRule)
	}
	if IsMaskedNumber(number) {
		return ErrMaskedNumber
	}
	c.number = &number
	return nil
}

type cardAlias Card

type cardWire struct {
	RecNo           *int64    `json:"recNo"`
	Type            *CardType `json:"type"`
	CardNumber      *string   `json:"cardNumber"`
	CardNumberToken *string   `json:"cardNumberToken"`
	*cardAlias
}

func (c Card) MarshalJSON() ([]byte, error) {
	a := cardAlias(c)
	w := cardWire{RecNo: c.recNo, CardNumber: c.number, CardNumberToken: c.token, cardAlias: &a}
	if c.typ != 0 {
		w.Type = &c.typ
	}
	return json.Marshal(w)
}

func (c *Card) UnmarshalJSON(b []byte) error {
	*c = Card{}
	w := cardWire{cardAlias: (*cardAlias)(c)}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	c.recNo, c.number, c.token = w.RecNo, w.CardNumber, w.CardNumberToken
	if w.Type != nil {
		c.typ = *w.Type
	}
	return nil
}

// CardLink connects a person with a card (personCardLink). Its identifiers
// are readable only, so editing Card through a loaded link keeps all three
// (person_recNo, card_recNo, card.recNo), as contract §4.6 requires.
type CardLink struct {
	Card Card

	personRecNo *int64
	cardRecNo   *int64
}

// NewCardLink links a new card to a person (personRecNo 0 for a person not
// saved yet). Any identifiers c carries are dropped: the link makes a new
// card, and the server assigns its record number.
func NewCardLink(personRecNo int64, c Card) CardLink {
	c.recNo, c.token = nil, nil
	l := CardLink{Card: c}
	if personRecNo != 0 {
		l.personRecNo = &personRecNo
	}
	return l
}

// PersonRecNo and CardRecNo are the link's identifiers (0 when null).
func (l CardLink) PersonRecNo() int64 { return deref(l.personRecNo) }
func (l CardLink) CardRecNo() int64   { return deref(l.cardRecNo) }

// IsNew reports a link that makes a new card on save.
func (l CardLink) IsNew() bool { return l.cardRecNo == nil && l.Card.recNo == nil }

type cardLinkWire struct {
	PersonRecNo *int64 `json:"person_recNo"`
	CardRecNo   *int64 `json:"card_recNo"`
	Card        Card   `json:"card"`
}

func (l CardLink) MarshalJSON() ([]byte, error) {
	return json.Marshal(cardLinkWire{PersonRecNo: l.personRecNo, CardRecNo: l.cardRecNo, Card: l.Card})
}

func (l *CardLink) UnmarshalJSON(b []byte) error {
	var w cardLinkWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*l = CardLink{Card: w.Card, personRecNo: w.PersonRecNo, cardRecNo: w.CardRecNo}
	return nil
}

// IsMaskedNumber reports whether s is a masked card number rather than a
// real one: the server's shape "VI 41-XXXX-1111", or digits, spaces and
// dashes with a run of four or more mask characters (X, x or *), optionally
// after a two-letter brand code. The server applies the same rule.
func IsMaskedNumber(s string) bool { return contract.IsMaskedCardNumber(s) }
