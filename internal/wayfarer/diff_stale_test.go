package wayfarer

import (
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

func mustTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestCheckStale(t *testing.T) {
	cases := []struct {
		name    string
		current func(c *Person) // what someone else saved meanwhile
		edit    func(n *Person) // this client's edit
		stale   bool
	}{
		{"nothing changed meanwhile", func(c *Person) {}, func(n *Person) { n.FirstName = Some("Kenneth") }, false},
		{"same field changed meanwhile", func(c *Person) { c.FirstName = Some("Kenny") }, func(n *Person) { n.FirstName = Some("Kenneth") }, true},
		{"other field changed meanwhile", func(c *Person) { c.LastName = Some("Smith") }, func(n *Person) { n.FirstName = Some("Kenneth") }, false},
		{"field absent on old side is not checked", func(c *Person) { c.Gender = Some("F") }, func(n *Person) { n.Gender = Some("M") }, false},
		{"field cleared meanwhile", func(c *Person) { c.FirstName = Null[string]() }, func(n *Person) { n.FirstName = Some("Kenneth") }, true},
		{"edited card changed in the same field", func(c *Person) { c.PersonCardLink[0].Card.NameOnCard = Some("X") },
			func(n *Person) { n.PersonCardLink[0].Card.NameOnCard = Some("K ABLER") }, true},
		{"edited card changed in another field", func(c *Person) { c.PersonCardLink[0].Card.Description = Some("work") },
			func(n *Person) { n.PersonCardLink[0].Card.NameOnCard = Some("K ABLER") }, false},
		{"edited card's number replaced meanwhile", func(c *Person) {
			c.PersonCardLink[0].Card.CardNumber = Some("VI 40-XXXX-1881")
			c.PersonCardLink[0].Card.CardNumberToken = Some("tok_bbbb")
		}, func(n *Person) { n.PersonCardLink[0].Card.ExpirationDate = Some(Date{2030, 1, 31}) }, true},
		{"edited card's token replaced meanwhile", func(c *Person) { c.PersonCardLink[0].Card.CardNumberToken = Some("tok_bbbb") },
			func(n *Person) { n.PersonCardLink[0].Card.ExpirationDate = Some(Date{2030, 1, 31}) }, true},
		{"edited card unlinked meanwhile", func(c *Person) { c.PersonCardLink = c.PersonCardLink[1:] },
			func(n *Person) { n.PersonCardLink[0].Card.ExpirationDate = Some(Date{2030, 1, 31}) }, true},
		{"removed card changed meanwhile", func(c *Person) { c.PersonCardLink[1].Card.Description = Some("other") },
			func(n *Person) { n.PersonCardLink = n.PersonCardLink[:1] }, true},
		{"removed card already removed", func(c *Person) { c.PersonCardLink = c.PersonCardLink[:1] },
			func(n *Person) { n.PersonCardLink = n.PersonCardLink[:1] }, true},
		{"card added meanwhile, this client adds another", func(c *Person) {
			c.PersonCardLink = append(c.PersonCardLink, CardLink{CardRecNo: Some[int64](202), Card: &Card{RecNo: Some[int64](202), Type: Some(2)}})
		}, func(n *Person) {
			n.PersonCardLink = append(n.PersonCardLink, CardLink{Card: &Card{Type: Some(2), CardNumber: Some("Z")}})
		}, false},
		{"edited tag deleted meanwhile", func(c *Person) { c.PersonTag = nil }, func(n *Person) { n.PersonTag[0].Value = Some("silver") }, true},
		{"edited tag changed meanwhile", func(c *Person) { c.PersonTag[0].Value = Some("bronze") }, func(n *Person) { n.PersonTag[0].Value = Some("silver") }, true},
		{"deleted communication changed meanwhile", func(c *Person) { c.PersonCommunicationLink[0].Communication.Value = Some("1") },
			func(n *Person) { n.PersonCommunicationLink = []CommunicationLink{} }, true},
		{"edited action item changed in another field", func(c *Person) { c.PersonActionItemLink[0].PersonActionItem.Notes = Some("n") },
			func(n *Person) { n.PersonActionItemLink[0].PersonActionItem.Description = Some("call back") }, false},
		{"edited action item deleted meanwhile", func(c *Person) { c.PersonActionItemLink = nil },
			func(n *Person) { n.PersonActionItemLink[0].PersonActionItem.Description = Some("call back") }, true},
		{"removed marketing removed meanwhile", func(c *Person) { c.PersonMarketing = nil },
			func(n *Person) { n.PersonMarketing = []PersonMarketing{} }, true},
		{"removed marketing still there", func(c *Person) {}, func(n *Person) { n.PersonMarketing = []PersonMarketing{} }, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			old, n, cur := loaded(t), loaded(t), loaded(t)
			c.current(cur)
			c.edit(n)
			ch, err := DiffPerson(old, n)
			if err != nil {
				t.Fatal(err)
			}
			err = CheckStale(cur, old, ch)
			if !c.stale {
				if err != nil {
					t.Fatalf("unexpected %v", err)
				}
				return
			}
			e := AsError(err)
			if e == nil || e.Kind != KindConflict || e.Code != contract.CodeConcurrencyConflict || e.Message != ErrConflictMessage {
				t.Fatalf("want conflict, got %v", err)
			}
		})
	}
	if err := CheckStale(nil, nil, &PersonChanges{}); err != nil {
		t.Fatal("create is never stale")
	}
}
