package wayfarer

import (
	"fmt"
)

// ChangeOp is what a save does to one child row.
type ChangeOp int

const (
	OpInsert ChangeOp = iota + 1
	OpUpdate
	OpDelete // for cards: remove the link; the store deletes the card once no link holds it
)

func (op ChangeOp) String() string {
	switch op {
	case OpInsert:
		return "insert"
	case OpUpdate:
		return "update"
	case OpDelete:
		return "delete"
	}
	return "none"
}

// RowChange is one child row to insert, update or delete.
type RowChange[T any] struct {
	Op     ChangeOp
	RecNo  int64    // the existing row (update, delete)
	Path   string   // wire path of the row, for messages
	Old    *T       // old side (update, delete)
	New    *T       // new side (insert, update)
	Fields []string // wire names to write: changed fields (update), present ones (insert)
}

// CardChange is a RowChange of a card. Digits and Brand are set for a
// credit/debit number supplied new or changed; the service seals them and
// clears Digits before the change reaches the store.
type CardChange struct {
	RowChange[Card]
	Digits string
	Brand  CardBrand
}

// MarketingChange adds or removes one personMarketing row.
type MarketingChange struct {
	Op                    ChangeOp // OpInsert or OpDelete
	MarketingElementRecNo int64
	AffiliationRecNo      int64 // 0: no affiliation
	Path                  string
}

// PersonChanges is the difference between the old and new side of a save:
// only these fields and rows are written.
type PersonChanges struct {
	RecNo          int64 // 0 for a new person
	Old, New       *Person
	Fields         []string // person fields to write (values on New)
	Communications []RowChange[Communication]
	Cards          []CardChange
	Attachments    []RowChange[Attachment]
	Tags           []RowChange[PersonTag]
	ActionItems    []RowChange[PersonActionItem]
	Marketing      []MarketingChange
}

// Create reports whether the changes create a person.
func (ch *PersonChanges) Create() bool { return ch.Old == nil }

// Empty reports whether nothing is to be written.
func (ch *PersonChanges) Empty() bool { return len(ch.Fields) == 0 && ch.PersonOnly() }

// PersonOnly reports whether no child row is to be written: at most the
// person's own fields.
func (ch *PersonChanges) PersonOnly() bool {
	return len(ch.Communications) == 0 && len(ch.Cards) == 0 && len(ch.Attachments) == 0 &&
		len(ch.Tags) == 0 && len(ch.ActionItems) == 0 && len(ch.Marketing) == 0
}

