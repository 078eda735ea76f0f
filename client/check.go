package client

import (
	"errors"
	"fmt"
	"strconv"
)

// prepareSave checks a save against the card rules of contract §4.6 before
// anything is sent, and returns the newData to send: a copy of n in which
// new cards of an existing person carry its recNo and existing cards keep
// the token they were loaded with. old is nil for a create.
func prepareSave(old, n *Person) (*Person, error) {
	if n == nil {
		return nil, errors.New("client: no person to save")
	}
	if old != nil && old.decrypted {
		return nil, fmt.Errorf("%w: a person loaded with clear card numbers cannot be the base of a save; load it without decrypting", ErrCardRule)
	}
	var recNo int64
	switch {
	case old == nil && n.recNo != nil:
		return nil, fmt.Errorf("%w: a new person has no recNo (got %d); change an existing person with UpdatePerson", ErrIdentifierMismatch, *n.recNo)
	case old != nil && old.recNo == nil:
		return nil, fmt.Errorf("%w: the old person has no recNo; create a person with CreatePerson", ErrIdentifierMismatch)
	case old != nil:
		recNo = *old.recNo
		if n.recNo == nil || *n.recNo != recNo {
			return nil, fmt.Errorf("%w: recNo changed from %d to %s", ErrIdentifierMismatch, recNo, fmtID(n.recNo))
		}
	}
	out := n.Clone()

	loaded := map[int64]Card{}
	if old != nil {
		for _, l := range old.Cards {
			if l.Card.recNo != nil {
				loaded[*l.Card.recNo] = l.Card
			}
		}
	}
	seen := map[int64]bool{}
	for i := range out.Cards {
		l := &out.Cards[i]
		c := &l.Card
		path := fmt.Sprintf("personCardLink[%d]", i)
		switch {
		case l.IsNew():
			if l.personRecNo != nil && (old == nil || *l.personRecNo != recNo) {
				return nil, fmt.Errorf("%w: %s is a new card linked to person %d, not to this person", ErrIdentifierMismatch, path, *l.personRecNo)
			}
			if old != nil {
				l.personRecNo = &recNo
			}
			if c.typ < CardCreditDebit || c.typ > CardTravelDocument {
				return nil, fmt.Errorf("%w: %s.card.type: a new card needs a type (1 credit/debit, 2 loyalty, 3 travel document)", ErrCardRule, path)
			}
			if deref(c.number) == "" {
				return nil, fmt.Errorf("%w: %s.card.cardNumber: a new card needs a number", ErrCardRule, path)
			}
			if IsMaskedNumber(*c.number) {
				return nil, fmt.Errorf("%w: %s.card.cardNumber of a new card is masked; a loaded card is kept by keeping its link, not by adding it again", ErrMaskedNumber, path)
			}
			if c.token != nil {
				return nil, fmt.Errorf("%w: %s is a new card carrying a cardNumberToken: it looks like a loaded card added again; keep the loaded link instead", ErrIdentifierMismatch, path)
			}
		case l.cardRecNo == nil || c.recNo == nil || *l.cardRecNo != *c.recNo:
			return nil, fmt.Errorf("%w: %s.card_recNo (%s) and %s.card.recNo (%s) must name the same card; to replace a card, RemoveCard and AddCard",
				ErrIdentifierMismatch, path, fmtID(l.cardRecNo), path, fmtID(c.recNo))
		default:
			id := *c.recNo
			orig, ok := loaded[id]
			if !ok {
				return nil, fmt.Errorf("%w: %s: card %d is not a card of this person as loaded; new cards are added with AddCard", ErrIdentifierMismatch, path, id)
			}
			if seen[id] {
				return nil, fmt.Errorf("%w: %s: card %d is linked twice", ErrIdentifierMismatch, path, id)
			}
			seen[id] = true
			if l.personRecNo == nil || *l.personRecNo != recNo {
				return nil, fmt.Errorf("%w: %s.person_recNo (%s) is not this person (%d)", ErrIdentifierMismatch, path, fmtID(l.personRecNo), recNo)
			}
			if c.typ != orig.typ {
				return nil, fmt.Errorf("%w: %s.card.type: the type of an existing card never changes; remove the card and add a new one", ErrCardRule, path)
			}
			if deref(c.number) != deref(orig.number) && IsMaskedNumber(deref(c.number)) {
				return nil, fmt.Errorf("%w: %s.card.cardNumber was changed to a masked value", ErrMaskedNumber, path)
			}
			c.token = orig.token
		}
	}
	for i, l := range out.Communications {
		if (l.CommunicationRecNo == nil) != (l.Communication.RecNo == nil) ||
			(l.CommunicationRecNo != nil && *l.CommunicationRecNo != *l.Communication.RecNo) {
			return nil, fmt.Errorf("%w: personCommunicationLink[%d].communication_recNo (%s) and communication.recNo (%s) must be the same",
				ErrIdentifierMismatch, i, fmtID(l.CommunicationRecNo), fmtID(l.Communication.RecNo))
		}
	}
	for i, l := range out.ActionItems {
		if (l.ActionItemRecNo == nil) != (l.ActionItem.RecNo == nil) ||
			(l.ActionItemRecNo != nil && *l.ActionItemRecNo != *l.ActionItem.RecNo) {
			return nil, fmt.Errorf("%w: personActionItemLink[%d].actionItem_recNo (%s) and personActionItem.recNo (%s) must be the same",
				ErrIdentifierMismatch, i, fmtID(l.ActionItemRecNo), fmtID(l.ActionItem.RecNo))
		}
	}
	return out, nil
}

func fmtID(p *int64) string {
	if p == nil {
		return "null"
	}
	return strconv.FormatInt(*p, 10)
}
