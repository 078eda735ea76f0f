package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/storage"
	"github.com/wayfarerhq/wayfarer/internal/vault"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// cardKeysFromEnv is the card vault key text from the environment, the one
// place besides a key file that keys may come from (never the database).
func cardKeysFromEnv() string { return os.Getenv(vault.EnvVar) }

func ensureCardKeyFile(path string) (bool, error) { return vault.EnsureKeyFile(path) }

func keysCommand() *cli.Command {
	keyFile := func(required bool) *cli.StringFlag {
		return &cli.StringFlag{Name: "card-key-file", Usage: "card key file", Required: required, Sources: cli.EnvVars("WAYFARER_CARD_KEY_FILE")}
	}
	id := &cli.StringFlag{Name: "id", Usage: "key id: 1 to 32 of a-z, 0-9, _ and - (default k<yyyymmdd>)"}
	out := &cli.StringFlag{Name: "out", Usage: "write to this new file (mode 0600) instead of standard output"}
	return &cli.Command{
		Name:  "keys",
		Usage: "create, rotate and check the card encryption keys",
		Description: `Card numbers are sealed with AES-256-GCM keys of a Tink keyset, kept in a
card key file (--card-key-file, mode 0600) or in WAYFARER_CARD_KEYS, never
in the database. The format and the rotation steps: docs/deployment.md,
"Card keys".

  wayfarer keys generate --out /etc/wayfarer/cardkeys.json      a new key file
  wayfarer keys add --card-key-file F --id k2027                 a new key beside the current one
  wayfarer keys promote --card-key-file F --id k2027             seal new numbers under it
  wayfarer keys rotate --card-key-file F                         re-encrypt every card under it
  wayfarer keys remove --card-key-file F --id k2026              drop a key no card uses
  wayfarer keys list                                             show the keyset
  wayfarer keys convert --card-key-file OLD --out NEW            old id:base64 text to a key file`,
		Commands: []*cli.Command{
			{Name: "generate", Usage: "print a new card key file with one fresh key", Flags: []cli.Flag{id, out},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					doc, err := vault.GenerateKeyFile(keyIDFlag(cmd))
					if err != nil {
						return err
					}
					return writeKeyOutput(cmd, doc)
				}},
			{Name: "list", Usage: "check the card keyset and list its keys (never their material)", Flags: []cli.Flag{keyFile(false)},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					ks, err := vault.LoadKeyset(cmd.String("card-key-file"), cardKeysFromEnv())
					if err != nil {
						return err
					}
					w := cmd.Root().Writer
					if ks.Legacy() {
						fmt.Fprintln(w, "old id:base64 key text (works; convert it with: wayfarer keys convert --out <new file>)")
					}
					fmt.Fprintf(w, "%-32s %-9s %-5s %-12s %s\n", "ID", "STATUS", "PREFIX", "TINK KEY ID", "")
					for _, k := range ks.Keys() {
						primary := ""
						if k.Primary {
							primary = "primary"
						}
						fmt.Fprintf(w, "%-32s %-9s %-5s %-12d %s\n", k.ID, k.Status, k.Prefix, k.TinkKeyID, primary)
					}
					return nil
				}},
			{Name: "add", Usage: "add a fresh key to the key file", Flags: []cli.Flag{keyFile(true), id,
				&cli.BoolFlag{Name: "primary", Usage: "make it the primary at once (with several instances: add everywhere first, then promote)"}},
				Action: editKeyFile(func(cmd *cli.Command, ks *vault.Keyset) (string, error) {
					id := keyIDFlag(cmd)
					if err := ks.Add(id, cmd.Bool("primary")); err != nil {
						return "", err
					}
					if cmd.Bool("primary") {
						return fmt.Sprintf("added key %s as the primary; restart the instances, then run 'wayfarer keys rotate'", id), nil
					}
					return fmt.Sprintf("added key %s; once every instance has it, run 'wayfarer keys promote --id %s'", id, id), nil
				})},
			{Name: "promote", Usage: "make a key of the key file the primary", Flags: []cli.Flag{keyFile(true), requiredID()},
				Action: editKeyFile(func(cmd *cli.Command, ks *vault.Keyset) (string, error) {
					if err := ks.Promote(cmd.String("id")); err != nil {
						return "", err
					}
					return fmt.Sprintf("key %s is the primary; restart the instances, then run 'wayfarer keys rotate'", cmd.String("id")), nil
				})},
			{Name: "remove", Usage: "remove a key that seals no card in the database (--db)", Flags: []cli.Flag{keyFile(true), requiredID()},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					n, err := cardsUnderKey(ctx, cmd, cmd.String("id"))
					if err != nil {
						return err
					}
					if n > 0 {
						return fmt.Errorf("%d card number(s) in %s are still sealed under key %s: run 'wayfarer keys rotate' first",
							n, storage.Redact(cmd.String("db")), cmd.String("id"))
					}
					return editKeyFile(func(cmd *cli.Command, ks *vault.Keyset) (string, error) {
						if err := ks.Remove(cmd.String("id")); err != nil {
							return "", err
						}
						return fmt.Sprintf("removed key %s (keep a backup of the old file until every instance runs without it)", cmd.String("id")), nil
					})(ctx, cmd)
				}},
			{Name: "convert", Usage: "write the old id:base64 key text as a card key file (same keys, same ids)", Flags: []cli.Flag{keyFile(false), out},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					ks, err := vault.LoadKeyset(cmd.String("card-key-file"), cardKeysFromEnv())
					if err != nil {
						return err
					}
					if !ks.Legacy() {
						return errors.New("the keys are a card key document already: nothing to convert")
					}
					doc, err := ks.Marshal()
					if err != nil {
						return err
					}
					return writeKeyOutput(cmd, doc)
				}},
			keysRotateCommand(keyFile(false)),
		},
	}
}

