package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/urfave/cli/v3"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/storage"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

func adminCommand() *cli.Command {
	alias := &cli.StringFlag{Name: "alias", Usage: "agency alias", Required: true}
	user := &cli.StringFlag{Name: "user", Usage: "user name", Required: true}
	return &cli.Command{
		Name:  "admin",
		Usage: "administer agencies, branches, advisors, users, tags and affiliations on the database (--db)",
		Description: `Examples:
  wayfarer admin agency create --alias ACME --name "Acme Travel"
  wayfarer admin branch create --alias ACME --name Downtown
  wayfarer admin advisor create --alias ACME --name "Ann Advisor" --branch Downtown
  wayfarer admin user create --alias ACME --user ann --type user --branch Downtown --person select,read,insert,update --tag select,read
  wayfarer admin user set-permissions --alias ACME --user ann --activity select,read,insert   (other areas keep theirs)
  wayfarer admin user set-password --alias ACME --user ann     (reads the password from stdin or a prompt)
  wayfarer admin user link-advisor --alias ACME --user ann --advisor "Ann Advisor"
  wayfarer admin tag create --alias ACME --name "Seat preference" --value aisle --value window --requirement recommended
  wayfarer admin affiliation create --alias ACME --name Virtuoso
  wayfarer admin marketing create --alias ACME --affiliation Virtuoso --category Interests --id 12575 --name Golf
  wayfarer admin operator create --user ops1 --password-stdin   (host operators: docs/operators.md)

Changing a user's password, permissions, branch or advisors, disabling or
locking the user, and disabling or cancelling an agency end the sessions
concerned at once, also on running servers (within a second).

Permissions are given per area, one flag each: ` + areaFlagList() + `.
Permission names: select, read, insert, update, delete, allusers,
allbranches, decrypt, export, import, all, none. Without allusers in an area
a user reaches only records of its linked advisors; without allbranches only
its branch's.`,
		Commands: append([]*cli.Command{
			{Name: "agency", Usage: "create, list, enable, disable or cancel agencies", Commands: []*cli.Command{
				{Name: "create", Usage: "create an agency", Flags: []cli.Flag{alias,
					&cli.StringFlag{Name: "name", Usage: "display name"},
					&cli.StringFlag{Name: "status", Value: "active", Usage: "active, disabled, cancelled or uninitialized"},
					&cli.IntFlag{Name: "max-password-age-days", Value: 0, Usage: "passwords older than this are expired (0: never)"}},
					Action: adminAction(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
						st, ok := wayfarer.ParseAgencyStatus(cmd.String("status"))
						if !ok {
							return fmt.Errorf("--status: unknown status %q", cmd.String("status"))
						}
						id, err := a.Admin.CreateAgency(ctx, cmd.String("alias"), cmd.String("name"), st, int(cmd.Int("max-password-age-days")))
						if err == nil {
							fmt.Fprintf(cmd.Root().Writer, "created agency %s (recNo %d, %s)\n", wayfarer.NormalizeAlias(cmd.String("alias")), id, st)
						}
						return err
					})},
				{Name: "list", Usage: "list agencies", Action: adminAction(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
					list, err := a.DB.ListAgencies(ctx)
					for _, ag := range list {
						fmt.Fprintf(cmd.Root().Writer, "%-16s %-14s recNo %-6d %s\n", ag.Alias, ag.Status, ag.ID, ag.Name)
					}
					return err
				})},
				agencyStatusCommand("enable", "activate an agency (also initializes a new one)", wayfarer.AgencyActive, alias),
				agencyStatusCommand("disable", "disable an agency (its sessions end)", wayfarer.AgencyDisabled, alias),
				agencyStatusCommand("cancel", "cancel an agency (its sessions end)", wayfarer.AgencyCancelled, alias),
			}},
			{Name: "branch", Usage: "create branches", Commands: []*cli.Command{
				{Name: "create", Usage: "create a branch", Flags: []cli.Flag{alias, &cli.StringFlag{Name: "name", Required: true}},
					Action: adminAction(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
						ag, err := a.Admin.Agency(ctx, cmd.String("alias"))
						if err != nil {
							return err
						}
						id, err := a.DB.CreateBranch(ctx, ag.ID, cmd.String("name"))
						if err == nil {
							fmt.Fprintf(cmd.Root().Writer, "created branch %q (recNo %d)\n", cmd.String("name"), id)
						}
						return err
					})},
			}},
			profileCommand("advisor", "advisor profiles (persons have one; users link to them)", wayfarer.ProfileAdvisor, alias),
			profileCommand("client-profile", "client profiles persons can be associated with", wayfarer.ProfileClient, alias),
			{Name: "user", Usage: "create and change app users", Commands: []*cli.Command{
				{Name: "create", Usage: "create a user (add --password-stdin to set its password at once)", Flags: append([]cli.Flag{alias, user,
					&cli.StringFlag{Name: "type", Value: "user", Usage: "user, manager or admin"},
					&cli.StringFlag{Name: "branch", Usage: "branch name"},
					&cli.StringFlag{Name: "name", Usage: "display name (shown by appUserSearch)"},
					&cli.StringFlag{Name: "email", Usage: "email address (shown by appUserSearch)"},
					&cli.BoolFlag{Name: "non-expiring-password", Usage: "the agency's maximum password age does not apply"},
					&cli.BoolFlag{Name: "disabled", Usage: "create the user disabled"},
					&cli.BoolFlag{Name: "password-stdin", Usage: "read the password from stdin"}},
					areaFlags("none")...),
					Action: adminAction(createUser)},
				{Name: "list", Usage: "list an agency's users", Flags: []cli.Flag{alias}, Action: adminAction(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
					ag, err := a.Admin.Agency(ctx, cmd.String("alias"))
					if err != nil {
						return err
					}
					users, err := a.DB.ListUsers(ctx, ag.ID, a.Clock.Now())
					for _, u := range users {
						state := "enabled"
						if !u.Enabled {
							state = "disabled"
						}
						if u.Locked {
							state += ",locked"
						}
						if u.LockedOut {
							state += ",locked-out"
						}
						fmt.Fprintf(cmd.Root().Writer, "%-16s %-8s %-16s %s\n", u.UserName, u.Type, state, u.Perms)
					}
					return err
				})},
				userCommand("set-password", "set a user's password, read from stdin (never from the command line)", nil, alias, user,
					func(ctx context.Context, cmd *cli.Command, a *app.App, u *wayfarer.User) error {
						pw, err := readNewPassword(cmd)
						if err != nil {
							return err
						}
						return a.Admin.SetPassword(ctx, u.AgencyID, u.ID, pw)
					}),
				userCommand("set-permissions", "replace a user's permissions in the areas given (the others keep theirs); its sessions end", areaFlags(""), alias, user,
					func(ctx context.Context, cmd *cli.Command, a *app.App, u *wayfarer.User) error {
						set, err := parseAreaFlags(cmd)
						if err != nil {
							return err
						}
						if len(set) == 0 {
							return fmt.Errorf("give the permissions of at least one area: %s", areaFlagList())
						}
						return a.Admin.SetPermissions(ctx, u, set)
					}),
				userCommand("set-branch", "move a user to a branch (--branch \"\": none); its sessions end", []cli.Flag{&cli.StringFlag{Name: "branch", Required: true, Usage: "branch name"}}, alias, user,
					func(ctx context.Context, cmd *cli.Command, a *app.App, u *wayfarer.User) error {
						return a.Admin.SetBranch(ctx, u, cmd.String("branch"))
					}),
				userCommand("link-advisor", "link a user to advisor profiles (repeat --advisor); its sessions end", []cli.Flag{&cli.StringSliceFlag{Name: "advisor", Required: true, Usage: "advisor profile name"}}, alias, user,
					func(ctx context.Context, cmd *cli.Command, a *app.App, u *wayfarer.User) error {
						for _, name := range cmd.StringSlice("advisor") {
							if err := a.Admin.LinkAdvisor(ctx, u, name); err != nil {
								return err
							}
						}
						return nil
					}),
				userCommand("unlink-advisor", "remove a user's links to advisor profiles (repeat --advisor); its sessions end", []cli.Flag{&cli.StringSliceFlag{Name: "advisor", Required: true, Usage: "advisor profile name"}}, alias, user,
					func(ctx context.Context, cmd *cli.Command, a *app.App, u *wayfarer.User) error {
						for _, name := range cmd.StringSlice("advisor") {
							if err := a.Admin.UnlinkAdvisor(ctx, u, name); err != nil {
								return err
							}
						}
						return nil
					}),
				userCommand("enable", "enable a user", nil, alias, user, func(ctx context.Context, cmd *cli.Command, a *app.App, u *wayfarer.User) error {
					return a.Admin.SetEnabled(ctx, u, true)
				}),
				userCommand("disable", "disable a user (its sessions end)", nil, alias, user, func(ctx context.Context, cmd *cli.Command, a *app.App, u *wayfarer.User) error {
					return a.Admin.SetEnabled(ctx, u, false)
				}),
				userCommand("lock", "lock a user until unlocked (its sessions end; logins answer 103)", nil, alias, user, func(ctx context.Context, cmd *cli.Command, a *app.App, u *wayfarer.User) error {
					return a.Admin.Lock(ctx, u)
				}),
				userCommand("unlock", "lift a lock, and every lockout after failed logins", nil, alias, user, func(ctx context.Context, cmd *cli.Command, a *app.App, u *wayfarer.User) error {
					return a.Admin.Unlock(ctx, u)
				}),
			}},
			operatorCommand(),
		}, lookupCommands(alias)...),
	}
}