// DiffPerson compares the old side of a save with the new one (old nil: a
// new person) and returns what to write. Only fields present on the new side
// count; child rows are matched by their identifiers; a child array absent
// from the new side leaves those children alone, an empty one removes every
// row the old side lists. Identifiers that disagree are a 400
// (contract.CodeIdentifierMismatch), and so are the card rules that need both sides
// (contract.CodeCardRule). Read-only fields are ignored.
func DiffPerson(old, new *Person) (*PersonChanges, error) {
	if new == nil {
		return nil, invalidValue("the person to save is missing")
	}
	ch := &PersonChanges{Old: old, New: new}
	create := old == nil
	if create {
		if new.RecNo.Valid {
			return nil, mismatch("recNo must be null for a new person; to change a person send an oldNewDataset")
		}
		ch.Fields = presentFields(new)
	} else {
		if !old.RecNo.Valid {
			return nil, mismatch("oldData recNo is required")
		}
		ch.RecNo = old.RecNo.Value
		if new.RecNo.Present && (!new.RecNo.Valid || new.RecNo.Value != ch.RecNo) {
			return nil, mismatch("newData recNo (%s) differs from oldData recNo (%d)", optString(new.RecNo), ch.RecNo)
		}
		ch.Fields = changedFields(old, new)
	}
	if old == nil {
		old = &Person{}
	}

	var err error
	if ch.Communications, err = diffChildren(commKind, ch.RecNo, create,
		commRefs(old.PersonCommunicationLink), commRefs(new.PersonCommunicationLink), new.PersonCommunicationLink != nil); err != nil {
		return nil, err
	}
	cards, err := diffChildren(cardKind, ch.RecNo, create,
		cardRefs(old.PersonCardLink), cardRefs(new.PersonCardLink), new.PersonCardLink != nil)
	if err != nil {
		return nil, err
	}
	for _, c := range cards {
		ch.Cards = append(ch.Cards, CardChange{RowChange: c})
	}
	if err := applyCardRules(ch); err != nil {
		return nil, err
	}
	if ch.Attachments, err = diffChildren(attachKind, ch.RecNo, create,
		attachRefs(old.PersonAttachmentLink), attachRefs(new.PersonAttachmentLink), new.PersonAttachmentLink != nil); err != nil {
		return nil, err
	}
	if ch.Tags, err = diffChildren(tagKind, ch.RecNo, create,
		tagRefs(old.PersonTag), tagRefs(new.PersonTag), new.PersonTag != nil); err != nil {
		return nil, err
	}
	if ch.ActionItems, err = diffChildren(actionKind, ch.RecNo, create,
		actionRefs(old.PersonActionItemLink), actionRefs(new.PersonActionItemLink), new.PersonActionItemLink != nil); err != nil {
		return nil, err
	}
	if ch.Marketing, err = diffMarketing(ch.RecNo, create, old.PersonMarketing, new.PersonMarketing); err != nil {
		return nil, err
	}
	return ch, nil
}

// childKind names the parts of one child table for messages.
type childKind struct {
	array  string // "personCardLink"
	linkID string // "card_recNo"
	row    string // "card"; "" when the element is the row itself
	// owner and ownerID name the record holding the rows ("activity",
	// "activity_recNo"); empty: the person's.
	owner, ownerID string
}

func (k childKind) ownerNames() (noun, id string) {
	if k.owner == "" {
		return "person", "person_recNo"
	}
	return k.owner, k.ownerID
}

var (
	commKind   = childKind{array: "personCommunicationLink", linkID: "communication_recNo", row: "communication"}
	cardKind   = childKind{array: "personCardLink", linkID: "card_recNo", row: "card"}
	attachKind = childKind{array: "personAttachmentLink", linkID: "attachment_recNo", row: "attachment"}
	tagKind    = childKind{array: "personTag", linkID: "recNo", row: ""}
	actionKind = childKind{array: "personActionItemLink", linkID: "actionItem_recNo", row: "personActionItem"}
)

// childRef is one element of a child array, reduced to what matching needs.
type childRef[T any] struct {
	array       string // the element's array and index: its path, built
	index       int    // only when an error or a change names it
	personRecNo Opt[int64]
	linkID      Opt[int64]
	row         *T
	rowID       Opt[int64]
}

// path is the element's wire path.
func (r childRef[T]) path() string { return indexPath(r.array, r.index) }

func (r childRef[T]) rowPath(k childKind) string { return joinPath(r.path(), k.row) }

func commRefs(ls []CommunicationLink) []childRef[Communication] {
	out := make([]childRef[Communication], len(ls))
	for i := range ls {
		l := &ls[i]
		out[i] = childRef[Communication]{array: commKind.array, index: i, personRecNo: l.PersonRecNo, linkID: l.CommunicationRecNo, row: l.Communication}
		if l.Communication != nil {
			out[i].rowID = l.Communication.RecNo
		}
	}
	return out
}

func cardRefs(ls []CardLink) []childRef[Card] {
	out := make([]childRef[Card], len(ls))
	for i := range ls {
		l := &ls[i]
		out[i] = childRef[Card]{array: cardKind.array, index: i, personRecNo: l.PersonRecNo, linkID: l.CardRecNo, row: l.Card}
		if l.Card != nil {
			out[i].rowID = l.Card.RecNo
		}
	}
	return out
}

