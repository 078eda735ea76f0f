package main

// client login, logout and version.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/wayfarerhq/wayfarer/client"
)

func clientLoginCommand() *cli.Command {
	return &cli.Command{
		Name:  "login",
		Usage: "log in and keep the session token (password from a prompt or --password-stdin)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "url", Usage: "server base URL, e.g. http://127.0.0.1:8080 (without a scheme, http:// is assumed)", Required: true, Sources: cli.EnvVars("WAYFARER_URL")},
			&cli.StringFlag{Name: "alias", Usage: "agency alias", Required: true, Sources: cli.EnvVars("WAYFARER_ALIAS")},
			&cli.StringFlag{Name: "user", Usage: "user name", Required: true, Sources: cli.EnvVars("WAYFARER_USER")},
			&cli.BoolFlag{Name: "password-stdin", Usage: "read the password from the first line of stdin"},
			&cli.BoolFlag{Name: "basic", Usage: "log in with GET /login/{alias} and Basic credentials instead of the JSON form"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			path, err := clientSessionPath(cmd)
			if err != nil {
				return err
			}
			pw, err := clientLoginPassword(cmd)
			if err != nil {
				return err
			}
			base, err := clientURL(cmd.String("url"))
			if err != nil {
				return err
			}
			c := client.New(base)
			login := c.Login
			if cmd.Bool("basic") {
				login = c.LoginBasic
			}
			if err := login(ctx, cmd.String("alias"), cmd.String("user"), pw); err != nil {
				return clientLoginError(base, err)
			}
			s := clientSession{URL: c.BaseURL(), Alias: cmd.String("alias"), User: cmd.String("user"), Token: c.Token(), Saved: time.Now()}
			if err := writeClientSession(path, s); err != nil {
				return err
			}
			fmt.Fprintf(cmd.Root().Writer, "logged in to %s at %s as %s (session kept in %s)\n", s.Alias, s.URL, s.User, path)
			return nil
		},
	}
}

func clientLoginPassword(cmd *cli.Command) (string, error) {
	if cmd.Bool("password-stdin") {
		return stdinPassword(cmd)
	}
	f, ok := inputTerminal(cmd)
	if !ok {
		return "", errors.New("no terminal to ask for the password: use --password-stdin")
	}
	return promptPassword(cmd, f, false)
}

func clientLogoutCommand() *cli.Command {
	return &cli.Command{
		Name:  "logout",
		Usage: "end the session on the server and forget it",
		Action: func(ctx context.Context, cmd *cli.Command) error {
			path, err := clientSessionPath(cmd)
			if err != nil {
				return err
			}
			s, err := readClientSession(path)
			if err != nil {
				return err
			}
			err = client.New(s.URL, client.WithToken(s.Token)).Logout(ctx)
			if rmErr := os.Remove(path); rmErr != nil && !errors.Is(rmErr, os.ErrNotExist) {
				return rmErr
			}
			if err != nil && !client.IsSessionEnded(err) {
				return fmt.Errorf("the session file is removed, but the server did not confirm the logout: %w", err)
			}
			fmt.Fprintln(cmd.Root().Writer, "logged out")
			return nil
		},
	}
}

func clientVersionCommand() *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "show the server's contract version (no login needed)",
		ArgsUsage: "[URL]",
		Action: func(ctx context.Context, cmd *cli.Command) error {
			url := cmd.Args().First()
			if url == "" {
				path, err := clientSessionPath(cmd)
				if err != nil {
					return err
				}
				s, err := readClientSession(path)
				if err != nil {
					return errors.New("give the server URL, or log in first")
				}
				url = s.URL
			}
			v, err := client.New(url).Version(ctx)
			if err != nil {
				return err
			}
			shape := "personCardLink (1.8.2)"
			if !v.CardLinks() {
				shape = "flat card array (before 1.8.2): read-only for this client"
			}
			fmt.Fprintf(cmd.Root().Writer, "contract %s, cards as %s", v.Contract, shape)
			if v.Wayfarer != "" {
				fmt.Fprintf(cmd.Root().Writer, ", Wayfarer %s", v.Wayfarer)
			}
			fmt.Fprintln(cmd.Root().Writer)
			return nil
		},
	}
}
