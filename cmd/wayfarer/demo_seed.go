package main

import (
	"context"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/demo"
)

// seedDemo creates whatever of the demo data is missing: agencies and users,
// then the demo agency's persons (once). Instances starting together on one
// PostgreSQL database take turns, so the second finds the data there.
func seedDemo(ctx context.Context, a *app.App) error {
	return a.DB.Exclusive(ctx, "demo-data", func(ctx context.Context) error {
		if err := demo.Seed(ctx, a.Admin, a.DB); err != nil {
			return err
		}
		_, err := demo.SeedPersons(ctx, a.DB, a.Server.Persons.Sealer)
		return err
	})
}
