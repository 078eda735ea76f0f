package client_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/wayfarerhq/wayfarer/client"
)

// oldServer fakes a 1.8.1.6 server (production in contract §9.4): no real
// one exists to test against. It serves the flat card[] shape and records
// every request.
type oldServer struct {
	mu   sync.Mutex
	seen []string
}

func (o *oldServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	o.seen = append(o.seen, r.Method+" "+r.URL.Path)
	o.mu.Unlock()
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	switch r.Method + " " + r.URL.Path {
	case "GET /version":
		io.WriteString(w, `{"version":"1.8.1.6","resultCode":0,"resultDescription":""}`)
	case "POST /login":
		io.WriteString(w, `{"identityToken":"h.p.s","resultCode":0,"resultDescription":"Login Successful"}`)
	case "GET /person/7":
		io.WriteString(w, `[{"recNo":7,"firstName":"Ken","lastName":"Abler","activeStatus":1,
			"card":[
				{"recNo":31,"person_recNo":7,"type":1,"cardNumber":"VI 41-XXXX-1111","cardNumberToken":"tok_old","expirationDate":"2029-12-31","nameOnCard":"KEN ABLER"},
				{"recNo":32,"person_recNo":7,"type":2,"cardNumber":"SKY-1","description":"miles"}]}]`)
	default:
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, `{"resultCode":900,"resultDescription":"the fake takes no saves"}`)
	}
}

func (o *oldServer) requests() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return strings.Join(o.seen, ", ")
}

func TestOldServerFlatCardsAndNoSaves(t *testing.T) {
	fake := &oldServer{}
	hs := httptest.NewServer(fake)
	defer hs.Close()
	ctx := context.Background()
	c := client.New(hs.URL, client.WithCredentials("DEMO", "admin", "x"))

	v, err := c.Version(ctx)
	if err != nil || v.CardLinks() {
		t.Fatalf("version %+v %v", v, err)
	}

	p, err := c.LoadPerson(ctx, 7)
	if err != nil {
		t.Fatal(err)
	}
	if p.RecNo() != 7 || len(p.Cards) != 2 {
		t.Fatalf("person %d with %d cards", p.RecNo(), len(p.Cards))
	}
	l := p.Card(31)
	if l == nil || l.CardRecNo() != 31 || l.Card.RecNo() != 31 || l.PersonRecNo() != 7 || l.IsNew() {
		t.Fatalf("flat card 31 as a link: %+v", l)
	}
	if l.Card.Type() != client.CardCreditDebit || l.Card.Number() != "VI 41-XXXX-1111" || l.Card.Token() != "tok_old" ||
		*l.Card.NameOnCard != "KEN ABLER" || l.Card.ExpirationDate.String() != "2029-12-31" {
		t.Fatalf("flat card fields: %+v", l.Card)
	}
	if l := p.Card(32); l == nil || l.Card.Type() != client.CardLoyalty || *l.Card.Description != "miles" {
		t.Fatal("flat card 32")
	}

	before := fake.requests()
	_, err = c.UpdatePerson(ctx, 7, func(p *client.Person) error {
		t.Error("edit called against an old server")
		return nil
	})
	if !errors.Is(err, client.ErrServerTooOld) || !strings.Contains(err.Error(), "1.8.1.6") {
		t.Fatalf("update against 1.8.1.6: %v", err)
	}
	if _, err := c.CreatePerson(ctx, &client.Person{LastName: ptr("X")}); !errors.Is(err, client.ErrServerTooOld) {
		t.Fatalf("create against 1.8.1.6: %v", err)
	}
	n := p.Clone()
	n.Remarks = ptr("x")
	if _, err := c.SavePerson(ctx, p, n); !errors.Is(err, client.ErrServerTooOld) {
		t.Fatalf("save against 1.8.1.6: %v", err)
	}
	if after := fake.requests(); after != before || strings.Contains(after, "POST /person") {
		t.Fatalf("requests sent to the old server: %s", after)
	}
	if strings.Count(fake.requests(), "GET /version") != 1 {
		t.Fatalf("version read more than once: %s", fake.requests())
	}
}
