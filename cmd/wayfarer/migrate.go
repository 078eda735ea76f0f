package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/storage"
)

func migrateCommand() *cli.Command {
	return &cli.Command{
		Name:  "migrate",
		Usage: "apply or list schema migrations (serve applies them too)",
		Description: `Migrations only go forward. On PostgreSQL an advisory lock lets instances that
start at once migrate one after another.`,
		Commands: []*cli.Command{
			{Name: "up", Usage: "apply every pending migration", Action: func(ctx context.Context, cmd *cli.Command) error {
				return withDB(ctx, cmd, func(db *sqlstore.DB) error {
					n, err := db.Migrate(ctx)
					if err != nil {
						return err
					}
					fmt.Fprintf(cmd.Root().Writer, "applied %d migration(s)\n", n)
					return nil
				})
			}},
			{Name: "status", Usage: "list migrations and whether they ran", Action: func(ctx context.Context, cmd *cli.Command) error {
				if err := storage.MustExist(cmd.String("db")); err != nil {
					return err
				}
				return withDB(ctx, cmd, func(db *sqlstore.DB) error {
					st, err := db.MigrationStatus(ctx)
					if err != nil {
						return err
					}
					for _, s := range st {
						state := "pending"
						if s.Applied {
							state = "applied " + s.AppliedAt.UTC().Format("2006-01-02 15:04:05")
						}
						fmt.Fprintf(cmd.Root().Writer, "%05d  %-32s %s\n", s.Version, s.Name, state)
					}
					return nil
				})
			}},
		},
	}
}

func withDB(ctx context.Context, cmd *cli.Command, f func(*sqlstore.DB) error) error {
	db, err := storage.Open(cmd.String("db"), "")
	if err != nil {
		return err
	}
	defer db.Close()
	return f(db)
}
