package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/client"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

func TestClientCLITagsAndExtendedColumns(t *testing.T) {
	s := testserver.Start(t, testserver.Options{})
	ctx := context.Background()
	t.Setenv("WAYFARER_SESSION", filepath.Join(t.TempDir(), "session.json"))
	runClientCLI(t, "demo-admin\n", "login", "--url", s.URL, "--alias", "DEMO", "--user", "admin", "--password-stdin").must(t)
	ag, err := s.App.DB.AgencyByAlias(ctx, "DEMO")
	if err != nil {
		t.Fatal(err)
	}
	vip, err := s.App.DB.EnsureTag(ctx, ag.ID, "VIP")
	if err != nil {
		t.Fatal(err)
	}
	aff, err := s.App.DB.CreateAffiliation(ctx, ag.ID, "Virtuoso")
	if err != nil {
		t.Fatal(err)
	}
	golf, _, err := s.App.DB.CreateMarketingElement(ctx, ag.ID, sqlstore.NewMarketingElement{AffiliationID: aff, Category: "Interests", Code: "12575", Name: "Golf"})
	if err != nil {
		t.Fatal(err)
	}

	r := runClientCLI(t, "", "tags", "--name", "VI").must(t)
	if !strings.Contains(r.out, "VIP") || !strings.Contains(r.out, "availableForUseIn") {
		t.Fatalf("%s", r.out)
	}
	r = runClientCLI(t, "", "tags", fmt.Sprint(vip)).must(t)
	if !strings.Contains(r.out, `"name": "VIP"`) {
		t.Fatalf("%s", r.out)
	}
	if r := runClientCLI(t, "", "tags", "999999"); !errors.Is(r.fail, client.ErrNotFound) {
		t.Fatalf("missing tag: %v", r.fail)
	}
	r = runClientCLI(t, "", "affiliation", fmt.Sprint(aff)).must(t)
	if !strings.Contains(r.out, `"name": "Golf"`) || !strings.Contains(r.out, "affiliationMarketingCategory") {
		t.Fatalf("%s", r.out)
	}

	c := client.New(s.URL, client.WithCredentials("DEMO", "admin", "demo-admin"))
	last, value := "Cliextended", "gold"
	p := &client.Person{LastName: &last, ActiveStatus: new(client.StatusActive)}
	p.Tags = []client.Tag{{TagRecNo: &vip, Value: &value}}
	p.Marketing = []client.Marketing{{MarketingElementRecNo: &golf}}
	if _, err := c.CreatePerson(ctx, p); err != nil {
		t.Fatal(err)
	}
	r = runClientCLI(t, "", "search", "--last-name", last, "--cols", "recNo,lastName", "--tag-value", fmt.Sprint(vip),
		"--marketing-flag", fmt.Sprint(golf), "--json").must(t)
	if !strings.Contains(r.out, fmt.Sprintf(`"tag:%d": "gold"`, vip)) || !strings.Contains(r.out, fmt.Sprintf(`"marketing:%d": true`, golf)) {
		t.Fatalf("%s", r.out)
	}
	if r := runClientCLI(t, "", "search", "--tag-value", "x"); r.fail == nil || !strings.Contains(r.fail.Error(), "--tag-value") {
		t.Fatalf("%v", r.fail)
	}
}
