package main

import (
	"context"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/wayfarerhq/wayfarer/internal/bench"
)

func benchCommand() *cli.Command {
	return &cli.Command{
		Name:  "bench",
		Usage: "measure person search over HTTP beside the same query run directly on the database",
		Description: `Tops the DEMO agency up to --persons persons (like 'wayfarer demo'), starts the
real server on a loopback port and measures each search of BENCHMARKS.md over
HTTP and directly on the database, at each --concurrency, printing the
Markdown tables of BENCHMARKS.md (p50, p99, throughput, HTTP/direct ratio).

  wayfarer bench --db bench.db --persons 1000000
  wayfarer bench --db postgres://postgres@127.0.0.1:5432/bench --persons 1000000   (with WAYFARER_CARD_KEYS set)`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "persons", Value: 1_000_000, Usage: "persons of the DEMO agency to measure on"},
			&cli.DurationFlag{Name: "duration", Value: 5 * time.Second, Usage: "measuring time per query, mode and concurrency"},
			&cli.DurationFlag{Name: "warmup", Value: time.Second, Usage: "warm-up before each measurement"},
			&cli.StringFlag{Name: "concurrency", Value: "1,16", Usage: "comma-separated concurrency levels"},
			&cli.StringFlag{Name: "queries", Usage: "comma-separated query names to run, by their start (\"a:\", \"b\", \"a,\"...); default all"},
			&cli.StringFlag{Name: "card-key-file", Usage: "card vault key file", Sources: cli.EnvVars("WAYFARER_CARD_KEY_FILE")},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			cfg, err := demoConfig(cmd)
			if err != nil {
				return err
			}
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
			rep, err := bench.Run(ctx, bench.Config{App: cfg, Persons: int(cmd.Int("persons")), Duration: cmd.Duration("duration"),
				Warmup: cmd.Duration("warmup"), Concurrency: levels, Queries: queries, Progress: os.Stderr})
			if err != nil {
				return err
			}
			return rep.WriteMarkdown(os.Stdout)
		},
	}
}
