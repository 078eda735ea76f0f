// Command wayfarer is the Wayfarer server and its tools: serve, migrate,
// admin, demo, bench and client.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/urfave/cli/v3"

	"github.com/wayfarerhq/wayfarer/internal/password"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func main() {
	password.ServeWorkerIfChild() // a password worker started by serve runs no command
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := rootCommand().Run(ctx, os.Args); err != nil {
		if e := wayfarer.AsError(err); e != nil && e.Method == wayfarer.MethodAdmin {
			err = errors.New(e.Message) // an admin rule's refusal: its words, without the API's code
		}
		fmt.Fprintln(os.Stderr, errorLine(err))
		os.Exit(1)
	}
}

func rootCommand() *cli.Command {
	return &cli.Command{
		Name:    "wayfarer",
		Version: version,
		Usage:   "the travel agency login and person service",
		Description: `Wayfarer serves agency logins and travelers ("persons") with their cards over JSON.

Start here:
  wayfarer serve --demo          run on ./wayfarer.db with demo agencies, users and persons
  wayfarer admin --help          create agencies, branches, advisors and users
  wayfarer migrate status        see which schema migrations ran

The database is a SQLite file by default (--db, WAYFARER_DB); a postgres:// URL selects PostgreSQL.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "db", Value: "wayfarer.db", Usage: "SQLite file path, or a postgres:// URL", Sources: cli.EnvVars("WAYFARER_DB")},
			&cli.StringFlag{Name: "log-format", Value: "text", Usage: "log format: text or json", Sources: cli.EnvVars("WAYFARER_LOG_FORMAT")},
			&cli.StringFlag{Name: "log-level", Value: "info", Usage: "log level: debug, info, warn or error", Sources: cli.EnvVars("WAYFARER_LOG_LEVEL")},
			&cli.BoolFlag{Name: "no-migrate", Usage: "do not apply pending migrations on start-up; refuse to start while any are pending (run 'wayfarer migrate up' first)", Sources: cli.EnvVars("WAYFARER_NO_MIGRATE")},
		},
		Commands: []*cli.Command{serveCommand(), migrateCommand(), adminCommand(), demoCommand(), benchCommand(), clientCommand(),
			keysCommand(), healthcheckCommand()},
	}
}

// errorLine is how a failed command reports: "wayfarer: <sentence>", once
// (an error that already starts with the program's name, as the SDK's do,
// gets no second prefix).
func errorLine(err error) string {
	msg := err.Error()
	if strings.HasPrefix(msg, "wayfarer ") || strings.HasPrefix(msg, "wayfarer:") {
		return msg
	}
	return "wayfarer: " + msg
}

// newLogger builds the structured logger the flags ask for, on stderr.
func newLogger(cmd *cli.Command) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(cmd.String("log-level"))); err != nil {
		return nil, fmt.Errorf("--log-level must be debug, info, warn or error, not %q", cmd.String("log-level"))
	}
	opts := &slog.HandlerOptions{Level: level}
	switch cmd.String("log-format") {
	case "text":
		return slog.New(slog.NewTextHandler(os.Stderr, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(os.Stderr, opts)), nil
	}
	return nil, fmt.Errorf("--log-format must be text or json")
}
