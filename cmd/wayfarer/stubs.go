package main

import (
	"context"
	"errors"

	"github.com/urfave/cli/v3"
)

// Placeholders, replaced as the demo, bench and client work lands.

func demoCommand() *cli.Command {
	return &cli.Command{Name: "demo", Usage: "create demo data (see --help)", Action: func(ctx context.Context, cmd *cli.Command) error {
		return errors.New("not available yet")
	}}
}

func benchCommand() *cli.Command {
	return &cli.Command{Name: "bench", Usage: "benchmark person search", Action: func(ctx context.Context, cmd *cli.Command) error {
		return errors.New("not available yet")
	}}
}
