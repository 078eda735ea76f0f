package main

import (
	"context"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/bench"
	"github.com/wayfarerhq/wayfarer/internal/storage"
)

func benchCommand() *cli.Command {
	return &cli.Command{
		Name:  "bench",
		Usage: "measure person search over HTTP beside the same query run directly on the database",
		Description: `Tops the DEMO agency up to --persons persons (like 'wayfarer demo'), starts the
real server on a loopback port and measures each search of BENCHMARKS.md over
HTTP and directly on the database, at each --concurrency, printing the
Markdown tables of BENCHMARKS.md (p50, p99, throughput, HTTP/direct ratio).

The database must exist: create it first, e.g. with 'wayfarer demo'.

  wayfarer --db bench.db demo --persons 1000000 && wayfarer --db bench.db bench --persons 1000000
  wayfarer bench --db postgres://postgres@127.0.0.1:5432/bench --persons 1000000   (with WAYFARER_CARD_KEYS set)`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "persons", Value: 1_000_000, Usage: "persons of the DEMO agency to measure on"},
			&cli.DurationFlag{Name: "duration", Value: 5 * time.Second, Usage: "measuring time per query, mode and concurrency"},
			&cli.DurationFlag{Name: "warmup", Value: time.Second, Usage: "warm-up before each measurement"},
			&cli.StringFlag{Name: "concurrency", Value: "1,16", Usage: "comma-separated concurrency levels"},
			&cli.StringFlag{Name: "queries", Usage: "comma-separated query names to run, by their start (\"a:\", \"b\", \"a,\"...); default every search and the load; \"save\" (it writes) only when named"},
			&cli.StringFlag{Name: "card-key-file", Usage: "card vault key file", Sources: cli.EnvVars("WAYFARER_CARD_KEY_FILE")},
			sqliteMmapFlag(),
			&cli.IntFlag{Name: "walk", Value: 1000, Usage: "page size of a walk through every person by continuation, after the queries (0: none)"},
			&cli.StringFlag{Name: "cpuprofile", Usage: "write a CPU profile of the whole run (server, driver and clients) to this file, for go tool pprof"},
		},
		Commands: []*cli.Command{floodCommand()},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := storage.MustExist(cmd.String("db")); err != nil {
				return err
			}
			cfg, err := demoConfig(cmd)
			if err != nil {
				return err
			}
			cfg.SQLiteMmapSize = zeroOff(cmd.Int64("sqlite-mmap-size"))
			var levels []int
			for _, s := range strings.Split(cmd.String("concurrency"), ",") {
				n, err := strconv.Atoi(strings.TrimSpace(s))
				if err != nil || n < 1 {
					return cli.Exit("--concurrency: a comma-separated list of positive numbers", 2)
				}
				levels = append(levels, n)
			}
			queries, err := bench.Select(cmd.String("queries"))
			if err != nil {
				return cli.Exit("--queries: "+err.Error(), 2)
			}
			if path := cmd.String("cpuprofile"); path != "" {
				f, err := os.Create(path)
				if err != nil {
					return cli.Exit("--cpuprofile: "+err.Error(), 2)
				}
				defer f.Close()
				if err := pprof.StartCPUProfile(f); err != nil {
					return cli.Exit("--cpuprofile: "+err.Error(), 2)
				}
				defer pprof.StopCPUProfile()
			}
			rep, err := bench.Run(ctx, bench.Config{App: cfg, Persons: int(cmd.Int("persons")), Duration: cmd.Duration("duration"),
				Warmup: cmd.Duration("warmup"), Concurrency: levels, Queries: queries, Progress: os.Stderr, Walk: int(cmd.Int("walk"))})
			if err != nil {
				return err
			}
			return rep.WriteMarkdown(os.Stdout)
		},
	}
}

func floodCommand() *cli.Command {
	return &cli.Command{
		Name:  "flood",
		Usage: "measure person loads with and without a login flood",
		Description: `Starts the real server on a loopback port (production password hashing:
argon2id 64 MiB, t=3, p=2) and loads persons (GET /person/{recNo}) at a
steady --rate, alternately alone and beside --flooders clients logging in back
to back, for --rounds pairs of phases. Prints the Markdown table of
BENCHMARKS.md ("Logins under a flood"): person-load p50/p99 per phase, the
flood's logins by outcome (200, 429, timeouts), and the p99 ratio.

  wayfarer --db /tmp/flood.db migrate up && wayfarer --db /tmp/flood.db bench flood
  wayfarer --db /tmp/flood.db bench flood --hash-slots 2 --hash-wait 250ms`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "rate", Value: 100, Usage: "person loads a second"},
			&cli.IntFlag{Name: "loaders", Value: 4, Usage: "concurrent person-load clients"},
			&cli.IntFlag{Name: "flooders", Value: 32, Usage: "clients logging in back to back during a flood phase"},
			&cli.DurationFlag{Name: "phase", Value: 2 * time.Second, Usage: "length of each phase"},
			&cli.IntFlag{Name: "rounds", Value: 15, Usage: "quiet/flood phase pairs"},
			&cli.IntFlag{Name: "hash-slots", Usage: "password checks at once (default: half the cores, at least 1)", Sources: cli.EnvVars("WAYFARER_HASH_SLOTS")},
			&cli.DurationFlag{Name: "hash-wait", Value: app.DefaultHashWait, Usage: "how long a login waits for a password-check slot before 429 (0: not at all)", Sources: cli.EnvVars("WAYFARER_HASH_WAIT")},
			&cli.BoolFlag{Name: "hash-process", Value: true, Usage: "check passwords in a child process at a low CPU priority (false: in the server process)", Sources: cli.EnvVars("WAYFARER_HASH_PROCESS")},
			&cli.IntFlag{Name: "hash-nice", Value: app.DefaultHashNice, Usage: "nice level of that process (0-19)", Sources: cli.EnvVars("WAYFARER_HASH_NICE")},
			&cli.StringFlag{Name: "card-key-file", Usage: "card vault key file", Sources: cli.EnvVars("WAYFARER_CARD_KEY_FILE")},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := storage.MustExist(cmd.String("db")); err != nil {
				return err
			}
			cfg, err := demoConfig(cmd)
			if err != nil {
				return err
			}
			cfg.HashSlots, cfg.HashWait = int(cmd.Int("hash-slots")), zeroOff(cmd.Duration("hash-wait"))
			cfg.HashProcess, cfg.HashNice = cmd.Bool("hash-process"), int(cmd.Int("hash-nice"))
			rep, err := bench.RunFlood(ctx, bench.FloodConfig{App: cfg, Rate: int(cmd.Int("rate")), Loaders: int(cmd.Int("loaders")),
				Flooders: int(cmd.Int("flooders")), Phase: cmd.Duration("phase"), Rounds: int(cmd.Int("rounds")), Progress: os.Stderr})
			if err != nil {
				return err
			}
			return rep.WriteMarkdown(os.Stdout)
		},
	}
}
