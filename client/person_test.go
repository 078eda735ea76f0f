package client_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/client"
)

func ptr[T any](v T) *T { return &v }

// offlineTraveler is a new person with a credit card and an email, built
// without a server.
func offlineTraveler(last string) *client.Person {
	p := &client.Person{FirstName: ptr("Ken"), LastName: ptr(last), ActiveStatus: ptr(client.StatusActive)}
	p.Communications = append(p.Communications, client.NewEmail(strings.ToLower(last)+"@example.com", true))
	credit := client.NewCard(client.CardCreditDebit, "4111 1111 1111 1111")
	credit.ExpirationDate = ptr(client.NewDate(2030, time.December, 31))
	credit.NameOnCard = ptr("KEN " + strings.ToUpper(last))
	p.AddCard(credit)
	return p
}

func TestNoCVVOnTheWire(t *testing.T) {
	in := `{"recNo":null,"lastName":"X","activeStatus":1,"personCardLink":[{"person_recNo":null,"card_recNo":null,
		"card":{"recNo":null,"type":1,"cardNumber":"4111111111111111","cvvCode":"123"}}]}`
	var p client.Person
	if err := json.Unmarshal([]byte(in), &p); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(p)
	if strings.Contains(string(out), "cvv") || strings.Contains(string(out), "123\"") {
		t.Fatalf("cvvCode survived: %s", out)
	}
	if _, err := client.DecodePerson([]byte(in)); err == nil || !strings.Contains(err.Error(), "cvvCode") {
		t.Fatalf("DecodePerson accepted a cvvCode: %v", err)
	}
}

func TestCloneIsDeep(t *testing.T) {
	p := offlineTraveler("Deep")
	q := p.Clone()
	*q.FirstName = "Changed"
	q.Cards[0].Card.NameOnCard = ptr("Other")
	*q.Communications[0].Communication.Value = "other@example.com"
	if *p.FirstName != "Ken" || *p.Cards[0].Card.NameOnCard == "Other" || p.PrimaryEmail() != "deep@example.com" {
		t.Fatal("clone shares memory with the original")
	}
}

func TestIsMaskedNumber(t *testing.T) {
	for s, want := range map[string]bool{
		"VI 41-XXXX-1111":     true,
		"41-XXXX-1111":        true,
		"4111 **** **** 1111": true,
		"ca 55-xxxx-4444":     true,
		"4111111111111111":    false,
		"SKY-123456":          false,
		"P1234567":            false,
		"XXX":                 false,
		"":                    false,
	} {
		if got := client.IsMaskedNumber(s); got != want {
			t.Errorf("IsMaskedNumber(%q) = %v", s, got)
		}
	}
}

// The search body is the contract's PersonSearchRequest; tags go out as
// {"recNo":...,"value":{...}}, the reference's shape.
func TestSearchBody(t *testing.T) {
	q := client.Search().LastName(client.StartingWith, "Abl").Tag(7, client.Equal, "gold").Tag(8, 0).
		Columns(client.ColRecNo).Page(0, 10).Param("priority", 3)
	b, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"includeCols":["recNo"],"lastName":{"compareCondition":5,"value":["Abl"]},"priority":3,"rowCount":10,"startingRow":0,` +
		`"tags":[{"recNo":7,"value":{"compareCondition":1,"value":["gold"]}},{"recNo":8}]}`
	if string(b) != want {
		t.Errorf("body\n got %s\nwant %s", b, want)
	}
}
