package main

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/sqlite"
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

// --sqlite-mmap-size: the default map, a size, 0 for none (negative in
// app.Config), and a negative size refused naming the flag.
func TestSQLiteMmapFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int64
	}{{nil, sqlite.DefaultMmapSize}, {[]string{"--sqlite-mmap-size", "1048576"}, 1 << 20}, {[]string{"--sqlite-mmap-size", "0"}, -1}} {
		if got := configOf(t, tc.args...).SQLiteMmapSize; got != tc.want {
			t.Errorf("%v: SQLiteMmapSize %d, want %d", tc.args, got, tc.want)
		}
	}
	cmd := &cli.Command{Name: "serve", Flags: append(instanceFlags(), &cli.StringFlag{Name: "db"}, &cli.BoolFlag{Name: "no-migrate"}),
		Writer: io.Discard, ErrWriter: io.Discard, Action: func(context.Context, *cli.Command) error { return nil }}
	err := cmd.Run(context.Background(), []string{"serve", "--sqlite-mmap-size", "-1"})
	if err == nil || !strings.Contains(err.Error(), "--sqlite-mmap-size -1: a size in bytes, or 0 for no map") {
		t.Errorf("a negative size: %v, want a refusal naming the flag", err)
	}
}

// oneShotCommands take flags that say what one run does (the agency to
// create, the names to search for, the key to add, the load to bench), not
// how the binary is configured: an environment variable for them would
// silently reach the next run, so they have none (docs/decisions.md,
// "Every flag has an env fallback"). Their parents' flags (--db, --url,
// --token-file, ...) still do.
var oneShotCommands = []string{
	"wayfarer admin ", "wayfarer bench", "wayfarer client login", "wayfarer client search", "wayfarer client get",
	"wayfarer client create", "wayfarer client branches", "wayfarer client profiles", "wayfarer client tags",
	"wayfarer client users", "wayfarer client activities", "wayfarer keys generate", "wayfarer keys add", "wayfarer keys promote",
	"wayfarer keys remove", "wayfarer keys convert",
}

// TestEveryFlagHasAnEnvFallback walks every flag of every subcommand: each
// configuration flag can be set from the environment (a container or unit
// file sets no flags), by a variable named WAYFARER_...
func TestEveryFlagHasAnEnvFallback(t *testing.T) {
	var walk func(path string, c *cli.Command)
	walk = func(path string, c *cli.Command) {
		oneShot := slices.ContainsFunc(oneShotCommands, func(p string) bool { return strings.HasPrefix(path+" ", p) })
		for _, f := range c.Flags {
			name := f.Names()[0]
			if name == "help" || name == "version" || oneShot {
				continue
			}
			ev, ok := f.(interface{ GetEnvVars() []string })
			if !ok || len(ev.GetEnvVars()) == 0 {
				t.Errorf("%s --%s has no env fallback", path, name)
				continue
			}
			for _, v := range ev.GetEnvVars() {
				if !strings.HasPrefix(v, "WAYFARER_") {
					t.Errorf("%s --%s reads %s, not a WAYFARER_ variable", path, name, v)
				}
			}
		}
		for _, sub := range c.Commands {
			walk(path+" "+sub.Name, sub)
		}
	}
	walk("wayfarer", rootCommand())
}

func TestShutdownGraceFromEnv(t *testing.T) {
	t.Setenv("WAYFARER_SHUTDOWN_GRACE", "3s")
	cmd := serveCommand()
	var got time.Duration
	cmd.Action = func(_ context.Context, c *cli.Command) error { got = c.Duration("shutdown-grace"); return nil }
	if err := cmd.Run(context.Background(), []string{"serve"}); err != nil || got != 3*time.Second {
		t.Fatalf("--shutdown-grace from WAYFARER_SHUTDOWN_GRACE: %v %v", got, err)
	}
}
