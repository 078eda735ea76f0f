package main

// client branches|profiles|users: the look-up searches, as a table or JSON.

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/wayfarerhq/wayfarer/client"
	"github.com/wayfarerhq/wayfarer/client/contract"
)

// lookupFlags are the flags every look-up command shares.
func lookupFlags(defaultCols string, extra ...cli.Flag) []cli.Flag {
	return append([]cli.Flag{
		&cli.StringFlag{Name: "name", Usage: "name"},
		&cli.StringFlag{Name: "match", Value: "starts", Usage: "how --name compares: equal, not-equal, starts, not-starts, contains, not-contains, in, not-in"},
		&cli.StringFlag{Name: "cols", Value: defaultCols, Usage: "columns, comma-separated (the devportal's names)"},
		&cli.IntFlag{Name: "limit", Value: 50, Usage: "rows per page"},
		&cli.IntFlag{Name: "offset", Usage: "rows to skip"},
		&cli.BoolFlag{Name: "json", Usage: "print a JSON array of row objects"},
	}, extra...)
}

// lookupBase reads the shared flags: the inherited parameters, the name
// filter and the columns.
func lookupBase(cmd *cli.Command) (contract.SearchBase, *contract.StringSearchParam, []client.Column, error) {
	var base contract.SearchBase
	if cmd.Int("limit") < 1 || cmd.Int("offset") < 0 {
		return base, nil, nil, errors.New("--limit must be at least 1 and --offset not negative")
	}
	start, count := int64(cmd.Int("offset")), int64(cmd.Int("limit"))
	base.StartingRow, base.RowCount = &start, &count
	var cols []client.Column
	for _, c := range strings.Split(cmd.String("cols"), ",") {
		if c = strings.TrimSpace(c); c != "" {
			cols = append(cols, client.Column(c))
			base.IncludeCols = append(base.IncludeCols, c)
		}
	}
	var name *contract.StringSearchParam
	if v := cmd.String("name"); v != "" {
		cond, err := client.ParseCondition(cmd.String("match"))
		if err != nil {
			return base, nil, nil, fmt.Errorf("--match: %w", err)
		}
		name = contract.NewStringSearchParam(int(cond), v)
	}
	return base, name, cols, nil
}

// lookupStatus reads --status: active, inactive, pending (comma-separated).
func lookupStatus(cmd *cli.Command) ([]int16, error) {
	var out []int16
	for _, s := range strings.Split(cmd.String("status"), ",") {
		if s = strings.ToLower(strings.TrimSpace(s)); s == "" {
			continue
		}
		st, ok := map[string]int16{"inactive": 0, "active": 1, "pending": 2}[s]
		if !ok {
			return nil, fmt.Errorf("--status: unknown status %q (active, inactive, pending)", s)
		}
		out = append(out, st)
	}
	return out, nil
}

// lookupCommand is a look-up command: flags, the search, the rows.
func lookupCommand(name, usage, defaultCols string, extra []cli.Flag,
	search func(ctx context.Context, c *client.Client, cmd *cli.Command, base contract.SearchBase, name *contract.StringSearchParam) ([]client.Row, error)) *cli.Command {
	return &cli.Command{
		Name: name, Usage: usage, Flags: lookupFlags(defaultCols, extra...),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			base, nameParam, cols, err := lookupBase(cmd)
			if err != nil {
				return err
			}
			c, err := clientConnect(ctx, cmd)
			if err != nil {
				return err
			}
			rows, err := search(ctx, c, cmd, base, nameParam)
			if err != nil {
				return clientCLIError(err)
			}
			return printClientRows(cmd.Root().Writer, cols, rows, cmd.Bool("json"))
		},
	}
}

func clientBranchesCommand() *cli.Command {
	return lookupCommand("branches", "search branches (branchSearch)", "recNo,name,activeStatus",
		[]cli.Flag{&cli.StringFlag{Name: "status", Usage: "active status: active, inactive or pending (comma-separated)"}},
		func(ctx context.Context, c *client.Client, cmd *cli.Command, base contract.SearchBase, name *contract.StringSearchParam) ([]client.Row, error) {
			st, err := lookupStatus(cmd)
			if err != nil {
				return nil, err
			}
			return c.SearchBranches(ctx, &contract.BranchSearchRequest{SearchBase: base, Name: name, ActiveStatus: st})
		})
}

func clientProfilesCommand() *cli.Command {
	return lookupCommand("profiles", "search advisor and client profiles (profileSearch)", "recNo,name,profileType,activeStatus",
		[]cli.Flag{
			&cli.StringFlag{Name: "type", Usage: "advisor or client (default both)"},
			&cli.StringFlag{Name: "status", Usage: "active status: active, inactive or pending (comma-separated)"},
		},
		func(ctx context.Context, c *client.Client, cmd *cli.Command, base contract.SearchBase, name *contract.StringSearchParam) ([]client.Row, error) {
			st, err := lookupStatus(cmd)
			if err != nil {
				return nil, err
			}
			req := &contract.ProfileSearchRequest{SearchBase: base, ProfileName: name, ActiveStatus: st}
			switch t := strings.ToLower(cmd.String("type")); t {
			case "":
			case "advisor":
				req.ProfileType = contract.ShortSet{client.ProfileTypeAdvisor}
			case "client":
				req.ProfileType = contract.ShortSet{client.ProfileTypeClient}
			default:
				return nil, fmt.Errorf("--type: unknown profile type %q (advisor, client)", t)
			}
			return c.SearchProfiles(ctx, req)
		})
}

func clientUsersCommand() *cli.Command {
	return lookupCommand("users", "search app users (appUserSearch)", "recNo,id,name,branchName,enabled",
		[]cli.Flag{
			&cli.StringFlag{Name: "branch", Usage: "the branch's recNo"},
			&cli.BoolFlag{Name: "enabled", Usage: "enabled users only"},
		},
		func(ctx context.Context, c *client.Client, cmd *cli.Command, base contract.SearchBase, name *contract.StringSearchParam) ([]client.Row, error) {
			req := &contract.AppUserSearchRequest{SearchBase: base, Name: name}
			if v := cmd.String("branch"); v != "" {
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					return nil, fmt.Errorf("--branch: %q is not a recNo", v)
				}
				req.BranchRecNo = contract.NewNumSearchParam(1, n)
			}
			if cmd.Bool("enabled") {
				req.Enabled = new(true)
			}
			return c.SearchAppUsers(ctx, req)
		})
}
