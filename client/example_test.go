package client_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/wayfarerhq/wayfarer/client"
)

func ExampleClient_UpdatePerson() {
	ctx := context.Background()
	c := client.New("http://127.0.0.1:8080", client.WithCredentials("DEMO", "admin", os.Getenv("WAYFARER_PASSWORD")))

	saved, err := c.UpdatePerson(ctx, 42, func(p *client.Person) error {
		remarks, name := "prefers aisle seats", "KEN ABLER"
		p.Remarks = &remarks
		if l := p.Card(7); l != nil {
			l.Card.NameOnCard = &name // the card keeps its identifiers, number and token
		}
		p.AddCard(client.NewCard(client.CardLoyalty, "SKY-123456"))
		return nil
	})
	if client.IsConflict(err) {
		log.Fatal("someone else saved person 42 meanwhile: call UpdatePerson again")
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(saved.Name(), len(saved.Cards))
}

func ExampleClient_SearchAll() {
	ctx := context.Background()
	c := client.New("http://127.0.0.1:8080", client.WithCredentials("DEMO", "admin", os.Getenv("WAYFARER_PASSWORD")))

	q := client.Search().LastName(client.StartingWith, "Abl").Columns(client.ColRecNo, client.ColName).Page(0, 50)
	for row, err := range c.SearchAll(ctx, q) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(row.RecNo(), row.Text(client.ColName))
	}
}
