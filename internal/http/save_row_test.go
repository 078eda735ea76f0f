package http_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// TestSaveOfPersonFieldsOnly: a save whose child lists are those of its
// old side decides on the person's row alone (the store does not read the
// children; on PostgreSQL its UPDATE goes with the COMMIT). A client sees
// what any save gives: a child row changed meanwhile by someone else stays
// and does not make the save stale, a stale field does (409), If-Match
// names the version a child change moved (412) and saves when it names
// the stored one, a birthday moves the due
// dates of birthday action items, conditional and whole-way saves of one
// old side at once let exactly one through, and a caller who loaded clear
// card numbers and sends them back unchanged keeps the cards' tokens.
func TestSaveOfPersonFieldsOnly(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		recNo := admin.create(kenJSON(r))
		path := fmt.Sprintf("/person/%d", recNo)
		firstTag := admin.do("GET", path, nil).Header.Get("ETag")
		a, b := admin.load(recNo), admin.load(recNo)

		nb := clone(t, b)
		phone := &nb.PersonCommunicationLink[0]
		phone.Communication.Value = wayfarer.Some("+1 555 0199")
		wantResult(t, admin.update(b, nb), 200, 0, "")
		na := clone(t, a)
		na.Remarks = wayfarer.Some("window seats now")
		wantResult(t, admin.update(a, na), 200, 0, "")
		got := admin.load(recNo)
		if got.Remarks.Value != "window seats now" || commValue(got, phone.CommunicationRecNo.Value) != "+1 555 0199" {
			t.Fatalf("remarks %v, phone %q", got.Remarks, commValue(got, phone.CommunicationRecNo.Value))
		}

		stale := clone(t, a)
		stale.Remarks = wayfarer.Some("aisle again")
		wantResult(t, admin.update(a, stale), 409, contract.CodeConcurrencyConflict, "person")
		if admin.load(recNo).Remarks.Value != "window seats now" {
			t.Fatal("a stale save wrote")
		}

		n := clone(t, got)
		n.MiddleName = wayfarer.Some("Q")
		wantResult(t, s.Do(t, "POST", "/person/refresh", dataset(got, n), append(admin.tok, "If-Match", firstTag)...),
			412, contract.CodePreconditionFailed, "person")
		if admin.load(recNo).MiddleName.Valid {
			t.Fatal("a save refused by If-Match wrote")
		}
		current := admin.do("GET", path, nil).Header.Get("ETag")
		saved := s.Do(t, "POST", "/person/refresh", dataset(got, n), append(admin.tok, "If-Match", `"other", `+current)...)
		if saved.Status != 200 || saved.Header.Get("ETag") == current || onePerson(t, saved).MiddleName.Value != "Q" {
			t.Fatalf("If-Match naming the stored version: %d, ETag %q after %q: %s", saved.Status, saved.Header.Get("ETag"), current, saved.Body)
		}

		// Birthday action items fall due again from the new birthday (the
		// test clock's day is 2026-11-21).
		old := admin.load(recNo)
		withItem := clone(t, old)
		withItem.PersonActionItemLink = append(withItem.PersonActionItemLink, wayfarer.ActionItemLink{
			PersonActionItem: &wayfarer.PersonActionItem{Description: wayfarer.Some("birthday call"),
				TriggerIndex: wayfarer.Some(wayfarer.TriggerBirthday), TriggerDaysOffset: wayfarer.Some(-1)}})
		wantResult(t, admin.update(old, withItem), 200, 0, "")
		if d := birthdayItemDate(t, admin, recNo); d != "2027-03-14T00:00:00" {
			t.Fatalf("due %q before the birthday moved", d)
		}
		old = admin.load(recNo)
		moved := clone(t, old)
		moved.BirthdayMonth, moved.BirthdayDay = wayfarer.Some(12), wayfarer.Some(24)
		wantResult(t, admin.update(old, moved), 200, 0, "")
		if d := birthdayItemDate(t, admin, recNo); d != "2026-12-23T00:00:00" {
			t.Fatalf("due %q after the birthday moved", d)
		}

		// Conditional and whole-way saves of the person at once, each
		// changing the remarks from the same old side, every other one a
		// child row too: exactly one wins, the others are told of it.
		old = admin.load(recNo)
		statuses := make([]int, 12)
		var wg sync.WaitGroup
		for i := range statuses {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n := clone(t, old)
				n.Remarks = wayfarer.Some(fmt.Sprintf("at once %d", i))
				if i%2 == 1 {
					n.PersonCommunicationLink[0].Communication.Description = wayfarer.Some(fmt.Sprintf("edited %d", i))
				}
				statuses[i] = admin.update(old, n).Status
			}()
		}
		wg.Wait()
		if won := slices.Index(statuses, 200); won < 0 || slices.Index(statuses[won+1:], 200) >= 0 ||
			len(slices.DeleteFunc(slices.Clone(statuses), func(st int) bool { return st == 200 || st == 409 })) != 0 {
			t.Fatalf("saves at once: %v", statuses)
		}

		clear := admin.load(recNo, "decrypt=true")
		n = clone(t, clear)
		n.Remarks = wayfarer.Some("clear numbers sent back")
		wantResult(t, admin.update(clear, n), 200, 0, "")
		after := admin.load(recNo)
		if before, now := cardByType(t, old, 1).Card.CardNumberToken, cardByType(t, after, 1).Card.CardNumberToken; now != before {
			t.Fatalf("card token %v became %v on a save that did not change the card", before, now)
		}
	})
}

func commValue(p *wayfarer.Person, recNo int64) string {
	for _, l := range p.PersonCommunicationLink {
		if l.CommunicationRecNo.Value == recNo {
			return l.Communication.Value.Value
		}
	}
	return ""
}

// birthdayItemDate is the due date of the person's birthday action item,
// as a search shows it.
func birthdayItemDate(t *testing.T, c personClient, recNo int64) string {
	t.Helper()
	resp := c.do("POST", "/personSearch", `{"includeCols":["recNo","actionItemDate","actionItemTriggerIndex"],"lastName":{"value":["Abler"],"compareCondition":1}}`)
	var rows []map[string]any
	if resp.Status != 200 || json.Unmarshal(resp.Body, &rows) != nil {
		t.Fatalf("search: %d %s", resp.Status, resp.Body)
	}
	var found []map[string]any
	for _, row := range rows {
		if row["recNo"] == float64(recNo) && row["actionItemTriggerIndex"] == float64(wayfarer.TriggerBirthday) {
			found = append(found, row)
		}
	}
	if len(found) != 1 {
		t.Fatalf("birthday items: %v", rows)
	}
	rows = found
	d, _ := rows[0]["actionItemDate"].(string)
	return d
}