// adminAction opens the database (applying migrations) for f.
func adminAction(f func(ctx context.Context, cmd *cli.Command, a *app.App) error) cli.ActionFunc {
	return func(ctx context.Context, cmd *cli.Command) error {
		if err := storage.MustExist(cmd.String("db")); err != nil {
			return err
		}
		// A command runs and ends: no session cache to keep.
		a, err := app.Open(ctx, app.Config{DB: cmd.String("db"), NoMigrate: cmd.Bool("no-migrate"), SessionCache: -1}, slog.New(slog.DiscardHandler), wayfarer.SystemClock{})
		if err != nil {
			return err
		}
		defer a.Close()
		return f(ctx, cmd, a)
	}
}

func agencyStatusCommand(name, usage string, st wayfarer.AgencyStatus, alias cli.Flag) *cli.Command {
	return &cli.Command{Name: name, Usage: usage, Flags: []cli.Flag{alias}, Action: adminAction(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
		ag, err := a.Admin.Agency(ctx, cmd.String("alias"))
		if err != nil {
			return err
		}
		if err := a.Admin.SetAgencyStatus(ctx, ag, st); err != nil {
			return err
		}
		fmt.Fprintf(cmd.Root().Writer, "agency %s is now %s\n", ag.Alias, st)
		return nil
	})}
}