func requiredID() cli.Flag { return &cli.StringFlag{Name: "id", Usage: "key id", Required: true} }

func keyIDFlag(cmd *cli.Command) string {
	if id := cmd.String("id"); id != "" {
		return id
	}
	return vault.DefaultKeyID()
}

// writeKeyOutput writes a card key document to --out (a new 0600 file) or
// to standard output.
func writeKeyOutput(cmd *cli.Command, doc []byte) error {
	defer clear(doc)
	if path := cmd.String("out"); path != "" {
		if err := vault.CreateKeyFile(path, doc); err != nil {
			if errors.Is(err, os.ErrExist) {
				return fmt.Errorf("%s exists: choose a new file (keys are never overwritten)", path)
			}
			return err
		}
		fmt.Fprintf(cmd.Root().ErrWriter, "wrote %s (mode 0600); back it up apart from the database\n", path)
		return nil
	}
	_, err := cmd.Root().Writer.Write(doc)
	return err
}

// editKeyFile reads --card-key-file, lets f change the keyset and writes it
// back atomically.
func editKeyFile(f func(*cli.Command, *vault.Keyset) (string, error)) cli.ActionFunc {
	return func(ctx context.Context, cmd *cli.Command) error {
		path := cmd.String("card-key-file")
		ks, err := vault.ReadKeyFile(path)
		if err != nil {
			return err
		}
		if ks.Legacy() {
			return fmt.Errorf("%s holds the old id:base64 key text: convert it first (wayfarer keys convert --card-key-file %s --out <new file>)", path, path)
		}
		msg, err := f(cmd, ks)
		if err != nil {
			return err
		}
		doc, err := ks.Marshal()
		if err != nil {
			return err
		}
		defer clear(doc)
		if err := vault.ReplaceKeyFile(path, doc); err != nil {
			return err
		}
		fmt.Fprintln(cmd.Root().Writer, msg)
		if cardKeysFromEnv() != "" {
			fmt.Fprintf(cmd.Root().ErrWriter, "note: %s is set and wins over the key file at start-up\n", vault.EnvVar)
		}
		return nil
	}
}

