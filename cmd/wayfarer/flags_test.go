package main

import (
	"context"
	"testing"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/wayfarerhq/wayfarer/internal/app"
)

// configOf runs a command holding the instance flags and returns the
// configuration they give.
func configOf(t *testing.T, args ...string) app.Config {
	t.Helper()
	var cfg app.Config
	cmd := &cli.Command{Name: "serve", Flags: append(instanceFlags(),
		&cli.StringFlag{Name: "db"}, &cli.BoolFlag{Name: "no-migrate"}),
		Action: func(_ context.Context, cmd *cli.Command) error { cfg = instanceConfig(cmd); return nil }}
	if err := cmd.Run(context.Background(), append([]string{"serve"}, args...)); err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestQueryTimeoutAndSynchronousFlags(t *testing.T) {
	cfg := configOf(t)
	if cfg.QueryTimeout != app.DefaultQueryTimeout || cfg.SQLiteSynchronous != "full" {
		t.Errorf("defaults: %v %q", cfg.QueryTimeout, cfg.SQLiteSynchronous)
	}
	if cfg := configOf(t, "--query-timeout", "250ms", "--sqlite-synchronous", "normal"); cfg.QueryTimeout != 250*time.Millisecond || cfg.SQLiteSynchronous != "normal" {
		t.Errorf("flags: %v %q", cfg.QueryTimeout, cfg.SQLiteSynchronous)
	}
	if cfg := configOf(t, "--query-timeout", "0"); cfg.QueryTimeout >= 0 {
		t.Errorf("--query-timeout 0 is no limit, got %v", cfg.QueryTimeout)
	}
	t.Setenv("WAYFARER_QUERY_TIMEOUT", "3s")
	t.Setenv("WAYFARER_SQLITE_SYNCHRONOUS", "normal")
	if cfg := configOf(t); cfg.QueryTimeout != 3*time.Second || cfg.SQLiteSynchronous != "normal" {
		t.Errorf("environment: %v %q", cfg.QueryTimeout, cfg.SQLiteSynchronous)
	}
}
