package wayfarer

import "github.com/wayfarerhq/wayfarer/client/contract"

// ErrConflictMessage is the description of a refused stale save.
const ErrConflictMessage = "person was changed by someone else since it was loaded; reload and apply your change again"

func conflict() *Error {
	return Errorf(KindConflict, contract.CodeConcurrencyConflict, MethodPerson, ErrConflictMessage)
}

// cardIdentity is checked on every edited card besides its changed fields:
// an edit made to a card whose number was replaced meanwhile is stale.
var cardIdentity = []string{"type", "cardNumber", "cardNumberToken"}

// CheckStale is the optimistic concurrency check. current is the person as
// stored now (loaded in the saving transaction), old the save's old side.
// The save is stale (409, contract.CodeConcurrencyConflict) if the stored value of
// anything it changes differs from what old says: a changed person field, a
// changed field of an edited child row, any field of a deleted row; or if a
// row it edits or deletes no longer exists. Fields absent from old are not
// checked. Rows and fields the save does not touch may have changed freely.
func CheckStale(current, old *Person, ch *PersonChanges) error {
	if old == nil || ch.Create() {
		return nil
	}
	if current == nil {
		return conflict()
	}
	for _, f := range ch.Fields {
		if staleField(old, current, f) {
			return conflict()
		}
	}
	comms := map[int64]*Communication{}
	for _, l := range current.PersonCommunicationLink {
		if l.CommunicationRecNo.Valid {
			comms[l.CommunicationRecNo.Value] = l.Communication
		}
	}
	if staleRows(ch.Communications, comms, nil) {
		return conflict()
	}
	cards := map[int64]*Card{}
	for _, l := range current.PersonCardLink {
		if l.CardRecNo.Valid {
			cards[l.CardRecNo.Value] = l.Card
		}
	}
	rows := make([]RowChange[Card], len(ch.Cards))
	for i, c := range ch.Cards {
		rows[i] = c.RowChange
	}
	if staleRows(rows, cards, cardIdentity) {
		return conflict()
	}
	attachments := map[int64]*Attachment{}
	for _, l := range current.PersonAttachmentLink {
		if l.AttachmentRecNo.Valid {
			attachments[l.AttachmentRecNo.Value] = l.Attachment
		}
	}
	if staleRows(ch.Attachments, attachments, nil) {
		return conflict()
	}
	tags := map[int64]*PersonTag{}
	for i := range current.PersonTag {
		if t := &current.PersonTag[i]; t.RecNo.Valid {
			tags[t.RecNo.Value] = t
		}
	}
	if staleRows(ch.Tags, tags, nil) {
		return conflict()
	}
	actions := map[int64]*PersonActionItem{}
	for _, l := range current.PersonActionItemLink {
		if l.ActionItemRecNo.Valid {
			actions[l.ActionItemRecNo.Value] = l.PersonActionItem
		}
	}
	if staleRows(ch.ActionItems, actions, nil) {
		return conflict()
	}
	marketing := map[marketingKey]bool{}
	for _, m := range current.PersonMarketing {
		marketing[marketingKey{m.MarketingElementRecNo.Value, m.AffiliationRecNo.Value}] = true
	}
	for _, m := range ch.Marketing {
		if m.Op == OpDelete && !marketing[marketingKey{m.MarketingElementRecNo, m.AffiliationRecNo}] {
			return conflict()
		}
	}
	return nil
}

// staleRows checks the edited and deleted rows against the stored ones.
// always names fields checked on every edit besides the changed ones.
func staleRows[T any](changes []RowChange[T], current map[int64]*T, always []string) bool {
	for _, c := range changes {
		if c.Op == OpInsert {
			continue
		}
		cur, ok := current[c.RecNo]
		if !ok {
			return true
		}
		var fields []string
		if c.Op == OpDelete {
			fields = dataFieldNames[T]()
		} else {
			fields = append(append(fields, c.Fields...), always...)
		}
		for _, f := range fields {
			if staleField(c.Old, cur, f) {
				return true
			}
		}
	}
	return false
}

func dataFieldNames[T any]() []string {
	var out []string
	for _, f := range fieldsOf(structValue[T](nil).Type()) {
		if f.data() {
			out = append(out, f.name)
		}
	}
	return out
}
