package wayfarer

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// record is one record of a person save with its wire path: the person
// itself or a row of a child table.
type record struct {
	path  string
	value any // *Person, *Communication, *Card, *Attachment, *PersonTag, *PersonActionItem, *PersonMarketing
	isNew bool
}

// records lists the person and every child row present on p.
func records(p *Person) []record {
	out := make([]record, 1, 1+len(p.PersonCommunicationLink)+len(p.PersonCardLink)+len(p.PersonAttachmentLink)+
		len(p.PersonTag)+len(p.PersonActionItemLink)+len(p.PersonMarketing))
	out[0] = record{path: "", value: p, isNew: !p.RecNo.Valid}
	for i := range p.PersonCommunicationLink {
		l := &p.PersonCommunicationLink[i]
		if l.Communication != nil {
			out = append(out, record{"personCommunicationLink[" + strconv.Itoa(i) + "].communication", l.Communication,
				!l.CommunicationRecNo.Valid && !l.Communication.RecNo.Valid})
		}
	}
	for i := range p.PersonCardLink {
		l := &p.PersonCardLink[i]
		if l.Card != nil {
			out = append(out, record{"personCardLink[" + strconv.Itoa(i) + "].card", l.Card, !l.CardRecNo.Valid && !l.Card.RecNo.Valid})
		}
	}
	for i := range p.PersonAttachmentLink {
		l := &p.PersonAttachmentLink[i]
		if l.Attachment != nil {
			out = append(out, record{"personAttachmentLink[" + strconv.Itoa(i) + "].attachment", l.Attachment,
				!l.AttachmentRecNo.Valid && !l.Attachment.RecNo.Valid})
		}
	}
	for i := range p.PersonTag {
		t := &p.PersonTag[i]
		out = append(out, record{indexPath("personTag", i), t, !t.RecNo.Valid})
	}
	for i := range p.PersonActionItemLink {
		l := &p.PersonActionItemLink[i]
		if l.PersonActionItem != nil {
			out = append(out, record{"personActionItemLink[" + strconv.Itoa(i) + "].personActionItem", l.PersonActionItem,
				!l.ActionItemRecNo.Valid && !l.PersonActionItem.RecNo.Valid})
		}
	}
	for i := range p.PersonMarketing {
		out = append(out, record{indexPath("personMarketing", i), &p.PersonMarketing[i], true})
	}
	return out
}

// ValidatePerson checks the new side of a save on its own: no card number in
// any text field, sizes, ranges, and the fields a new record requires. create
// is true for a new person. Read-only fields are not checked: a save ignores
// them. Rules that need the old side or stored data are in DiffPerson,
// CheckStale and the store.
func ValidatePerson(p *Person, create bool) error {
	recs := records(p)
	if err := validateTexts(recs); err != nil {
		return err
	}
	for _, r := range recs {
		var err error
		switch v := r.value.(type) {
		case *Person:
			err = validatePersonFields(v, create)
		case *Communication:
			err = validateCommunication(v, r.path, r.isNew)
		case *Card:
			err = validateCard(v, r.path, r.isNew)
		case *Attachment:
			err = validateAttachment(v, r.path, r.isNew)
		case *PersonTag:
			err = requiredID(v.TagRecNo, r.path, "tag_recNo", r.isNew)
		case *PersonActionItem:
			err = validateActionItem(v, r.path)
		case *PersonMarketing:
			err = requiredID(v.MarketingElementRecNo, r.path, "marketingElement_recNo", true)
		}
		if err != nil {
			return err
		}
	}
	// A link without its nested record cannot create one.
	for i, l := range p.PersonCommunicationLink {
		if l.Communication == nil && !l.CommunicationRecNo.Valid {
			return invalidValue("%s.communication is required for a new communication", indexPath("personCommunicationLink", i))
		}
	}
	for i, l := range p.PersonCardLink {
		if l.Card == nil && !l.CardRecNo.Valid {
			return invalidValue("%s.card is required for a new card", indexPath("personCardLink", i))
		}
	}
	for i, l := range p.PersonAttachmentLink {
		if l.Attachment == nil && !l.AttachmentRecNo.Valid {
			return invalidValue("%s.attachment is required for a new attachment", indexPath("personAttachmentLink", i))
		}
	}
	for i, l := range p.PersonActionItemLink {
		if l.PersonActionItem == nil && !l.ActionItemRecNo.Valid {
			return invalidValue("%s.personActionItem is required for a new action item", indexPath("personActionItemLink", i))
		}
	}
	return nil
}

// validateTexts applies the text rules to every string field of the
// records: no card number in text (the rule whose breach matters most,
// checked first), valid text, and the sizes of the max tags.
func validateTexts(recs []record) error {
	// Listed once, in one slice sized for a typical person's string
	// fields, which then stays on the stack: listed per record into slices
	// of their own, the allocations took two thirds of the validation
	// (BenchmarkValidateAndDiffPerson: 3.9 -> 1.4 µs).
	all := make([]stringField, 0, 48)
	// Card numbers in text first: it is the rule whose breach matters most.
	for _, r := range recs {
		from := len(all)
		all = appendStringFields(all, r.value, r.path)
		for _, f := range all[from:] {
			if f.info.ro || f.info.number || f.info.input {
				continue
			}
			if containsCardNumberIn(r.value, f) {
				return cardRuleError("card numbers must not be written into text fields (field %s)", f.path())
			}
		}
	}
	for _, f := range all {
		if f.info.ro || f.info.input {
			continue
		}
		if err := validText(f); err != nil {
			return err
		}
		if f.info.max > 0 && utf8.RuneCountInString(f.value) > f.info.max {
			return invalidValue("%s is longer than %d", f.path(), f.info.max)
		}
	}
	return nil
}