func cardsUnderKey(ctx context.Context, cmd *cli.Command, id string) (int64, error) {
	var n int64
	err := withDB(ctx, cmd, func(db *sqlstore.DB) error {
		if pending, err := db.MigrationsPending(ctx); err != nil || pending {
			return errors.Join(err, errors.New("the database has pending migrations: run 'wayfarer migrate up' first"))
		}
		var err error
		n, err = db.CountSealedCards(ctx, id)
		return err
	})
	return n, err
}

func keysRotateCommand(keyFile cli.Flag) *cli.Command {
	return &cli.Command{
		Name:  "rotate",
		Usage: "re-encrypt every card number under the primary key, while the server runs",
		Description: `Reads the cards sealed under any key but the keyset's primary, a batch at a
time, and writes each batch back under the primary in its own short
transaction. A save racing with it keeps its value. Stop it at any time
(Ctrl-C, --max-batches): running it again goes on where it stopped. Every
instance must have the new primary before (restart them after 'keys
promote'), or an instance still sealing under the old key leaves cards for
the next run.`,
		Flags: []cli.Flag{keyFile,
			&cli.IntFlag{Name: "batch-size", Value: app.DefaultRotateBatch, Usage: fmt.Sprintf("cards per transaction (at most %d)", app.MaxRotateBatch),
				Sources: cli.EnvVars("WAYFARER_ROTATE_BATCH_SIZE")},
			&cli.IntFlag{Name: "max-batches", Usage: "stop after this many batches (0: until done)", Sources: cli.EnvVars("WAYFARER_ROTATE_MAX_BATCHES")},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			log, err := newLogger(cmd)
			if err != nil {
				return err
			}
			if err := storage.MustExist(cmd.String("db")); err != nil {
				return err
			}
			cfg := app.Config{DB: cmd.String("db"), NoMigrate: cmd.Bool("no-migrate"),
				CardKeyFile: cmd.String("card-key-file"), CardKeys: cardKeysFromEnv()}
			if !cfg.HasCardKey() {
				return app.ErrNoCardKey
			}
			a, err := app.Open(ctx, cfg, log, wayfarer.SystemClock{})
			if err != nil {
				return err
			}
			defer a.Close()
			res, err := app.RotateCardKeys(ctx, a.DB, a.CardKeys, app.RotateOptions{
				BatchSize: int(cmd.Int("batch-size")), MaxBatches: int(cmd.Int("max-batches")), Log: log,
				Progress: func(p app.RotateProgress) { printRotateProgress(cmd.Root().ErrWriter, p) },
			})
			printRotateSummary(cmd.Root().Writer, res)
			if err != nil {
				return err
			}
			if len(res.Failed) > 0 {
				return fmt.Errorf("%d card number(s) could not be opened (logged with record number and key id); the others are done", len(res.Failed))
			}
			return nil
		},
	}
}

func printRotateProgress(w io.Writer, p app.RotateProgress) {
	fmt.Fprintf(w, "rotating %s -> %s: %d/%d cards (%.0f/s)\n", p.From, p.To, p.Done, p.Total, p.PerSecond)
}

func printRotateSummary(w io.Writer, r app.RotateResult) {
	var b strings.Builder
	fmt.Fprintf(&b, "%d card(s) re-encrypted under %s in %s", r.Resealed, r.To, r.Elapsed.Round(1e6))
	if r.Skipped > 0 {
		fmt.Fprintf(&b, ", %d changed by a save meanwhile (already under the new key)", r.Skipped)
	}
	if len(r.Failed) > 0 {
		fmt.Fprintf(&b, ", %d could not be opened", len(r.Failed))
	}
	switch {
	case r.Remaining == 0:
		fmt.Fprintf(&b, "; every card is under %s", r.To)
	case r.Stopped:
		fmt.Fprintf(&b, "; stopped with %d card(s) under other keys: run it again to go on", r.Remaining)
	default:
		fmt.Fprintf(&b, "; %d card(s) remain under other keys", r.Remaining)
	}
	fmt.Fprintln(w, b.String())
}
