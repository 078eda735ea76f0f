// Command create-person creates a traveler with an email address, a
// credit card and a loyalty card, and prints the identifiers the server
// assigned.
//
//	WAYFARER_PASSWORD=demo-admin go run ./examples/create-person -first Ken -last Abler
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"time"

	"github.com/wayfarerhq/wayfarer/client"
)

func main() {
	url := flag.String("url", env("WAYFARER_URL", "http://127.0.0.1:8080"), "server base URL (WAYFARER_URL)")
	alias := flag.String("alias", env("WAYFARER_ALIAS", "DEMO"), "agency alias (WAYFARER_ALIAS)")
	user := flag.String("user", env("WAYFARER_USER", "admin"), "user name (WAYFARER_USER); the password comes from WAYFARER_PASSWORD")
	first := flag.String("first", "Ken", "first name")
	last := flag.String("last", "Abler", "last name")
	email := flag.String("email", "ken.abler@example.com", "primary email address")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	c := client.New(*url, client.WithCredentials(*alias, *user, os.Getenv("WAYFARER_PASSWORD")))

	p := &client.Person{FirstName: first, LastName: last, ActiveStatus: new(client.StatusActive)}
	p.Communications = append(p.Communications, client.NewEmail(*email, true))

	// New cards: identifiers null, full number; there is no cvvCode field.
	credit := client.NewCard(client.CardCreditDebit, "4111 1111 1111 1111") // a test number
	credit.ExpirationDate = new(client.NewDate(time.Now().Year()+3, time.December, 31))
	credit.NameOnCard = new(*first + " " + *last)
	p.AddCard(credit)
	p.AddCard(client.NewCard(client.CardLoyalty, "SKY-123456"))

	saved, err := c.CreatePerson(ctx, p)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("created person %d (%s)\n", saved.RecNo(), saved.Name())
	for _, l := range saved.Cards {
		fmt.Printf("  card %d: %s %s\n", l.CardRecNo(), l.Card.Type(), l.Card.Number())
	}
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
