package wayfarer

import "time"

// Action items of a person: who completed one (server-set) and when one
// falls due. Moved from personservice.go unchanged.

// completedByField is the wire name of the server-set completedBy_appUserRecNo.
const completedByField = "completedBy_appUserRecNo"

// ignoreCompletedBy drops completedBy_appUserRecNo from every action item of
// one side of a save (a copy): the server sets it (StampCompletedBy), so a
// client's value, on either side, is never written, compared or checked for
// staleness, like the read-only appUserId.
func ignoreCompletedBy(p *Person) {
	for _, l := range p.PersonActionItemLink {
		if l.PersonActionItem != nil {
			l.PersonActionItem.CompletedByAppUserRecNo = Opt[int64]{}
		}
	}
}

// StampCompletedBy records who completed an action item, on the changes of
// a save by app user userID (after ignoreCompletedBy, CheckStale):
//
//   - a new item saved with a completed value, or an existing one whose
//     completed goes from null (as stored) to a value: completedBy = userID;
//   - completed cleared: completedBy cleared too;
//   - completed moved from one value to another: completedBy is kept (the
//     item was already completed, by whoever the store records);
//   - completed not changed: completedBy is not written.
//
// current is the person as stored in the saving transaction (nil for a
// create); an edited item's stored completed decides whether it was open.
func StampCompletedBy(ch *PersonChanges, current *Person, userID int64) {
	completer := Some(userID)
	if userID == 0 { // a host operator (docs/operators.md): no app user completed it
		completer = Null[int64]()
	}
	stored := map[int64]*PersonActionItem{}
	if current != nil {
		for _, l := range current.PersonActionItemLink {
			if l.ActionItemRecNo.Valid && l.PersonActionItem != nil {
				stored[l.ActionItemRecNo.Value] = l.PersonActionItem
			}
		}
	}
	for i := range ch.ActionItems {
		c := &ch.ActionItems[i]
		if c.New == nil {
			continue
		}
		var by Opt[int64]
		switch c.Op {
		case OpInsert:
			if !c.New.Completed.Valid {
				continue
			}
			by = completer
		case OpUpdate:
			if !hasField(c.Fields, "completed") {
				continue
			}
			if !c.New.Completed.Valid {
				by = Null[int64]()
				break
			}
			was := c.Old
			if s, ok := stored[c.RecNo]; ok {
				was = s
			}
			if was != nil && was.Completed.Valid {
				continue
			}
			by = completer
		default:
			continue
		}
		c.New.CompletedByAppUserRecNo = by
		if !hasField(c.Fields, completedByField) {
			c.Fields = append(c.Fields, completedByField)
		}
	}
}

// ActionItemDate is the day an action item falls due: the fixed date
// (FixedDate), the person's creation day (CreateDate), or the person's next
// birthday on or after today (Birthday), each moved by triggerDaysOffset.
// It is unknown (false) when the trigger or the date it needs is missing.
func ActionItemDate(a *PersonActionItem, birthdayMonth, birthdayDay Opt[int], created, today Date) (Date, bool) {
	if a == nil || !a.TriggerIndex.Valid {
		return Date{}, false
	}
	var base Date
	switch a.TriggerIndex.Value {
	case TriggerFixedDate:
		if !a.TriggerFixedDate.Valid {
			return Date{}, false
		}
		base = a.TriggerFixedDate.Value
	case TriggerCreateDate:
		if created.IsZero() {
			return Date{}, false
		}
		base = created
	case TriggerBirthday:
		if !birthdayMonth.Valid || !birthdayDay.Valid {
			return Date{}, false
		}
		// Normalizing Feb 29 of a common year gives Mar 1.
		base = DateOf(time.Date(today.Year, time.Month(birthdayMonth.Value), birthdayDay.Value, 0, 0, 0, 0, time.UTC))
		if base.Time().Before(today.Time()) {
			base = DateOf(time.Date(today.Year+1, time.Month(birthdayMonth.Value), birthdayDay.Value, 0, 0, 0, 0, time.UTC))
		}
	default:
		return Date{}, false
	}
	return base.AddDays(a.TriggerDaysOffset.Value), true
}
