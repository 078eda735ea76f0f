package sdktest

import (
	"context"
	"testing"

	"github.com/wayfarerhq/wayfarer/client"
	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// A host operator (docs/operators.md) logs in through the SDK unchanged:
// the alias with its colon, in either login form, and the agency session
// searches within its grant.
func TestSDKOperatorLogin(t *testing.T) {
	seed := func(a *app.App) error {
		ctx := context.Background()
		if _, err := a.Operators.Create(ctx, "sdk-op", "sdk-op-password"); err != nil {
			return err
		}
		o, err := a.Operators.Operator(ctx, "sdk-op")
		if err != nil {
			return err
		}
		return a.Operators.Grant(ctx, o, alias, map[wayfarer.Area]wayfarer.Permission{
			wayfarer.AreaPerson: wayfarer.PermSelect | wayfarer.PermAllUsers | wayfarer.PermAllBranches})
	}
	testserver.Each(t, testserver.Options{Seed: seed}, func(t *testing.T, s *testserver.Server) {
		ctx := t.Context()
		for _, basic := range []bool{false, true} {
			c := newClient(t, s)
			login := c.Login
			if basic {
				login = c.LoginBasic
			}
			if err := login(ctx, alias+":", "sdk-op", "sdk-op-password"); err != nil {
				t.Fatalf("operator login (basic %v): %v", basic, err)
			}
			if _, err := c.Search(ctx, client.Search().Page(0, 1)); err != nil {
				t.Fatalf("operator search (basic %v): %v", basic, err)
			}
			if err := c.Logout(ctx); err != nil {
				t.Fatal(err)
			}
		}
	})
}
