package main

// client search: the query from flags, the rows as a table or JSON.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v3"

	"github.com/wayfarerhq/wayfarer/client"
)

var clientDefaultCols = []client.Column{client.ColRecNo, client.ColName, client.ColPrimaryEmail, client.ColPrimaryPhone, client.ColActiveStatus}

func clientSearchCommand() *cli.Command {
	return &cli.Command{
		Name:  "search",
		Usage: "search persons: a table by default, --json for scripts",
		Description: `Name, email and phone criteria use --match (default starts): equal, not-equal,
starts, not-starts, contains, not-contains, in, not-in. Columns: --cols with
names of the person search (recNo, name, firstName, lastName, primaryEmail,
primaryPhone, activeStatus, cardNumber, branchRecName, ...).`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "last-name", Usage: "last name"},
			&cli.StringFlag{Name: "first-name", Usage: "first name"},
			&cli.StringFlag{Name: "email", Usage: "email address"},
			&cli.StringFlag{Name: "phone", Usage: "phone number"},
			&cli.StringFlag{Name: "unique-id", Usage: "unique id (exact)"},
			&cli.StringFlag{Name: "match", Value: "starts", Usage: "how --last-name, --first-name, --email and --phone compare"},
			&cli.StringFlag{Name: "status", Usage: "active status: active, inactive or pending (comma-separated)"},
			&cli.StringFlag{Name: "cols", Usage: "columns, comma-separated (default recNo,name,primaryEmail,primaryPhone,activeStatus)"},
			&cli.StringFlag{Name: "tag-value", Usage: "tag definition recNos, comma-separated: a column tag:<recNo> with each tag's value"},
			&cli.StringFlag{Name: "marketing-flag", Usage: "marketing element recNos, comma-separated: a column marketing:<recNo> (true/false)"},
			&cli.IntFlag{Name: "limit", Value: 50, Usage: "rows per page"},
			&cli.IntFlag{Name: "offset", Usage: "rows to skip"},
			&cli.BoolFlag{Name: "all", Usage: "every matching row, page by page"},
			&cli.BoolFlag{Name: "json", Usage: "print a JSON array of row objects"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			q, cols, err := clientSearchQuery(cmd)
			if err != nil {
				return err
			}
			c, err := clientConnect(ctx, cmd)
			if err != nil {
				return err
			}
			out := cmd.Root().Writer
			if cmd.Bool("all") {
				var rows []client.Row
				for r, err := range c.SearchAll(ctx, q) {
					if err != nil {
						return clientCLIError(err)
					}
					rows = append(rows, r)
				}
				return printClientRows(out, cols, rows, cmd.Bool("json"))
			}
			if !cmd.Bool("json") {
				q.WithCount()
			}
			page, err := c.Search(ctx, q)
			if err != nil {
				return clientCLIError(err)
			}
			if err := printClientRows(out, cols, page.Rows, cmd.Bool("json")); err != nil {
				return err
			}
			if !cmd.Bool("json") && page.Total >= 0 {
				first := int64(cmd.Int("offset")) + 1
				if len(page.Rows) == 0 {
					first = 0
				}
				fmt.Fprintf(cmd.Root().ErrWriter, "rows %d-%d of %d\n", first, int64(cmd.Int("offset"))+int64(len(page.Rows)), page.Total)
			}
			return nil
		},
	}
}

func clientSearchQuery(cmd *cli.Command) (*client.Query, []client.Column, error) {
	cond, err := client.ParseCondition(cmd.String("match"))
	if err != nil {
		return nil, nil, fmt.Errorf("--match: %w", err)
	}
	q := client.Search()
	if v := cmd.String("last-name"); v != "" {
		q.LastName(cond, v)
	}
	if v := cmd.String("first-name"); v != "" {
		q.FirstName(cond, v)
	}
	if v := cmd.String("email"); v != "" {
		q.Email(cond, v)
	}
	if v := cmd.String("phone"); v != "" {
		q.Phone(cond, v)
	}
	if v := cmd.String("unique-id"); v != "" {
		q.UniqueID(v)
	}
	if v := cmd.String("status"); v != "" {
		var sts []client.ActiveStatus
		for _, s := range strings.Split(v, ",") {
			st, ok := map[string]client.ActiveStatus{"active": client.StatusActive, "inactive": client.StatusInactive, "pending": client.StatusPending}[strings.ToLower(strings.TrimSpace(s))]
			if !ok {
				return nil, nil, fmt.Errorf("--status: unknown status %q (active, inactive, pending)", s)
			}
			sts = append(sts, st)
		}
		q.ActiveStatus(sts...)
	}
	cols := clientDefaultCols
	if v := cmd.String("cols"); v != "" {
		cols = nil
		for _, name := range strings.Split(v, ",") {
			col, err := client.ParseColumn(name)
			if err != nil {
				return nil, nil, fmt.Errorf("--cols: %w", err)
			}
			cols = append(cols, col)
		}
	}
	if cmd.Int("limit") < 1 || cmd.Int("offset") < 0 {
		return nil, nil, errors.New("--limit must be at least 1 and --offset not negative")
	}
	q.Columns(cols...).Page(int64(cmd.Int("offset")), int64(cmd.Int("limit")))
	for _, ext := range []struct {
		flag   string
		add    func(int64) *client.Query
		column func(int64) client.Column
	}{{"tag-value", q.TagValue, client.TagColumn}, {"marketing-flag", q.MarketingFlag, client.MarketingColumn}} {
		for _, s := range strings.Split(cmd.String(ext.flag), ",") {
			if s = strings.TrimSpace(s); s == "" {
				continue
			}
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n < 1 {
				return nil, nil, fmt.Errorf("--%s: %q is not a record number", ext.flag, s)
			}
			ext.add(n)
			cols = append(cols, ext.column(n))
		}
	}
	return q, cols, q.Err()
}

func printClientRows(w io.Writer, cols []client.Column, rows []client.Row, asJSON bool) error {
	if asJSON {
		// Objects keep the column order; null columns are absent, as the server sends them.
		var b bytes.Buffer
		b.WriteByte('[')
		for i, r := range rows {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('{')
			first := true
			for _, c := range cols {
				if !r.Has(c) {
					continue
				}
				if !first {
					b.WriteByte(',')
				}
				first = false
				k, _ := json.Marshal(string(c))
				b.Write(k)
				b.WriteByte(':')
				b.Write(r[c])
			}
			b.WriteByte('}')
		}
		b.WriteByte(']')
		var out bytes.Buffer
		if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
			return err
		}
		out.WriteByte('\n')
		_, err := w.Write(out.Bytes())
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, c := range cols {
		if i > 0 {
			fmt.Fprint(tw, "\t")
		}
		fmt.Fprint(tw, c)
	}
	fmt.Fprintln(tw)
	for _, r := range rows {
		for i, c := range cols {
			if i > 0 {
				fmt.Fprint(tw, "\t")
			}
			fmt.Fprint(tw, clientCell(r, c))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// cell is a value for the table: one line, statuses and card types by name.
func clientCell(r client.Row, c client.Column) string {
	switch c {
	case client.ColActiveStatus:
		if v, ok := r.Int(c); ok {
			return client.ActiveStatus(v).String()
		}
	case client.ColCardType:
		if v, ok := r.Int(c); ok {
			return client.CardType(v).String()
		}
	}
	return strings.Join(strings.Fields(r.Text(c)), " ")
}
