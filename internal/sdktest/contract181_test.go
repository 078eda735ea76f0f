package sdktest

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/client"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// The SDK speaks contract 1.8.2. Pointed at a Wayfarer server's 1.8.1 base
// path it reads persons from the flat card array into the same values (so
// it never misreads them) and refuses saves before sending anything,
// saying where the server speaks 1.8.2 (docs/client.md).
func TestSDKBelow181BasePath(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := context.Background()
		c182 := loggedIn(t, s)
		p, err := c182.CreatePerson(ctx, newTraveler("Flatley"))
		if err != nil {
			t.Fatal(err)
		}

		c181 := client.New(s.URL+"/v1.8.1", client.WithCredentials(alias, admin, adminPW))
		v, err := c181.Version(ctx)
		if err != nil || v.Contract != "1.8.1.6" || v.CardLinks() || v.Wayfarer == "" {
			t.Fatalf("version %+v %v", v, err)
		}
		got, err := c181.LoadPerson(ctx, p.RecNo())
		if err != nil {
			t.Fatal(err)
		}
		want, err := c182.LoadPerson(ctx, p.RecNo())
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("1.8.1 load %+v\n1.8.2 load %+v", got, want)
		}
		cl := creditLink(t, got)
		if cl.CardRecNo() == 0 || cl.CardRecNo() != cl.Card.RecNo() || cl.PersonRecNo() != p.RecNo() || !cl.Card.Masked() {
			t.Fatalf("card read from the flat array: %d/%d/%d %q", cl.PersonRecNo(), cl.CardRecNo(), cl.Card.RecNo(), cl.Card.Number())
		}

		_, err = c181.UpdatePerson(ctx, p.RecNo(), func(p *client.Person) error {
			t.Error("edit called below the 1.8.1 base path")
			return nil
		})
		if !errors.Is(err, client.ErrServerTooOld) || !strings.Contains(err.Error(), "speaks 1.8.2 at the base URL without /v1.8.1") {
			t.Fatalf("update below the 1.8.1 base path: %v", err)
		}
		if _, err := c181.CreatePerson(ctx, newTraveler("Flatter")); !errors.Is(err, client.ErrServerTooOld) {
			t.Fatalf("create below the 1.8.1 base path: %v", err)
		}

		// Searches are the same in both contracts.
		q := client.Search().Columns(client.ColRecNo, client.ColName, client.ColCardNumber)
		a, err := c182.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		b, err := c181.Search(ctx, q)
		if err != nil || !reflect.DeepEqual(a, b) || len(b.Rows) == 0 {
			t.Fatalf("search: %v\n%+v\n%+v", err, a, b)
		}
	})
}
