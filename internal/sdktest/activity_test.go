package sdktest

import (
	"context"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/client"
	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// The SDK's activity calls against a real server: create, load, update
// (old/new), search, and a person search by activity.
func TestActivities(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := context.Background()
		c := newClient(t, s, client.WithCredentials(alias, admin, adminPW))
		seedSearch(t, c, "Zyblerk/Ken", "Zyblerk/Hale")
		page, err := c.Search(ctx, client.Search().LastName(client.Equal, "zyblerk").Columns(client.ColRecNo, client.ColName))
		if err != nil || len(page.Rows) != 2 {
			t.Fatalf("%v %v", page, err)
		}
		ken := page.Rows[1].RecNo() // Zyblerk/Hale sorts first

		due := client.NewDate(2026, 11, 24)
		a := client.NewActivity(contract.ActivityTypeTask, contract.ActivityPriorityHigh, "Final Payment Due", ken)
		a.TargetDate = &due
		saved, err := c.CreateActivity(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		if saved.RecNo == nil || saved.AppUserID == nil || *saved.AppUserID != admin || saved.TargetDate == nil || *saved.TargetDate != due ||
			saved.PersonLink == nil || *saved.PersonLink.PersonName != "Zyblerk/Ken" {
			t.Fatalf("saved %+v", saved)
		}
		loaded, err := c.LoadActivity(ctx, *saved.RecNo)
		if err != nil || *loaded.Subject != "Final Payment Due" {
			t.Fatalf("%+v %v", loaded, err)
		}
		if _, err := c.LoadActivity(ctx, 999999); !client.IsNotFound(err) {
			t.Fatalf("missing: %v", err)
		}
		done, err := c.UpdateActivity(ctx, *saved.RecNo, func(a *client.Activity) error {
			remarks := "paid"
			a.Remarks = &remarks
			return nil
		})
		if err != nil || *done.Remarks != "paid" {
			t.Fatalf("%+v %v", done, err)
		}

		open := client.Activities().Types(contract.ActivityTypeTask).Open().Due(client.NewDate(2026, 11, 23), client.NewDate(2026, 11, 29))
		rows, err := c.SearchActivities(ctx, open.Columns("recNo", "subject", "personName"))
		if err != nil || len(rows.Rows) != 1 || rows.Rows[0].RecNo() != *saved.RecNo || rows.Rows[0].Text("personName") != "Zyblerk/Ken" {
			t.Fatalf("%+v %v", rows, err)
		}
		persons, err := c.Search(ctx, client.Search().Columns(client.ColName).
			HavingActivity(client.Activities().Types(contract.ActivityTypeTask).Open()))
		if err != nil || len(persons.Rows) != 1 || persons.Rows[0].Text(client.ColName) != "Zyblerk/Ken" {
			t.Fatalf("%+v %v", persons, err)
		}
		if _, err := c.Search(ctx, client.Search().HavingActivity(client.Activities().Page(0, 5))); err == nil || !strings.Contains(err.Error(), "filters only") {
			t.Fatalf("paging inside: %v", err)
		}
	})
}
