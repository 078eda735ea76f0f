// Command update-card changes the name and expiration date of one card of a
// person the contract's way: load, copy, edit the copy, send old and new.
// The card keeps its identifiers, its masked number and its token.
//
//	WAYFARER_PASSWORD=demo-admin go run ./examples/update-card -person 42 -card 7 -name-on-card "KEN ABLER" -expires 2031-01-31
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"

	"github.com/wayfarerhq/wayfarer/client"
)

func main() {
	url := flag.String("url", env("WAYFARER_URL", "http://127.0.0.1:8080"), "server base URL (WAYFARER_URL)")
	alias := flag.String("alias", env("WAYFARER_ALIAS", "DEMO"), "agency alias (WAYFARER_ALIAS)")
	user := flag.String("user", env("WAYFARER_USER", "admin"), "user name (WAYFARER_USER); the password comes from WAYFARER_PASSWORD")
	person := flag.Int64("person", 0, "person record number")
	card := flag.Int64("card", 0, "card record number (see: wayfarer client get PERSON)")
	nameOnCard := flag.String("name-on-card", "", "new name on the card (empty: unchanged)")
	expires := flag.String("expires", "", "new expiration date YYYY-MM-DD (empty: unchanged)")
	flag.Parse()
	if *person == 0 || *card == 0 {
		flag.Usage()
		os.Exit(2)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	c := client.New(*url, client.WithCredentials(*alias, *user, os.Getenv("WAYFARER_PASSWORD")))

	edit := func(p *client.Person) error {
		l := p.Card(*card) // a pointer into the copy: editing it keeps the card's identifiers
		if l == nil {
			return fmt.Errorf("person %d has no card %d", *person, *card)
		}
		if *nameOnCard != "" {
			l.Card.NameOnCard = nameOnCard
		}
		if *expires != "" {
			d, err := client.ParseDate(*expires)
			if err != nil {
				return err
			}
			l.Card.ExpirationDate = &d
		}
		return nil
	}

	// A conflict means someone saved the person meanwhile: UpdatePerson
	// reloads and applies the edit again on the next try.
	var saved *client.Person
	var err error
	for range 3 {
		saved, err = c.UpdatePerson(ctx, *person, edit)
		if !client.IsConflict(err) {
			break
		}
	}
	if err != nil {
		log.Fatal(err)
	}
	l := saved.Card(*card)
	fmt.Printf("card %d of %s: %s, %s, name %q", l.CardRecNo(), saved.Name(), l.Card.Type(), l.Card.Number(), deref(l.Card.NameOnCard))
	if l.Card.ExpirationDate != nil {
		fmt.Printf(", expires %s", l.Card.ExpirationDate)
	}
	fmt.Println()
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
