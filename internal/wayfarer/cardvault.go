package wayfarer

// The card vault's side of persons: numbers sealed on their way to the
// store and opened for a caller who may see them, and how a save tells a
// clear number it was shown from a new one.

import (
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// CardDecryptAudit records who was shown which card numbers unmasked, and when.
type CardDecryptAudit struct {
	AgencyID int64
	UserID   int64
	PersonID int64
	CardIDs  []int64
	At       time.Time
}

// CardSealer encrypts credit/debit card numbers at rest. Implementations
// bind a ciphertext to its agency, so it cannot be moved to another.
type CardSealer interface {
	Seal(agencyID int64, digits string) (keyID string, cipher []byte, err error)
	Open(agencyID int64, keyID string, cipher []byte) (digits string, err error)
}

// seal encrypts the credit/debit numbers of ch and replaces them by their
// masked form and a fresh token.
func (s *PersonService) seal(agencyID int64, ch *PersonChanges) error {
	for i := range ch.Cards {
		c := &ch.Cards[i]
		if c.Digits == "" {
			continue
		}
		if s.Sealer == nil {
			return Errorf(KindInternal, contract.CodeInternal, MethodPerson, "the card vault is not configured")
		}
		keyID, cipher, err := s.Sealer.Seal(agencyID, c.Digits)
		if err != nil {
			s.logger().Error("card vault: a card number could not be sealed", "agency_id", agencyID, "error", err.Error())
			return Errorf(KindInternal, contract.CodeInternal, MethodPerson, "the card vault could not seal a card number")
		}
		c.New.CardNumber = Some(MaskCardNumber(c.Digits, c.Brand))
		c.New.CardNumberToken = Some(NewCardToken())
		c.New.Sealed = &SealedNumber{KeyID: keyID, Cipher: cipher}
		c.Digits = ""
		if !hasField(c.Fields, "cardNumber") {
			c.Fields = append(c.Fields, "cardNumber")
		}
		c.Fields = append(c.Fields, "cardNumberToken")
	}
	return nil
}

func (s *PersonService) open(agencyID, cardRecNo int64, sealed *SealedNumber) (string, error) {
	if s.Sealer == nil {
		return "", Errorf(KindInternal, contract.CodeInternal, MethodPerson, "the card vault is not configured")
	}
	digits, err := s.Sealer.Open(agencyID, sealed.KeyID, sealed.Cipher)
	if err != nil {
		// The sealer's error names the key id and the cause, never the
		// cipher or the number; the log gets it, the client a 901 saying
		// which card and key, so an administrator knows what to restore.
		s.logger().Error("card vault: a card number could not be opened", "agency_id", agencyID,
			"card_rec_no", cardRecNo, "key_id", sealed.KeyID, "error", err.Error())
		return "", CardVaultError(cardRecNo, sealed.KeyID)
	}
	return digits, nil
}

// CardVaultError is the answer for a stored card number that cannot be
// opened: a missing or wrong key, or a damaged row.
func CardVaultError(cardRecNo int64, keyID string) *Error {
	if len(keyID) > 40 {
		keyID = keyID[:40] + "..."
	}
	return Errorf(KindInternal, contract.CodeCardVault, MethodPerson,
		"Card vault error: card %d could not be opened (key id %q); the administrator must restore that key", cardRecNo, keyID)
}

// fillOldCardTypes gives old-side cards without a type the stored one, so
// that a changed number is always validated by the card's real type.
func fillOldCardTypes(old, current *Person) {
	types := map[int64]Opt[int]{}
	for _, l := range current.PersonCardLink {
		if l.Card != nil && l.CardRecNo.Valid {
			types[l.CardRecNo.Value] = l.Card.Type
		}
	}
	for _, l := range old.PersonCardLink {
		if l.Card != nil && !l.Card.Type.Present && l.CardRecNo.Valid {
			if t, ok := types[l.CardRecNo.Value]; ok {
				l.Card.Type = t
			}
		}
	}
}

// reconcileClearNumbers handles a client that loaded with decrypt=true: its
// old side holds clear numbers where the store holds masked ones. A clear
// number equal to the stored one stands for the stored masked form, on the
// old side and, unchanged, on the new side; so the stale check compares like
// with like and an unchanged number keeps its token.
func (s *PersonService) reconcileClearNumbers(agencyID int64, old, new *Person, current *Person) error {
	stored := map[int64]*Card{}
	for _, l := range current.PersonCardLink {
		if c := l.Card; c != nil && l.CardRecNo.Valid && c.Sealed != nil && c.Type.Valid && c.Type.Value == CardTypeCreditDebit {
			stored[l.CardRecNo.Value] = c
		}
	}
	if len(stored) == 0 {
		return nil
	}
	digitsOf := map[int64]string{}
	clearMatches := func(id int64, number Opt[string]) (bool, error) {
		cur, ok := stored[id]
		if !ok || !number.Valid || contract.IsMaskedCardNumber(number.Value) || number.Value == cur.CardNumber.Value {
			return false, nil
		}
		d, ok := digitsOf[id]
		if !ok {
			var err error
			if d, err = s.open(agencyID, id, cur.Sealed); err != nil {
				return false, err
			}
			digitsOf[id] = d
		}
		return NormalizeCardNumber(number.Value) == d, nil
	}
	// masked gives card id the stored masked number where it holds that
	// number in clear.
	masked := func(c *Card, id int64) error {
		ok, err := clearMatches(id, c.CardNumber)
		if ok {
			c.CardNumber = stored[id].CardNumber
		}
		return err
	}
	oldMasked := map[int64]bool{}
	for _, l := range old.PersonCardLink {
		if l.Card == nil || !l.CardRecNo.Valid || stored[l.CardRecNo.Value] == nil {
			continue
		}
		id := l.CardRecNo.Value
		if err := masked(l.Card, id); err != nil {
			return err
		}
		oldMasked[id] = l.Card.CardNumber.Equal(stored[id].CardNumber)
	}
	for _, l := range new.PersonCardLink {
		if l.Card != nil && l.CardRecNo.Valid && oldMasked[l.CardRecNo.Value] {
			if err := masked(l.Card, l.CardRecNo.Value); err != nil {
				return err
			}
		}
	}
	return nil
}
