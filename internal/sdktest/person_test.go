package sdktest

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/client"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

const visa = "4111 1111 1111 1111"

func newTraveler(last string) *client.Person {
	p := &client.Person{
		FirstName:    new("Ken"),
		LastName:     new(last),
		ActiveStatus: new(client.StatusActive),
	}
	p.Communications = append(p.Communications, client.NewEmail(strings.ToLower(last)+"@example.com", true))
	credit := client.NewCard(client.CardCreditDebit, visa)
	credit.ExpirationDate = new(client.NewDate(2030, time.December, 31))
	credit.NameOnCard = new("KEN " + strings.ToUpper(last))
	p.AddCard(credit)
	loyalty := client.NewCard(client.CardLoyalty, "SKY-123456")
	loyalty.Description = new("frequent flyer")
	p.AddCard(loyalty)
	return p
}

func creditLink(t *testing.T, p *client.Person) *client.CardLink {
	t.Helper()
	for i := range p.Cards {
		if p.Cards[i].Card.Type() == client.CardCreditDebit {
			return &p.Cards[i]
		}
	}
	t.Fatal("no credit card")
	return nil
}

func TestCreateLoadUpdate(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := context.Background()
		c := loggedIn(t, s)

		p, err := c.CreatePerson(ctx, newTraveler("Quillon"))
		if err != nil {
			t.Fatal(err)
		}
		if p.RecNo() == 0 || len(p.Cards) != 2 || p.PrimaryEmail() != "quillon@example.com" || p.Created().IsZero() {
			t.Fatalf("created person: %+v", p)
		}
		cl := creditLink(t, p)
		if cl.CardRecNo() == 0 || cl.CardRecNo() != cl.Card.RecNo() || cl.PersonRecNo() != p.RecNo() {
			t.Fatalf("card identifiers: link %d/%d card %d", cl.PersonRecNo(), cl.CardRecNo(), cl.Card.RecNo())
		}
		if cl.Card.Number() != "VI 41-XXXX-1111" || !cl.Card.Masked() || cl.Card.Token() == "" {
			t.Fatalf("credit card as loaded: %q masked=%v token=%v", cl.Card.Number(), cl.Card.Masked(), cl.Card.Token() != "")
		}
		cardID, token := cl.CardRecNo(), cl.Card.Token()

		loaded, err := c.LoadPerson(ctx, p.RecNo())
		if err != nil {
			t.Fatal(err)
		}
		if loaded.Name() != "Quillon/Ken" || len(loaded.Cards) != 2 {
			t.Fatalf("loaded %q with %d cards", loaded.Name(), len(loaded.Cards))
		}

		// Edit an unrelated field of the credit card: all three identifiers,
		// the masked number and the token stay.
		saved, err := c.UpdatePerson(ctx, p.RecNo(), func(p *client.Person) error {
			l := p.Card(cardID)
			l.Card.NameOnCard = new("K QUILLON")
			l.Card.ExpirationDate = new(client.NewDate(2031, time.January, 31))
			p.Remarks = new("window seat")
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		l := saved.Card(cardID)
		if l == nil || l.PersonRecNo() != p.RecNo() || l.Card.RecNo() != cardID {
			t.Fatal("the edited card lost its identifiers")
		}
		if *l.Card.NameOnCard != "K QUILLON" || l.Card.ExpirationDate.String() != "2031-01-31" || *saved.Remarks != "window seat" {
			t.Fatalf("edit not saved: %+v", l.Card)
		}
		if l.Card.Number() != "VI 41-XXXX-1111" || l.Card.Token() != token || len(saved.Cards) != 2 {
			t.Fatal("number or token changed, or cards were rebuilt")
		}

		// Add a card, remove another, change the number of the credit card.
		var loyaltyID int64
		for _, l := range saved.Cards {
			if l.Card.Type() == client.CardLoyalty {
				loyaltyID = l.CardRecNo()
			}
		}
		saved, err = c.UpdatePerson(ctx, p.RecNo(), func(p *client.Person) error {
			if !p.RemoveCard(loyaltyID) {
				t.Error("no loyalty card to remove")
			}
			doc := p.AddCard(client.NewCard(client.CardTravelDocument, "P1234567"))
			doc.Card.IssuingCountry = new("DE")
			return p.Card(cardID).Card.SetNumber("5555 5555 5555 4444")
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(saved.Cards) != 2 || saved.Card(loyaltyID) != nil {
			t.Fatalf("cards after add/remove: %d", len(saved.Cards))
		}
		if n := saved.Card(cardID).Card.Number(); n != "CA 55-XXXX-4444" {
			t.Fatalf("new number shows as %q", n)
		}
		for _, l := range saved.Cards {
			if l.Card.Type() == client.CardTravelDocument && (l.IsNew() || l.PersonRecNo() != p.RecNo() || l.Card.Number() != "P1234567") {
				t.Fatalf("added document: %+v", l)
			}
		}

		// Clearing a field sends null.
		saved, err = c.UpdatePerson(ctx, p.RecNo(), func(p *client.Person) error { p.Remarks = nil; return nil })
		if err != nil || saved.Remarks != nil {
			t.Fatalf("clear remarks: %v", err)
		}

		// An edit that fails sends nothing.
		boom := errors.New("boom")
		if _, err := c.UpdatePerson(ctx, p.RecNo(), func(p *client.Person) error { p.Remarks = new("x"); return boom }); !errors.Is(err, boom) {
			t.Fatalf("edit error: %v", err)
		}
	})
}

func TestUpdateErrors(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := context.Background()
		c := loggedIn(t, s)
		p, err := c.CreatePerson(ctx, newTraveler("Quorn"))
		if err != nil {
			t.Fatal(err)
		}

		// The server answers 204: a typed not-found, not an error about JSON.
		if _, err := c.LoadPerson(ctx, 987654); !client.IsNotFound(err) || !errors.Is(err, client.ErrNotFound) ||
			err.Error() != "wayfarer person 987654: no such person within your reach" {
			t.Fatalf("missing person: %v", err)
		}

		v := newClient(t, s, client.WithCredentials(alias, viewer, viewerPW))
		if _, err := v.LoadPerson(ctx, p.RecNo()); !client.IsForbidden(err) {
			t.Fatalf("viewer: %v", err)
		}

		// Someone else saves between our load and our save: 409.
		_, err = c.UpdatePerson(ctx, p.RecNo(), func(mine *client.Person) error {
			if _, err := c.UpdatePerson(ctx, p.RecNo(), func(theirs *client.Person) error {
				theirs.Remarks = new("theirs")
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			mine.Remarks = new("mine")
			return nil
		})
		if !client.IsConflict(err) || client.ResultCode(err) != client.CodeConcurrencyConflict {
			t.Fatalf("stale save: %v", err)
		}

		// A server-side validation error is typed too.
		_, err = c.UpdatePerson(ctx, p.RecNo(), func(p *client.Person) error { p.Citizenship = new("TOO LONG"); return nil })
		if !client.IsInvalid(err) || client.ResultCode(err) != client.CodeInvalidValue {
			t.Fatalf("invalid field: %v", err)
		}
	})
}

func TestCardRulesBeforeSending(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := context.Background()
		c := loggedIn(t, s)
		p, err := c.CreatePerson(ctx, newTraveler("Quasar"))
		if err != nil {
			t.Fatal(err)
		}
		credit := creditLink(t, p)
		cardID := credit.CardRecNo()
		before, _ := json.Marshal(p)

		cases := []struct {
			name string
			want error
			edit func(p *client.Person) error
		}{
			{"masked number as a new card", client.ErrMaskedNumber, func(p *client.Person) error {
				p.AddCard(client.NewCard(client.CardCreditDebit, "VI 41-XXXX-1111"))
				return nil
			}},
			{"loaded card added again as new", client.ErrMaskedNumber, func(p *client.Person) error {
				p.AddCard(p.Card(cardID).Card)
				return nil
			}},
			{"card replaced inside its link", client.ErrIdentifierMismatch, func(p *client.Person) error {
				p.Card(cardID).Card = client.NewCard(client.CardCreditDebit, visa)
				return nil
			}},
			{"card of another link", client.ErrIdentifierMismatch, func(p *client.Person) error {
				p.Cards[0].Card, p.Cards[1].Card = p.Cards[1].Card, p.Cards[0].Card
				return nil
			}},
			{"same card linked twice", client.ErrIdentifierMismatch, func(p *client.Person) error {
				p.Cards = append(p.Cards, *p.Card(cardID))
				return nil
			}},
			{"new card linked to another person", client.ErrIdentifierMismatch, func(p *client.Person) error {
				p.Cards = append(p.Cards, client.NewCardLink(p.RecNo()+1000, client.NewCard(client.CardLoyalty, "X1")))
				return nil
			}},
			{"new card without a number", client.ErrCardRule, func(p *client.Person) error {
				p.AddCard(client.Card{})
				return nil
			}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				_, err := c.UpdatePerson(ctx, p.RecNo(), tc.edit)
				if !errors.Is(err, tc.want) {
					t.Fatalf("got %v, want %v", err, tc.want)
				}
			})
		}

		// SetNumber refuses a masked number at once.
		var card client.Card = credit.Card
		if err := card.SetNumber("41-XXXX-1111"); !errors.Is(err, client.ErrMaskedNumber) {
			t.Fatalf("SetNumber masked: %v", err)
		}
		// A new person cannot carry a masked number either.
		np := &client.Person{LastName: new("Masked"), ActiveStatus: new(client.StatusActive)}
		np.AddCard(client.NewCard(client.CardCreditDebit, "VI 41-xxxx-1111"))
		if _, err := c.CreatePerson(ctx, np); !errors.Is(err, client.ErrMaskedNumber) {
			t.Fatalf("create with a masked number: %v", err)
		}
		// A loaded person is not a new one.
		if _, err := c.CreatePerson(ctx, p); !errors.Is(err, client.ErrIdentifierMismatch) {
			t.Fatalf("create a loaded person: %v", err)
		}

		after, err := c.LoadPerson(ctx, p.RecNo())
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := json.Marshal(after); string(b) != string(before) {
			t.Fatalf("a refused save changed the person:\n%s\n%s", before, b)
		}
	})
}

func TestDecryptedPersonIsReadOnly(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := context.Background()
		c := loggedIn(t, s)
		p, err := c.CreatePerson(ctx, newTraveler("Quimby"))
		if err != nil {
			t.Fatal(err)
		}
		d, err := c.LoadPersonDecrypted(ctx, p.RecNo())
		if err != nil {
			t.Fatal(err)
		}
		if n := creditLink(t, d).Card.Number(); n != "4111111111111111" {
			t.Fatalf("decrypted number %q", n)
		}
		n := d.Clone()
		n.Remarks = new("x")
		if _, err := c.SavePerson(ctx, d, n); !errors.Is(err, client.ErrCardRule) {
			t.Fatalf("save based on a decrypted person: %v", err)
		}
	})
}
