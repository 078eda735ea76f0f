package main

import (
	"context"

	"wayfarer/internal/app"
	"wayfarer/internal/demo"
)

// seedDemo creates whatever of the demo data is missing.
func seedDemo(ctx context.Context, a *app.App) error {
	return demo.Seed(ctx, a.Admin, a.DB)
}