func attachRefs(ls []AttachmentLink) []childRef[Attachment] {
	out := make([]childRef[Attachment], len(ls))
	for i := range ls {
		l := &ls[i]
		out[i] = childRef[Attachment]{array: attachKind.array, index: i, personRecNo: l.PersonRecNo, linkID: l.AttachmentRecNo, row: l.Attachment}
		if l.Attachment != nil {
			out[i].rowID = l.Attachment.RecNo
		}
	}
	return out
}

func tagRefs(ts []PersonTag) []childRef[PersonTag] {
	out := make([]childRef[PersonTag], len(ts))
	for i := range ts {
		t := &ts[i]
		out[i] = childRef[PersonTag]{array: tagKind.array, index: i, personRecNo: t.PersonRecNo, linkID: t.RecNo, row: t, rowID: t.RecNo}
	}
	return out
}

func actionRefs(ls []ActionItemLink) []childRef[PersonActionItem] {
	out := make([]childRef[PersonActionItem], len(ls))
	for i := range ls {
		l := &ls[i]
		out[i] = childRef[PersonActionItem]{array: actionKind.array, index: i, personRecNo: l.PersonRecNo, linkID: l.ActionItemRecNo, row: l.PersonActionItem}
		if l.PersonActionItem != nil {
			out[i].rowID = l.PersonActionItem.RecNo
		}
	}
	return out
}

// diffChildren matches old and new rows of one child table by identifier.
func diffChildren[T any](k childKind, personRecNo int64, create bool, olds, news []childRef[T], newPresent bool) ([]RowChange[T], error) {
	oldByID := make(map[int64]childRef[T], len(olds))
	for _, o := range olds {
		p := func() string { return "oldData " + o.path() }
		if !o.linkID.Valid {
			return nil, mismatch("%s.%s is null: oldData must hold the rows as loaded", p(), k.linkID)
		}
		if k.row != "" && o.row != nil && o.rowID.Valid && o.rowID.Value != o.linkID.Value {
			return nil, mismatch("%s.%s (%d) and %s.recNo (%d) differ", p(), k.linkID, o.linkID.Value, o.rowPath(k), o.rowID.Value)
		}
		if o.personRecNo.Valid && o.personRecNo.Value != personRecNo {
			noun, id := k.ownerNames()
			return nil, mismatch("%s.%s (%d) is not this %s (%d)", p(), id, o.personRecNo.Value, noun, personRecNo)
		}
		if _, dup := oldByID[o.linkID.Value]; dup {
			return nil, mismatch("%s.%s %d appears twice", p(), k.linkID, o.linkID.Value)
		}
		oldByID[o.linkID.Value] = o
	}

	var out []RowChange[T]
	seen := make(map[int64]bool, len(news))
	for _, n := range news {
		if n.personRecNo.Valid {
			if create {
				noun, id := k.ownerNames()
				return nil, mismatch("%s.%s must be null for a new %s", n.path(), id, noun)
			}
			if n.personRecNo.Value != personRecNo {
				noun, id := k.ownerNames()
				return nil, mismatch("%s.%s (%d) is not this %s (%d)", n.path(), id, n.personRecNo.Value, noun, personRecNo)
			}
		}
		if !n.linkID.Valid && (n.row == nil || !n.rowID.Valid) {
			if n.row == nil {
				return nil, invalidValue("%s.%s is required for a new row", n.path(), k.row)
			}
			out = append(out, RowChange[T]{Op: OpInsert, Path: n.rowPath(k), New: n.row, Fields: presentFields(n.row)})
			continue
		}
		if create {
			noun, _ := k.ownerNames()
			return nil, mismatch("%s: a new %s cannot reference an existing %s; %s and its recNo must be null", n.path(), noun, rowNoun(k), k.linkID)
		}
		if !n.linkID.Valid || (k.row != "" && n.row != nil && (!n.rowID.Valid || n.rowID.Value != n.linkID.Value)) {
			return nil, mismatch("%s.%s (%s) and %s.recNo (%s) must both identify the same %s",
				n.path(), k.linkID, optString(n.linkID), n.rowPath(k), optString(n.rowID), rowNoun(k))
		}
		id := n.linkID.Value
		if seen[id] {
			return nil, mismatch("%s.%s %d appears twice", n.path(), k.linkID, id)
		}
		o, ok := oldByID[id]
		if !ok {
			noun, _ := k.ownerNames()
			return nil, mismatch("%s.%s %d is not a %s of this %s in oldData", n.path(), k.linkID, id, rowNoun(k), noun)
		}
		seen[id] = true
		if n.row == nil {
			continue // the link alone: kept as it is
		}
		if fields := changedFields(o.row, n.row); len(fields) > 0 {
			out = append(out, RowChange[T]{Op: OpUpdate, RecNo: id, Path: n.rowPath(k), Old: o.row, New: n.row, Fields: fields})
		}
	}
	if newPresent {
		for _, o := range olds {
			if !seen[o.linkID.Value] {
				out = append(out, RowChange[T]{Op: OpDelete, RecNo: o.linkID.Value, Path: "oldData " + o.path(), Old: o.row})
			}
		}
	}
	return out, nil
}

