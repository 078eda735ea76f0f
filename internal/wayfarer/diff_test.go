package wayfarer

import (
	"reflect"
	"slices"
	"testing"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

const loadedJSON = `{"recNo":10,"firstName":"Ken","lastName":"Abler","activeStatus":1,"branch_recNo":1,"branchName":"Main",
 "advisorProfile_recNo":2,"advisorName":"Ann","age":44,"remarks":null,
 "personCommunicationLink":[{"person_recNo":10,"communication_recNo":100,"communication":{"recNo":100,"type":1,"value":"555-1234","isPrimary":true}}],
 "personCardLink":[
   {"person_recNo":10,"card_recNo":200,"card":{"recNo":200,"type":1,"cardNumber":"VI 41-XXXX-1111","cardNumberToken":"tok_aaaa","expirationDate":"2027-01-31","nameOnCard":"KEN ABLER","description":null}},
   {"person_recNo":10,"card_recNo":201,"card":{"recNo":201,"type":2,"cardNumber":"AA12345","description":"miles"}}],
 "personTag":[{"recNo":300,"person_recNo":10,"tag_recNo":1,"name":"VIP","value":"gold"}],
 "personActionItemLink":[{"person_recNo":10,"actionItem_recNo":400,"personActionItem":{"recNo":400,"description":"call","triggerIndex":1,"triggerFixedDate":"2024-05-01","appUserId":"agent"}}],
 "personMarketing":[{"person_recNo":10,"marketingElement_recNo":5,"affiliation_recNo":null}]}`

func loaded(t *testing.T) *Person { return mustPerson(t, loadedJSON) }

type cardOp struct {
	op     ChangeOp
	recNo  int64
	fields []string
	digits string
}

func cardOps(ch *PersonChanges) []cardOp {
	var out []cardOp
	for _, c := range ch.Cards {
		out = append(out, cardOp{c.Op, c.RecNo, c.Fields, c.Digits})
	}
	return out
}

// TestDiffCardLinkTable covers every row of the contract §3 card-link table
// and the identifier rules around it.
func TestDiffCardLinkTable(t *testing.T) {
	cases := []struct {
		name   string
		edit   func(n *Person)
		want   []cardOp
		code   int
		substr string
	}{
		{name: "§3 row 1: link in oldData absent from newData is deleted",
			edit: func(n *Person) { n.PersonCardLink = n.PersonCardLink[:1] },
			want: []cardOp{{OpDelete, 201, nil, ""}}},
		{name: "§3 row 2: empty personCardLink removes every old link",
			edit: func(n *Person) { n.PersonCardLink = []CardLink{} },
			want: []cardOp{{OpDelete, 200, nil, ""}, {OpDelete, 201, nil, ""}}},
		{name: "§3 row 3: new link with null card ids and existing person_recNo adds a card",
			edit: func(n *Person) {
				n.PersonCardLink = append(n.PersonCardLink, CardLink{PersonRecNo: Some[int64](10), CardRecNo: Null[int64](),
					Card: &Card{RecNo: Null[int64](), Type: Some(2), CardNumber: Some("LOY-1")}})
			},
			want: []cardOp{{OpInsert, 0, []string{"type", "cardNumber"}, ""}}},
		{name: "§3 row 3: new credit card is validated",
			edit: func(n *Person) {
				n.PersonCardLink = append(n.PersonCardLink, CardLink{PersonRecNo: Some[int64](10), CardRecNo: Null[int64](),
					Card: &Card{RecNo: Null[int64](), Type: Some(1), CardNumber: Some("5555 5555 5555 4444"), CardNumberToken: Some("mine")}})
			},
			want: []cardOp{{OpInsert, 0, []string{"type", "cardNumber"}, testMastercard}}},
		{name: "§3 row 3: new link with null person_recNo is this person's",
			edit: func(n *Person) {
				n.PersonCardLink = append(n.PersonCardLink, CardLink{Card: &Card{Type: Some(3), CardNumber: Some("P123")}})
			},
			want: []cardOp{{OpInsert, 0, []string{"type", "cardNumber"}, ""}}},
		{name: "§3 row 4: all three ids preserved, changed card fields edit the card",
			edit: func(n *Person) {
				n.PersonCardLink[0].Card.ExpirationDate = Some(Date{2029, 12, 31})
				n.PersonCardLink[0].Card.NameOnCard = Some("K ABLER")
			},
			want: []cardOp{{OpUpdate, 200, []string{"expirationDate", "nameOnCard"}, ""}}},
		{name: "unchanged links, no card changes",
			edit: func(n *Person) {}, want: nil},
		{name: "absent personCardLink leaves cards alone",
			edit: func(n *Person) { n.PersonCardLink = nil }, want: nil},
		{name: "link without card object keeps the card",
			edit: func(n *Person) { n.PersonCardLink[1].Card = nil }, want: nil},
		{name: "a client's token is never written",
			edit: func(n *Person) { n.PersonCardLink[0].Card.CardNumberToken = Some("tok_other") }, want: nil},
		{name: "changed credit number is validated and sealed",
			edit: func(n *Person) { n.PersonCardLink[0].Card.CardNumber = Some(testVisa2) },
			want: []cardOp{{OpUpdate, 200, []string{"cardNumber"}, testVisa2}}},
		{name: "changed loyalty number is stored as given",
			edit: func(n *Person) { n.PersonCardLink[1].Card.CardNumber = Some("LH 9922 4411 7") },
			want: []cardOp{{OpUpdate, 201, []string{"cardNumber"}, ""}}},
		{name: "a payment card number as a loyalty number", code: contract.CodeCardRule, substr: "personCardLink[1].card.cardNumber looks like a credit/debit card number",
			edit: func(n *Person) { n.PersonCardLink[1].Card.CardNumber = Some("4111 1111 1111 1111") }},
		{name: "card_recNo differs from card.recNo", code: contract.CodeIdentifierMismatch, substr: "personCardLink[0].card_recNo (200) and personCardLink[0].card.recNo (201)",
			edit: func(n *Person) { n.PersonCardLink[0].Card.RecNo = Some[int64](201) }},
		{name: "card.recNo null on existing link", code: contract.CodeIdentifierMismatch, substr: "must both identify the same card",
			edit: func(n *Person) { n.PersonCardLink[0].Card.RecNo = Null[int64]() }},
		{name: "card_recNo null with card.recNo set", code: contract.CodeIdentifierMismatch, substr: "card_recNo (null)",
			edit: func(n *Person) { n.PersonCardLink[0].CardRecNo = Null[int64]() }},
		{name: "person_recNo of another person", code: contract.CodeIdentifierMismatch, substr: "personCardLink[0].person_recNo (11) is not this person (10)",
			edit: func(n *Person) { n.PersonCardLink[0].PersonRecNo = Some[int64](11) }},
		{name: "new link person_recNo of another person", code: contract.CodeIdentifierMismatch, substr: "is not this person",
			edit: func(n *Person) {
				n.PersonCardLink = append(n.PersonCardLink, CardLink{PersonRecNo: Some[int64](99), Card: &Card{Type: Some(2), CardNumber: Some("X")}})
			}},
		{name: "card not linked in oldData", code: contract.CodeIdentifierMismatch, substr: "card_recNo 555 is not a card of this person",
			edit: func(n *Person) {
				n.PersonCardLink = append(n.PersonCardLink, CardLink{PersonRecNo: Some[int64](10), CardRecNo: Some[int64](555), Card: &Card{RecNo: Some[int64](555), Type: Some(2), CardNumber: Some("X")}})
			}},
		{name: "card listed twice", code: contract.CodeIdentifierMismatch, substr: "appears twice",
			edit: func(n *Person) { n.PersonCardLink = append(n.PersonCardLink, n.PersonCardLink[1]) }},
		{name: "deprecated card.person_recNo of another person", code: contract.CodeIdentifierMismatch, substr: "card.person_recNo (12)",
			edit: func(n *Person) { n.PersonCardLink[1].Card.PersonRecNo = Some[int64](12) }},
		{name: "type is insert-only", code: contract.CodeCardRule, substr: "card type is insert-only: remove the card and add a new one (personCardLink[1].card.type)",
			edit: func(n *Person) { n.PersonCardLink[1].Card.Type = Some(3) }},
		{name: "type set to null is a change too", code: contract.CodeCardRule, substr: "insert-only",
			edit: func(n *Person) { n.PersonCardLink[0].Card.Type = Null[int]() }},
		{name: "masked number as a new card's number", code: contract.CodeCardRule, substr: "masked card number cannot be saved",
			edit: func(n *Person) {
				n.PersonCardLink = append(n.PersonCardLink, CardLink{Card: &Card{Type: Some(1), CardNumber: Some("VI 41-XXXX-1111")}})
			}},
		{name: "masked pattern differing from the stored one", code: contract.CodeCardRule, substr: "masked card number cannot be saved (personCardLink[0].card.cardNumber)",
			edit: func(n *Person) { n.PersonCardLink[0].Card.CardNumber = Some("VI 41-XXXX-9999") }},
		{name: "masked with stars", code: contract.CodeCardRule, substr: "masked card number cannot be saved",
			edit: func(n *Person) { n.PersonCardLink[0].Card.CardNumber = Some("************1111") }},
		{name: "changed credit number fails Luhn", code: contract.CodeCardRule, substr: "personCardLink[0].card.cardNumber is not a valid credit/debit card number",
			edit: func(n *Person) { n.PersonCardLink[0].Card.CardNumber = Some("4111111111111112") }},
		{name: "new credit number too short", code: contract.CodeCardRule, substr: "12 to 19 digits",
			edit: func(n *Person) {
				n.PersonCardLink = append(n.PersonCardLink, CardLink{Card: &Card{Type: Some(1), CardNumber: Some("4242")}})
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			old, n := loaded(t), loaded(t)
			c.edit(n)
			ch, err := DiffPerson(old, n)
			if c.code != 0 {
				wantCode(t, err, KindInvalid, c.code, c.substr)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := cardOps(ch); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("card ops\n got %+v\nwant %+v", got, c.want)
			}
			if len(ch.Fields) != 0 || len(ch.Communications) != 0 || len(ch.Tags) != 0 || len(ch.ActionItems) != 0 || len(ch.Marketing) != 0 {
				t.Fatalf("unexpected other changes: %+v", ch)
			}
		})
	}
}

func TestDiffPersonFields(t *testing.T) {
	old := loaded(t)
	n := mustPerson(t, `{"recNo":10,"firstName":"Ken","lastName":"Abler-Smith","remarks":"likes aisle","middleName":null,
		"branchName":"changed","age":3,"activeStatus":2}`)
	ch, err := DiffPerson(old, n)
	if err != nil {
		t.Fatal(err)
	}
	// middleName: absent on old, null on new: no change. firstName: same.
	want := []string{"lastName", "remarks", "activeStatus"}
	if !reflect.DeepEqual(ch.Fields, want) {
		t.Fatalf("fields %v want %v", ch.Fields, want)
	}
	if !ch.Empty() == false || ch.RecNo != 10 {
		t.Fatal("changes expected")
	}
	// Absent child arrays: nothing.
	if len(ch.Cards)+len(ch.Communications)+len(ch.Tags)+len(ch.ActionItems)+len(ch.Marketing) != 0 {
		t.Fatalf("children changed: %+v", ch)
	}
	// Null clears a field.
	n = mustPerson(t, `{"recNo":10,"firstName":null}`)
	if ch, _ = DiffPerson(old, n); !reflect.DeepEqual(ch.Fields, []string{"firstName"}) {
		t.Fatalf("null: %v", ch.Fields)
	}
	// Identical sides: nothing to do.
	if ch, _ = DiffPerson(old, loaded(t)); !ch.Empty() {
		t.Fatalf("identical sides: %+v", ch)
	}
}

func TestDiffPersonRecNo(t *testing.T) {
	_, err := DiffPerson(loaded(t), mustPerson(t, `{"recNo":11}`))
	wantCode(t, err, KindInvalid, contract.CodeIdentifierMismatch, "newData recNo (11) differs from oldData recNo (10)")
	_, err = DiffPerson(loaded(t), mustPerson(t, `{"recNo":null}`))
	wantCode(t, err, KindInvalid, contract.CodeIdentifierMismatch, "newData recNo (null)")
	if _, err = DiffPerson(loaded(t), mustPerson(t, `{"firstName":"X"}`)); err != nil {
		t.Fatalf("absent recNo on newData: %v", err)
	}
	_, err = DiffPerson(mustPerson(t, `{"firstName":"X"}`), mustPerson(t, `{"recNo":1}`))
	wantCode(t, err, KindInvalid, contract.CodeIdentifierMismatch, "oldData recNo is required")
	_, err = DiffPerson(nil, mustPerson(t, `{"recNo":1}`))
	wantCode(t, err, KindInvalid, contract.CodeIdentifierMismatch, "recNo must be null for a new person")
}

func TestDiffCreate(t *testing.T) {
	p := mustPerson(t, `{"recNo":null,"firstName":"Sue","lastName":"Abler","activeStatus":1,"age":5,
		"personCardLink":[{"person_recNo":null,"card_recNo":null,"card":{"recNo":null,"type":1,"cardNumber":"4111-1111-1111-1111","expirationDate":"2030-01-31"}},
		                  {"card":{"type":2,"cardNumber":"FF1"}}],
		"personCommunicationLink":[{"communication":{"type":2,"value":"sue@example.com","isPrimary":true}}],
		"personTag":[{"tag_recNo":3,"value":"x"}],
		"personActionItemLink":[{"personActionItem":{"description":"call","triggerIndex":2}}],
		"personMarketing":[{"marketingElement_recNo":5},{"marketingElement_recNo":5,"affiliation_recNo":2},{"marketingElement_recNo":5}]}`)
	ch, err := DiffPerson(nil, p)
	if err != nil {
		t.Fatal(err)
	}
	if !ch.Create() || ch.RecNo != 0 || !reflect.DeepEqual(ch.Fields, []string{"firstName", "lastName", "activeStatus"}) {
		t.Fatalf("create fields %v", ch.Fields)
	}
	want := []cardOp{{OpInsert, 0, []string{"type", "cardNumber", "expirationDate"}, testVisa}, {OpInsert, 0, []string{"type", "cardNumber"}, ""}}
	if got := cardOps(ch); !reflect.DeepEqual(got, want) {
		t.Fatalf("cards %+v", got)
	}
	if len(ch.Communications) != 1 || len(ch.Tags) != 1 || len(ch.ActionItems) != 1 || len(ch.Marketing) != 2 {
		t.Fatalf("children %+v", ch)
	}
	for _, bad := range []string{
		`{"personCardLink":[{"card_recNo":5,"card":{"recNo":5,"type":2,"cardNumber":"x"}}]}`,
		`{"personCardLink":[{"person_recNo":5,"card":{"type":2,"cardNumber":"x"}}]}`,
		`{"personCommunicationLink":[{"communication_recNo":5,"communication":{"recNo":5,"type":1}}]}`,
		`{"personTag":[{"recNo":7,"tag_recNo":3}]}`,
		`{"personActionItemLink":[{"actionItem_recNo":7,"personActionItem":{"recNo":7}}]}`,
		`{"personMarketing":[{"person_recNo":3,"marketingElement_recNo":5}]}`,
		`{"personCardLink":[{"card":{"type":2,"cardNumber":"x","person_recNo":4}}]}`,
	} {
		_, err := DiffPerson(nil, mustPerson(t, bad))
		wantCode(t, err, KindInvalid, contract.CodeIdentifierMismatch, "")
	}
}

func TestDiffOtherChildren(t *testing.T) {
	old := loaded(t)
	n := loaded(t)
	n.PersonCommunicationLink[0].Communication.Value = Some("555-9999")
	n.PersonCommunicationLink = append(n.PersonCommunicationLink, CommunicationLink{Communication: &Communication{Type: Some(2), Value: Some("k@example.com")}})
	n.PersonTag = []PersonTag{{TagRecNo: Some[int64](2), Value: Some("new")}}
	n.PersonActionItemLink[0].PersonActionItem.Completed = Some(TimestampOf(mustTime("2024-06-01T10:00:00Z")))
	n.PersonActionItemLink[0].PersonActionItem.AppUserID = Some("ignored")
	n.PersonMarketing = []PersonMarketing{{MarketingElementRecNo: Some[int64](6), AffiliationRecNo: Some[int64](1)}}
	ch, err := DiffPerson(old, n)
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Communications) != 2 || ch.Communications[0].Op != OpUpdate || ch.Communications[0].RecNo != 100 ||
		!slices.Equal(ch.Communications[0].Fields, []string{"value"}) || ch.Communications[1].Op != OpInsert {
		t.Errorf("communications %+v", ch.Communications)
	}
	if len(ch.Tags) != 2 || ch.Tags[0].Op != OpInsert || ch.Tags[1].Op != OpDelete || ch.Tags[1].RecNo != 300 {
		t.Errorf("tags %+v", ch.Tags)
	}
	if len(ch.ActionItems) != 1 || ch.ActionItems[0].Op != OpUpdate || !slices.Equal(ch.ActionItems[0].Fields, []string{"completed"}) {
		t.Errorf("action items %+v", ch.ActionItems)
	}
	wantM := []MarketingChange{{OpInsert, 6, 1, "personMarketing[0]"}, {OpDelete, 5, 0, "oldData personMarketing[0]"}}
	if !reflect.DeepEqual(ch.Marketing, wantM) {
		t.Errorf("marketing %+v", ch.Marketing)
	}

	// Same identifier rules as cards.
	for name, edit := range map[string]func(n *Person){
		"comm ids differ": func(n *Person) { n.PersonCommunicationLink[0].Communication.RecNo = Some[int64](101) },
		"comm not in old": func(n *Person) {
			n.PersonCommunicationLink[0].CommunicationRecNo = Some[int64](101)
			n.PersonCommunicationLink[0].Communication.RecNo = Some[int64](101)
		},
		"tag other person":  func(n *Person) { n.PersonTag[0].PersonRecNo = Some[int64](11) },
		"tag not in old":    func(n *Person) { n.PersonTag[0].RecNo = Some[int64](301) },
		"action ids differ": func(n *Person) { n.PersonActionItemLink[0].ActionItemRecNo = Some[int64](401) },
		"marketing other":   func(n *Person) { n.PersonMarketing[0].PersonRecNo = Some[int64](11) },
	} {
		n := loaded(t)
		edit(n)
		_, err := DiffPerson(loaded(t), n)
		if e := AsError(err); e == nil || e.Code != contract.CodeIdentifierMismatch {
			t.Errorf("%s: got %v", name, err)
		}
	}

	// Empty arrays delete every old row; absent ones leave them.
	n = mustPerson(t, `{"recNo":10,"personCommunicationLink":[],"personTag":[],"personActionItemLink":[],"personMarketing":[]}`)
	ch, err = DiffPerson(old, n)
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Communications) != 1 || ch.Communications[0].Op != OpDelete || len(ch.Tags) != 1 || ch.Tags[0].Op != OpDelete ||
		len(ch.ActionItems) != 1 || ch.ActionItems[0].Op != OpDelete || len(ch.Marketing) != 1 || ch.Marketing[0].Op != OpDelete || len(ch.Cards) != 0 {
		t.Errorf("empty arrays: %+v", ch)
	}
}

func TestDiffOldSideIdentifiers(t *testing.T) {
	for name, edit := range map[string]func(o *Person){
		"old link without id":    func(o *Person) { o.PersonCardLink[0].CardRecNo = Null[int64]() },
		"old ids differ":         func(o *Person) { o.PersonCardLink[0].Card.RecNo = Some[int64](999) },
		"old other person":       func(o *Person) { o.PersonCardLink[0].PersonRecNo = Some[int64](3) },
		"old duplicate":          func(o *Person) { o.PersonCardLink = append(o.PersonCardLink, o.PersonCardLink[0]) },
		"old tag without recNo":  func(o *Person) { o.PersonTag[0].RecNo = Null[int64]() },
		"old comm other person":  func(o *Person) { o.PersonCommunicationLink[0].PersonRecNo = Some[int64](3) },
		"old action without ids": func(o *Person) { o.PersonActionItemLink[0].ActionItemRecNo = Opt[int64]{} },
	} {
		o := loaded(t)
		edit(o)
		_, err := DiffPerson(o, loaded(t))
		if e := AsError(err); e == nil || e.Code != contract.CodeIdentifierMismatch {
			t.Errorf("%s: got %v", name, err)
		}
	}
}
