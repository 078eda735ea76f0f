// Command search lists the persons whose last name starts with a prefix,
// page by page, using the Wayfarer Go client.
//
//	WAYFARER_PASSWORD=demo-admin go run ./examples/search -url http://127.0.0.1:8080 -alias DEMO -user admin -last-name Abl
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
	lastName := flag.String("last-name", "Abl", "last name prefix")
	pageSize := flag.Int64("page-size", 100, "rows per request")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	// With credentials the client logs in by itself, and again if the session expires.
	c := client.New(*url, client.WithCredentials(*alias, *user, os.Getenv("WAYFARER_PASSWORD")))

	q := client.Search().
		LastName(client.StartingWith, *lastName).
		Columns(client.ColRecNo, client.ColName, client.ColPrimaryEmail).
		Page(0, *pageSize)

	n := 0
	for row, err := range c.SearchAll(ctx, q) {
		if err != nil {
			log.Fatal(err)
		}
		n++
		fmt.Printf("%6d  %-30s  %s\n", row.RecNo(), row.Text(client.ColName), row.Text(client.ColPrimaryEmail))
	}
	fmt.Printf("%d persons\n", n)
}

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