// validText applies the text rules of request bodies to a decoded field,
// for persons that reach the service without a request body (built in Go
// by tools, demo data or tests): valid UTF-8, and no control characters
// other than tab, line feed and carriage return. From a request body these
// are refused earlier, by the decoder (internal/jsoncodec), with the same
// result codes as here except that invalid UTF-8 there is a 406.
func validText(f stringField) error {
	if !utf8.ValidString(f.value) {
		return invalidValue("%s is not valid UTF-8", f.path())
	}
	if i := strings.IndexFunc(f.value, isControlText); i >= 0 {
		return invalidValue("%s must not contain a control character (U+%04X); of the control characters only tab, line feed and carriage return are allowed",
			f.path(), f.value[i])
	}
	return nil
}

func validatePersonFields(p *Person, create bool) error {
	if err := enumField(p.ActiveStatus, "", "activeStatus", 0, 2, create, true, "Inactive 0, Active 1, Pending 2"); err != nil {
		return err
	}
	if field, msg := validBirthday(p.BirthdayDay, p.BirthdayMonth, p.BirthdayYear); field != "" {
		return invalidValue("%s %s", field, msg)
	}
	return nil
}

func validateCommunication(c *Communication, path string, isNew bool) error {
	if err := enumField(c.Type, path, "type", 1, 4, isNew, true, "Phone 1, Email 2, SocialMedia 3, Web 4"); err != nil {
		return err
	}
	return enumField(c.ContactOption, path, "contactOption", 1, 2, false, false, "Billing 1, CustomerService 2")
}

func validateCard(c *Card, path string, isNew bool) error {
	if err := enumField(c.Type, path, "type", 1, 3, isNew, false, "CreditDebit 1, Loyalty 2, TravelDocument 3"); err != nil {
		return err
	}
	if c.CVVCode.Valid && c.CVVCode.Value != "" {
		return cardRuleError("cvvCode must not be sent: it is never stored (%s)", joinPath(path, "cvvCode"))
	}
	if isNew && !c.CardNumber.Valid || c.CardNumber.Present && (!c.CardNumber.Valid || c.CardNumber.Value == "") {
		return invalidValue("%s is required", joinPath(path, "cardNumber"))
	}
	return nil
}

func validateActionItem(a *PersonActionItem, path string) error {
	if err := enumField(a.TriggerIndex, path, "triggerIndex", 1, 3, false, false, "FixedDate 1, CreateDate 2, Birthday 3"); err != nil {
		return err
	}
	if a.Type.Valid && (a.Type.Value < -32768 || a.Type.Value > 32767) {
		return invalidValue("%s must be a whole number from -32768 to 32767", joinPath(path, "type"))
	}
	if a.DocumentTemplate.Valid && a.DocumentTemplate.Value <= 0 {
		return invalidValue("%s must be a record number (1 or more)", joinPath(path, "documentTemplate_recNo"))
	}
	if a.TriggerDaysOffset.Valid && (a.TriggerDaysOffset.Value < -36500 || a.TriggerDaysOffset.Value > 36500) {
		return invalidValue("%s must be -36500 to 36500", joinPath(path, "triggerDaysOffset"))
	}
	if a.TriggerIndex.Valid && a.TriggerIndex.Value == TriggerFixedDate && a.TriggerFixedDate.Present && !a.TriggerFixedDate.Valid {
		return invalidValue("%s is required when triggerIndex is FixedDate (1)", joinPath(path, "triggerFixedDate"))
	}
	return nil
}

// enumField checks a small integer field against its range. required: the
// field must hold a value; notNull: when present it must not be null.
// enumField checks field name of the record at base (its path built only
// for an error).
func enumField(o Opt[int], base, name string, lo, hi int, required, notNull bool, values string) error {
	if (required || notNull && o.Present) && !o.Valid {
		return invalidValue("%s is required (%s)", joinPath(base, name), values)
	}
	if o.Valid && (o.Value < lo || o.Value > hi) {
		return invalidValue("%s must be one of %s", joinPath(base, name), values)
	}
	return nil
}

func requiredID(o Opt[int64], base, name string, required bool) error {
	if required && !o.Valid {
		return invalidValue("%s is required", joinPath(base, name))
	}
	return nil
}

func invalidValue(format string, args ...any) *Error {
	return Errorf(KindInvalid, contract.CodeInvalidValue, MethodPerson, format, args...)
}

func cardRuleError(format string, args ...any) *Error {
	return Errorf(KindInvalid, contract.CodeCardRule, MethodPerson, format, args...)
}

func mismatch(format string, args ...any) *Error {
	return Errorf(KindInvalid, contract.CodeIdentifierMismatch, MethodPerson, format, args...)
}

// containsCardNumberIn applies the card-number-in-text rule to one field.
// Phone numbers get the phone variant, which knows an international number
// written without its "+": the value of a phone or social media
// communication (WhatsApp numbers, wa.me links) and the emergency contact's
// phone.
func containsCardNumberIn(rec any, f stringField) bool {
	switch r := rec.(type) {
	case *Communication:
		if f.info.name == "value" && r.Type.Valid && (r.Type.Value == CommPhone || r.Type.Value == CommSocialMedia) {
			return ContainsCardNumberInPhone(f.value)
		}
	case *Person:
		if f.info.name == "emergencyContactPhone" {
			return ContainsCardNumberInPhone(f.value)
		}
	}
	return ContainsCardNumber(f.value)
}

// isControlText reports whether r is a control character refused in text:
// U+0000 to U+001F other than tab, line feed and carriage return, and U+007F.
func isControlText(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f
}