func profileCommand(name, usage string, typ int, alias cli.Flag) *cli.Command {
	return &cli.Command{Name: name, Usage: usage, Commands: []*cli.Command{
		{Name: "create", Usage: "create one", Flags: []cli.Flag{alias, &cli.StringFlag{Name: "name", Required: true}, &cli.StringFlag{Name: "branch", Usage: "branch name"}},
			Action: adminAction(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
				ag, err := a.Admin.Agency(ctx, cmd.String("alias"))
				if err != nil {
					return err
				}
				branch, err := branchID(ctx, a, ag.ID, cmd.String("branch"))
				if err != nil {
					return err
				}
				id, err := a.DB.CreateProfile(ctx, ag.ID, typ, cmd.String("name"), branch)
				if err == nil {
					fmt.Fprintf(cmd.Root().Writer, "created %s %q (recNo %d)\n", name, cmd.String("name"), id)
				}
				return err
			})},
	}}
}

func userCommand(name, usage string, flags []cli.Flag, alias, user cli.Flag, f func(ctx context.Context, cmd *cli.Command, a *app.App, u *wayfarer.User) error) *cli.Command {
	return &cli.Command{Name: name, Usage: usage, Flags: append([]cli.Flag{alias, user}, flags...),
		Action: adminAction(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
			ag, err := a.Admin.Agency(ctx, cmd.String("alias"))
			if err != nil {
				return err
			}
			u, err := a.Admin.User(ctx, ag.ID, cmd.String("user"))
			if err != nil {
				return err
			}
			if err := f(ctx, cmd, a, u); err != nil {
				return err
			}
			fmt.Fprintf(cmd.Root().Writer, "%s: done for user %s of %s\n", name, u.UserName, ag.Alias)
			return nil
		})}
}

func branchID(ctx context.Context, a *app.App, agencyID int64, name string) (*int64, error) {
	if name == "" {
		return nil, nil
	}
	id, err := a.DB.BranchByName(ctx, agencyID, name)
	if errors.Is(err, wayfarer.ErrNotFound) {
		return nil, fmt.Errorf("no branch %q", name)
	}
	return &id, err
}

func createUser(ctx context.Context, cmd *cli.Command, a *app.App) error {
	ag, err := a.Admin.Agency(ctx, cmd.String("alias"))
	if err != nil {
		return err
	}
	typ, ok := wayfarer.ParseUserType(cmd.String("type"))
	if !ok {
		return fmt.Errorf("--type must be user, manager or admin")
	}
	set, err := parseAreaFlags(cmd)
	if err != nil {
		return err
	}
	var perms wayfarer.Permissions
	for a, bits := range set {
		perms[a] = bits
	}
	branch, err := branchID(ctx, a, ag.ID, cmd.String("branch"))
	if err != nil {
		return err
	}
	var pw string
	if cmd.Bool("password-stdin") {
		if pw, err = readNewPassword(cmd); err != nil {
			return err
		}
	}
	id, err := a.Admin.CreateUser(ctx, wayfarer.NewUser{AgencyID: ag.ID, UserName: cmd.String("user"), Name: cmd.String("name"), Email: cmd.String("email"), Type: typ,
		BranchID: branch, Perms: perms, Enabled: !cmd.Bool("disabled"), NonExpiringPassword: cmd.Bool("non-expiring-password")}, pw)
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.Root().Writer, "created user %s (recNo %d, %s, %s)\n", cmd.String("user"), id, typ, perms)
	if pw == "" {
		fmt.Fprintln(cmd.Root().Writer, "no password yet: set one with `wayfarer admin user set-password`")
	}
	return nil
}
