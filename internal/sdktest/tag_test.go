package sdktest

import (
	"context"
	"testing"

	"github.com/wayfarerhq/wayfarer/client"
	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

func TestSDKTagsAndAffiliations(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := context.Background()
		c := newClient(t, s, client.WithCredentials(alias, admin, adminPW))

		name, req := "Seat preference", contract.TagRecommended
		created, err := c.CreateTag(ctx, &contract.Tag{Name: &name, Requirement: &req})
		if err != nil {
			t.Fatal(err)
		}
		if created.RecNo == nil || *created.ActiveStatus != true || *created.Requirement != req {
			t.Fatalf("%+v", created)
		}
		updated, err := c.UpdateTag(ctx, *created.RecNo, func(tg *contract.Tag) error {
			d := "Aisle or window"
			tg.Description = &d
			return nil
		})
		if err != nil || *updated.Description != "Aisle or window" || *updated.Name != name {
			t.Fatalf("%+v %v", updated, err)
		}
		active := true
		rows, err := c.SearchTags(ctx, &contract.TagSearchRequest{Name: contract.NewStringSearchParam(5, "seat"), ActiveStatus: &active})
		if err != nil || len(rows) != 1 {
			t.Fatalf("%v %v", rows, err)
		}
		if d, _ := rows[0].String("description"); d != "Aisle or window" || rows[0].RecNo() != *created.RecNo {
			t.Fatalf("%v", rows[0])
		}
		if rows, err := c.SearchTags(ctx, &contract.TagSearchRequest{Name: contract.NewStringSearchParam(1, "nothing")}); err != nil || len(rows) != 0 {
			t.Fatalf("%v %v", rows, err)
		}
		if _, err := c.LoadTag(ctx, 999999); !client.IsNotFound(err) {
			t.Fatalf("missing tag: %v", err)
		}
		if _, err := c.CreateTag(ctx, &contract.Tag{Name: &name, Requirement: &req}); client.ResultCode(err) != contract.CodeInvalidValue {
			t.Fatalf("duplicate name: %v", err)
		}

		ag, err := s.App.DB.AgencyByAlias(ctx, alias)
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
		a, err := c.LoadAffiliation(ctx, aff)
		if err != nil || *a.Name != "Virtuoso" || len(a.Categories) != 1 || *a.Categories[0].Elements[0].RecNo != golf {
			t.Fatalf("%+v %v", a, err)
		}

		// A person with the tag and the element, found with both extended columns.
		last, value := "Zextended", "aisle"
		p := &client.Person{LastName: &last, ActiveStatus: new(client.StatusActive)}
		p.Tags = append(p.Tags, client.Tag{TagRecNo: created.RecNo, Value: &value})
		p.Marketing = append(p.Marketing, client.Marketing{MarketingElementRecNo: &golf})
		if _, err := c.CreatePerson(ctx, p); err != nil {
			t.Fatal(err)
		}
		q := client.Search().LastName(client.Equal, last).Columns(client.ColRecNo).TagValue(*created.RecNo).MarketingFlag(golf)
		page, err := c.Search(ctx, q)
		if err != nil || len(page.Rows) != 1 {
			t.Fatalf("%v %v", page, err)
		}
		if v, _ := page.Rows[0].String(client.TagColumn(*created.RecNo)); v != "aisle" {
			t.Fatalf("%v", page.Rows[0])
		}
		if v, ok := page.Rows[0].Bool(client.MarketingColumn(golf)); !ok || !v {
			t.Fatalf("%v", page.Rows[0])
		}
	})
}
