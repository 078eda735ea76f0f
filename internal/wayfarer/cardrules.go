package wayfarer

import (
	"crypto/rand"
	"encoding/hex"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// Card rules of contract §4.6 that need both sides of a save. The rules on
// one side alone (cvvCode, card numbers in text) are in DecodePersonSave and
// ValidatePerson.

const (
	msgTypeInsertOnly   = "card type is insert-only: remove the card and add a new one"
	msgMaskedNotAllowed = "masked card number cannot be saved"
)

// applyCardRules checks the card changes of ch and, for credit/debit numbers
// supplied new or changed, validates them and records digits and brand for
// sealing. The token is the server's: a client's value is never written.
func applyCardRules(ch *PersonChanges) error {
	for i, l := range ch.New.PersonCardLink {
		if l.Card == nil {
			continue
		}
		if pr := l.Card.PersonRecNo; pr.Valid && (ch.Create() || pr.Value != ch.RecNo) {
			return mismatch("%s.card.person_recNo (%d) is not this person; the link carries the relationship",
				indexPath(cardKind.array, i), pr.Value)
		}
	}
	kept := ch.Cards[:0]
	for i := range ch.Cards {
		c := &ch.Cards[i]
		if c.Op == OpDelete {
			kept = append(kept, *c)
			continue
		}
		c.Fields = removeField(c.Fields, "cardNumberToken")
		if c.Op == OpUpdate && len(c.Fields) == 0 {
			continue
		}
		kept = append(kept, *c)
		c = &kept[len(kept)-1]
		typ := c.New.Type
		if c.Op == OpUpdate {
			if hasField(c.Fields, "type") {
				return cardRuleError("%s (%s.type)", msgTypeInsertOnly, c.Path)
			}
			if !hasField(c.Fields, "cardNumber") {
				continue
			}
			if c.Old.Type.Valid {
				typ = c.Old.Type
			}
			if !typ.Valid {
				return invalidValue("%s.type is required to change the card number", c.Path)
			}
		}
		if !typ.Valid {
			return invalidValue("%s.type is required", c.Path)
		}
		number := c.New.CardNumber.Value
		if contract.IsMaskedCardNumber(number) {
			return cardRuleError("%s (%s.cardNumber)", msgMaskedNotAllowed, c.Path)
		}
		if typ.Value != CardTypeCreditDebit {
			// Loyalty and travel-document numbers are stored and shown in
			// clear: a payment card number must not hide among them.
			if ContainsCardNumber(number) {
				return cardRuleError("%s.cardNumber looks like a credit/debit card number: save it as a card of type 1, which is encrypted", c.Path)
			}
			continue
		}
		digits, brand, err := ValidateCreditCardNumber(number)
		if err != nil {
			return cardRuleError("%s.cardNumber is not a valid credit/debit card number: %v", c.Path, err)
		}
		c.Digits, c.Brand = digits, brand
	}
	ch.Cards = kept
	return nil
}

// NewCardToken returns a fresh cardNumberToken: "tok_" and 24 hex digits.
// Tokens that happen to hold a Luhn-valid digit run are drawn again, so a
// token never trips the card-number-in-text scan.
func NewCardToken() string {
	for {
		var b [12]byte
		if _, err := rand.Read(b[:]); err != nil {
			panic(err) // crypto/rand does not fail on supported platforms
		}
		t := "tok_" + hex.EncodeToString(b[:])
		if !ContainsCardNumber(t) {
			return t
		}
	}
}