func rowNoun(k childKind) string {
	switch k.array {
	case commKind.array:
		return "communication"
	case cardKind.array:
		return "card"
	case attachKind.array:
		return "attachment"
	case tagKind.array, activityTagKind.array:
		return "tag"
	}
	return "action item"
}

type marketingKey struct{ element, affiliation int64 }

func marketingKeys(ms []PersonMarketing, side string, personRecNo int64, create bool) ([]marketingKey, error) {
	out := make([]marketingKey, 0, len(ms))
	for i, m := range ms {
		p := side + indexPath("personMarketing", i)
		if m.PersonRecNo.Valid && (create || m.PersonRecNo.Value != personRecNo) {
			return nil, mismatch("%s.person_recNo (%d) is not this person", p, m.PersonRecNo.Value)
		}
		if !m.MarketingElementRecNo.Valid {
			return nil, invalidValue("%s.marketingElement_recNo is required", p)
		}
		out = append(out, marketingKey{m.MarketingElementRecNo.Value, m.AffiliationRecNo.Value})
	}
	return out, nil
}

// diffMarketing matches marketing rows by (marketingElement_recNo,
// affiliation_recNo); they have no other fields, so a row is added or removed.
func diffMarketing(personRecNo int64, create bool, olds, news []PersonMarketing) ([]MarketingChange, error) {
	oldKeys, err := marketingKeys(olds, "oldData ", personRecNo, create)
	if err != nil {
		return nil, err
	}
	newKeys, err := marketingKeys(news, "", personRecNo, create)
	if err != nil {
		return nil, err
	}
	inOld := map[marketingKey]bool{}
	for _, k := range oldKeys {
		inOld[k] = true
	}
	inNew := map[marketingKey]bool{}
	var out []MarketingChange
	for i, k := range newKeys {
		if inNew[k] {
			continue
		}
		inNew[k] = true
		if !inOld[k] {
			out = append(out, MarketingChange{Op: OpInsert, MarketingElementRecNo: k.element, AffiliationRecNo: k.affiliation, Path: indexPath("personMarketing", i)})
		}
	}
	if news != nil {
		done := map[marketingKey]bool{}
		for i, k := range oldKeys {
			if !inNew[k] && !done[k] {
				done[k] = true
				out = append(out, MarketingChange{Op: OpDelete, MarketingElementRecNo: k.element, AffiliationRecNo: k.affiliation, Path: "oldData " + indexPath("personMarketing", i)})
			}
		}
	}
	return out, nil
}

func optString[T comparable](o Opt[T]) string {
	switch {
	case !o.Present:
		return "absent"
	case !o.Valid:
		return "null"
	}
	return fmt.Sprint(o.Value)
}
