package sdktest

import (
	"context"
	"errors"
	"testing"

	"github.com/wayfarerhq/wayfarer/client"
	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// TestLookups: the SDK's look-up calls against a real server's demo data.
func TestLookups(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := context.Background()
		c := loggedIn(t, s)
		name := client.Column("name")

		rows, err := c.SearchBranches(ctx, &contract.BranchSearchRequest{Name: contract.NewStringSearchParam(5, "H")})
		if err != nil || len(rows) != 1 || rows[0].Text(name) != "Harbor" {
			t.Fatalf("branches starting with H: %v %v", rows, err)
		}
		b, err := c.LoadBranch(ctx, rows[0].RecNo())
		if err != nil || b.Name != "Harbor" || b.RecNo != rows[0].RecNo() || b.ActiveStatus != 1 {
			t.Fatalf("LoadBranch: %+v %v", b, err)
		}
		if _, err := c.LoadBranch(ctx, 987654); !client.IsNotFound(err) || !errors.Is(err, client.ErrNotFound) ||
			err.Error() != "wayfarer branch 987654: no such branch within your reach" {
			t.Errorf("a missing branch: %v", err)
		}
		if rows, err := c.SearchBranches(ctx, &contract.BranchSearchRequest{Name: contract.NewStringSearchParam(1, "Nowhere")}); err != nil || len(rows) != 0 {
			t.Errorf("nothing found (204) is no rows: %v %v", rows, err)
		}

		rows, err = c.SearchProfiles(ctx, &contract.ProfileSearchRequest{
			ProfileType: contract.ShortSet{client.ProfileTypeAdvisor}, ActiveStatus: contract.StatusSet{1},
			SearchBase: contract.SearchBase{IncludeCols: []string{"recNo", "name", "profileType"}}})
		if err != nil || len(rows) != 3 || rows[0].Text(name) != "Alice Advisor" {
			t.Fatalf("advisors: %v %v", rows, err)
		}
		if typ, _ := rows[0].Int("profileType"); typ != int64(client.ProfileTypeAdvisor) {
			t.Errorf("profileType: %v", rows[0])
		}

		enabled := true
		rows, err = c.SearchAppUsers(ctx, &contract.AppUserSearchRequest{ID: contract.NewStringSearchParam(1, "agent"), Enabled: &enabled})
		if err != nil || len(rows) != 1 || rows[0].Text(name) != "Alice Agent" || rows[0].Text("id") != "agent" {
			t.Fatalf("app users: %v %v", rows, err)
		}
		_, err = c.SearchAppUsers(ctx, &contract.AppUserSearchRequest{SearchBase: contract.SearchBase{IncludeCols: []string{"BOGUS"}}})
		var e *client.Error
		if !errors.As(err, &e) || e.Status != 400 || e.ResultCode != contract.CodeInvalidColumn || e.Description != "Invalid column: BOGUS" {
			t.Errorf("BOGUS: %v", err)
		}
	})
}
