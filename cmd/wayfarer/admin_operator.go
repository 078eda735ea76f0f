package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// operatorCommand is `wayfarer admin operator`: the host's operators
// (docs/operators.md), who log in with GET /login/: (the admin domain) or
// GET /login/{alias}: (an agency granted to them).
func operatorCommand() *cli.Command {
	user := &cli.StringFlag{Name: "user", Usage: "operator name", Required: true}
	alias := &cli.StringFlag{Name: "alias", Usage: "agency alias", Required: true}
	return &cli.Command{Name: "operator", Usage: "host operators: create, list, enable, disable, grant and revoke agencies, set passwords",
		Description: `Operators belong to the host, not to an agency. They log in with
GET /login/: into the admin domain (agencies and users of every agency over
the API) and with GET /login/{alias}: into an agency granted to them, with
the permissions granted there. Every action of an operator is recorded in
the operators' audit (wayfarer admin operator audit).

  wayfarer admin operator create --user ops1 --password-stdin
  wayfarer admin operator grant --user ops1 --alias ACME --person select,read
  wayfarer admin operator revoke --user ops1 --alias ACME

Disabling an operator, changing its password or its grants ends its sessions.`,
		Commands: []*cli.Command{
			{Name: "create", Usage: "create an operator; the password is read from stdin (--password-stdin) or a prompt",
				Flags: []cli.Flag{user, &cli.BoolFlag{Name: "password-stdin", Usage: "read the password from stdin"}},
				Action: adminAction(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
					pw, err := readNewPassword(cmd)
					if err != nil {
						return err
					}
					id, err := a.Operators.Create(ctx, cmd.String("user"), pw)
					if err == nil {
						fmt.Fprintf(cmd.Root().Writer, "created operator %s (recNo %d)\n", strings.TrimSpace(cmd.String("user")), id)
					}
					return err
				})},
			{Name: "list", Usage: "list operators with their grants", Action: adminAction(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
				list, err := a.DB.ListOperators(ctx)
				for _, o := range list {
					state := "enabled"
					if !o.Enabled {
						state = "disabled"
					}
					fmt.Fprintf(cmd.Root().Writer, "%-24s %-9s recNo %d\n", o.Name, state, o.ID)
					for _, g := range o.Grants {
						fmt.Fprintf(cmd.Root().Writer, "    %-16s %s\n", g.Alias, g.Perms)
					}
				}
				return err
			})},
			operatorSubcommand("enable", "enable an operator", nil, user, func(ctx context.Context, cmd *cli.Command, a *app.App, o *wayfarer.Operator) error {
				return a.Operators.SetEnabled(ctx, o, true)
			}),
			operatorSubcommand("disable", "disable an operator (its sessions end)", nil, user, func(ctx context.Context, cmd *cli.Command, a *app.App, o *wayfarer.Operator) error {
				return a.Operators.SetEnabled(ctx, o, false)
			}),
			operatorSubcommand("set-password", "set an operator's password, read from stdin or a prompt (its sessions end)", nil, user,
				func(ctx context.Context, cmd *cli.Command, a *app.App, o *wayfarer.Operator) error {
					pw, err := readNewPassword(cmd)
					if err != nil {
						return err
					}
					return a.Operators.SetPassword(ctx, o, pw)
				}),
			operatorSubcommand("grant", "grant an operator permissions in an agency, per area (the other areas keep theirs; its sessions end)",
				append([]cli.Flag{alias}, areaFlags("")...), user,
				func(ctx context.Context, cmd *cli.Command, a *app.App, o *wayfarer.Operator) error {
					set, err := parseAreaFlags(cmd)
					if err != nil {
						return err
					}
					if len(set) == 0 {
						return fmt.Errorf("give the permissions of at least one area: %s", areaFlagList())
					}
					return a.Operators.Grant(ctx, o, cmd.String("alias"), set)
				}),
			operatorSubcommand("revoke", "take every permission of an operator in an agency away (its sessions end)", []cli.Flag{alias}, user,
				func(ctx context.Context, cmd *cli.Command, a *app.App, o *wayfarer.Operator) error {
					return a.Operators.Revoke(ctx, o, cmd.String("alias"))
				}),
			{Name: "audit", Usage: "show the newest rows of the operators' audit", Flags: []cli.Flag{&cli.IntFlag{Name: "limit", Value: 50}},
				Action: adminAction(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
					rows, err := a.DB.OperatorAudit(ctx, int(max(cmd.Int("limit"), 1)))
					for _, e := range rows {
						fmt.Fprintf(cmd.Root().Writer, "%s  %-16s agency %-4d %-24s %-24s %s\n", e.At.UTC().Format("2006-01-02T15:04:05Z"),
							e.OperatorName, e.AgencyID, e.Action, e.Target, e.Detail)
					}
					return err
				})},
		}}
}

func operatorSubcommand(name, usage string, flags []cli.Flag, user cli.Flag, f func(ctx context.Context, cmd *cli.Command, a *app.App, o *wayfarer.Operator) error) *cli.Command {
	return &cli.Command{Name: name, Usage: usage, Flags: append([]cli.Flag{user}, flags...),
		Action: adminAction(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
			o, err := a.Operators.Operator(ctx, cmd.String("user"))
			if err != nil {
				return err
			}
			if err := f(ctx, cmd, a, o); err != nil {
				return err
			}
			fmt.Fprintf(cmd.Root().Writer, "%s: done for operator %s\n", name, o.Name)
			return nil
		})}
}
