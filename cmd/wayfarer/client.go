package main

// The client command: the Go client (module github.com/wayfarerhq/wayfarer/client)
// from the command line. This file holds the command and its session file.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/wayfarerhq/wayfarer/client"
)

func clientCommand() *cli.Command {
	return &cli.Command{
		Name:  "client",
		Usage: "use a Wayfarer server from the command line (login, search, get, create, edit, activities, logout)",
		Description: `Examples:
  wayfarer client login --url http://127.0.0.1:8080 --alias DEMO --user admin
  wayfarer client search --last-name Abl --cols recNo,name,primaryEmail
  wayfarer client search --email example.com --match contains --json
  wayfarer client activities --type task --open --due-from 2026-11-23 --due-to 2026-11-29
  wayfarer client get 42
  wayfarer client search --last-name Abl --tag-value 1 --marketing-flag 2
  wayfarer client tags 1 2
  wayfarer client affiliation 3
  wayfarer client create person.json
  EDITOR=nano wayfarer client edit 42
  wayfarer client logout

login keeps the session token in a file only you can read (--session); the
other commands use it and extend it when it is older than 10 minutes.
Tokens and passwords are never printed.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "session", Usage: "session file (default: <user config dir>/wayfarer/session.json)", Sources: cli.EnvVars("WAYFARER_SESSION")},
		},
		Commands: []*cli.Command{
			clientLoginCommand(), clientLogoutCommand(), clientSearchCommand(), clientGetCommand(),
			clientCreateCommand(), clientEditCommand(), clientVersionCommand(), clientActivitiesCommand(),
			clientBranchesCommand(), clientProfilesCommand(), clientUsersCommand(),
			clientTagsCommand(), clientAffiliationCommand(),
		},
	}
}

// session is what login keeps between commands.
type clientSession struct {
	URL   string    `json:"url"`
	Alias string    `json:"alias"`
	User  string    `json:"user"`
	Token string    `json:"token"`
	Saved time.Time `json:"saved"`
}

// clientRefreshAfter is when a command extends the session before using it
// (tokens live 30 minutes by default).
const clientRefreshAfter = 10 * time.Minute

func clientSessionPath(cmd *cli.Command) (string, error) {
	if p := cmd.String("session"); p != "" {
		return p, nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no user config directory (%v): use --session", err)
	}
	return filepath.Join(dir, "wayfarer", "session.json"), nil
}

// writeClientSession replaces the file atomically; it is created 0600 in a 0700
// directory because the token is the session.
func writeClientSession(path string, s clientSession) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".session-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

func readClientSession(path string) (clientSession, error) {
	var s clientSession
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return s, errors.New("not logged in: run `wayfarer client login` first")
	}
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(b, &s); err != nil || s.URL == "" || s.Token == "" {
		return s, fmt.Errorf("the session file %s is damaged: log in again", path)
	}
	return s, nil
}

// connect opens the kept session, extending it when it is getting old. New
// tokens are written back to the session file.
func clientConnect(ctx context.Context, cmd *cli.Command) (*client.Client, error) {
	path, err := clientSessionPath(cmd)
	if err != nil {
		return nil, err
	}
	s, err := readClientSession(path)
	if err != nil {
		return nil, err
	}
	var saveErr error
	c := client.New(s.URL, client.WithToken(s.Token), client.WithTokenHook(func(tok string) {
		if tok != "" {
			s.Token, s.Saved = tok, time.Now()
			saveErr = writeClientSession(path, s)
		}
	}))
	if time.Since(s.Saved) > clientRefreshAfter {
		if err := c.Refresh(ctx); err != nil {
			return nil, clientCLIError(err)
		}
		if saveErr != nil {
			return nil, fmt.Errorf("keeping the refreshed session: %w", saveErr)
		}
	}
	return c, nil
}

// clientCLIError turns an ended session into advice, and the server's
// refusals into sentences (the SDK's "wayfarer person: 400 ..." would
// otherwise follow main's own "wayfarer: ").
func clientCLIError(err error) error {
	var e *client.Error
	switch {
	case client.IsSessionEnded(err):
		return fmt.Errorf("the session has ended (%v): run `wayfarer client login` again", err)
	case client.IsNotFound(err):
		return err
	case errors.As(err, &e):
		return fmt.Errorf("the server refused the request (%d, resultCode %d): %s", e.Status, e.ResultCode, e.Description)
	}
	return err
}
