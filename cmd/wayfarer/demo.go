package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/demo"
	"github.com/wayfarerhq/wayfarer/internal/storage"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// demoMemoryLimit is the Go heap's soft limit during a demo load; SQLite's
// page cache (Dialect.bulkBegin) comes on top.
const demoMemoryLimit = 128 << 20

func demoCommand() *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "create the demo data, and as many demo persons as you ask for",
		Description: `Creates the demo agencies and users if missing, then tops the DEMO agency up
to --persons persons, with cards, communications, tags and action items,
showing a progress bar. Running it again adds only what is missing.

  wayfarer demo --persons 1000000 --db bench.db     (about 2 minutes on SQLite)

Credit card numbers are sealed with the card vault key (--card-key-file or
WAYFARER_CARD_KEYS); on SQLite without either, <db>.cardkey is created.`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "persons", Value: demo.DemoPersonCount, Usage: "persons the DEMO agency should have", Sources: cli.EnvVars("WAYFARER_DEMO_PERSONS")},
			&cli.StringFlag{Name: "card-key-file", Usage: "card vault key file", Sources: cli.EnvVars("WAYFARER_CARD_KEY_FILE")},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			cfg, err := demoConfig(cmd)
			if err != nil {
				return err
			}
			a, err := app.Open(ctx, cfg, slog.New(slog.DiscardHandler), wayfarer.SystemClock{})
			if err != nil {
				return err
			}
			defer a.Close()
			if err := demo.Seed(ctx, a.Admin, a.DB); err != nil {
				return err
			}
			// The demo users' password hashes (argon2id, 64 MiB each) left
			// a heap the loader does not need: give it back before the load
			// (target 6 of issue 15: the loader within 300 MB).
			debug.FreeOSMemory()
			// The persons in flight are the loader's Go heap (tens of MB);
			// a soft limit keeps the collector from letting it double
			// (GOMEMLIMIT, when set, decides instead).
			if os.Getenv("GOMEMLIMIT") == "" {
				debug.SetMemoryLimit(demoMemoryLimit)
			}
			start := time.Now()
			added, err := demo.LoadPersons(ctx, a.DB, demo.Alias, int(cmd.Int("persons")), a.Server.Persons.Sealer, os.Stderr)
			if err != nil {
				return err
			}
			fmt.Printf("added %d persons in %s\n", added, time.Since(start).Round(time.Second))
			return nil
		},
	}
}

// demoConfig is the configuration of the tools that create demo data: on
// SQLite without a card key, the key file beside the database (as serve
// --demo does).
func demoConfig(cmd *cli.Command) (app.Config, error) {
	cfg := app.Config{DB: cmd.String("db"), NoMigrate: cmd.Bool("no-migrate"), CardKeyFile: cmd.String("card-key-file"), CardKeys: cardKeysFromEnv()}
	if cfg.HasCardKey() {
		return cfg, nil
	}
	if storage.IsPostgres(cfg.DB) {
		return cfg, app.ErrNoCardKey
	}
	cfg.CardKeyFile = cfg.DB + ".cardkey"
	created, err := ensureCardKeyFile(cfg.CardKeyFile)
	if created {
		fmt.Fprintf(os.Stderr, "created the card encryption key file %s (back it up; it is not in the database)\n", cfg.CardKeyFile)
	}
	return cfg, err
}
