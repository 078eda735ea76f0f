package main

// client tags, client affiliation: the look-ups a person form needs.

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/urfave/cli/v3"

	"github.com/wayfarerhq/wayfarer/client"
	"github.com/wayfarerhq/wayfarer/client/contract"
)

func clientTagsCommand() *cli.Command {
	return &cli.Command{
		Name:      "tags",
		Usage:     "list tag definitions (POST /tagSearch), or show some by recNo (GET /tag/{recNo}) as JSON",
		ArgsUsage: "[RECNO...]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "name", Usage: "names starting with this"},
			&cli.BoolFlag{Name: "active", Usage: "active tags only"},
			&cli.BoolFlag{Name: "json", Usage: "print a JSON array of row objects"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			c, err := clientConnect(ctx, cmd)
			if err != nil {
				return err
			}
			if cmd.Args().Len() == 0 {
				return clientListTags(ctx, cmd, c)
			}
			recNos, err := clientRecNos(cmd)
			if err != nil {
				return err
			}
			var out []any
			for _, n := range recNos {
				t, err := c.LoadTag(ctx, n)
				if err != nil {
					return clientCLIError(err)
				}
				out = append(out, t)
			}
			return printClientJSON(cmd, out)
		},
	}
}

func clientAffiliationCommand() *cli.Command {
	return &cli.Command{
		Name:      "affiliation",
		Usage:     "show an affiliation with its marketing categories and elements (GET /affiliation/{recNo}) as JSON",
		ArgsUsage: "RECNO",
		Action: func(ctx context.Context, cmd *cli.Command) error {
			recNos, err := clientRecNos(cmd)
			if err != nil {
				return err
			}
			if len(recNos) != 1 {
				return fmt.Errorf("give one affiliation recNo")
			}
			c, err := clientConnect(ctx, cmd)
			if err != nil {
				return err
			}
			a, err := c.LoadAffiliation(ctx, recNos[0])
			if err != nil {
				return clientCLIError(err)
			}
			return printClientJSON(cmd, a)
		},
	}
}

// clientRecNos reads the arguments as record numbers (at least one).
func clientRecNos(cmd *cli.Command) ([]int64, error) {
	if cmd.Args().Len() == 0 {
		return nil, fmt.Errorf("give at least one recNo")
	}
	var out []int64
	for _, s := range cmd.Args().Slice() {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a record number", s)
		}
		out = append(out, n)
	}
	return out, nil
}

func printClientJSON(cmd *cli.Command, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(cmd.Root().Writer, "%s\n", b)
	return err
}

// clientListTags prints the agency's tags as the search command prints persons.
func clientListTags(ctx context.Context, cmd *cli.Command, c *client.Client) error {
	req := &contract.TagSearchRequest{}
	cols := []client.Column{"recNo", "name", "activeStatus", "requirement", "availableForUseIn", "description"}
	for _, col := range cols {
		req.IncludeCols = append(req.IncludeCols, string(col))
	}
	if v := cmd.String("name"); v != "" {
		req.Name = contract.NewStringSearchParam(5, v) // StartingWith
	}
	if cmd.Bool("active") {
		active := true
		req.ActiveStatus = &active
	}
	rows, err := c.SearchTags(ctx, req)
	if err != nil {
		return clientCLIError(err)
	}
	return printClientRows(cmd.Root().Writer, cols, rows, cmd.Bool("json"))
}
