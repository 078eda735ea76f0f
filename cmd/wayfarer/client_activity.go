package main

// client activities: an activity search from flags, the rows as a table or JSON.

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

var activityTypes = map[string]int{"task": contract.ActivityTypeTask, "appointment": contract.ActivityTypeAppointment,
	"note": contract.ActivityTypeNote, "promo": contract.ActivityTypePromo}

func clientActivitiesCommand() *cli.Command {
	return &cli.Command{
		Name:  "activities",
		Usage: "search activities: a table by default, --json for scripts",
		Description: `Examples:
  wayfarer client activities --type task --open --due-from 2026-11-23 --due-to 2026-11-29
  wayfarer client activities --app-user 2 --person 42 --json
Columns: --cols with names of the activity search (recNo, type, subject,
priority, targetDate, targetDateTime, completionDateTime, appUserId,
personRecNo, personName, remarks, tags, ...).`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "type", Usage: "task, appointment, note or promo (comma-separated)"},
			&cli.StringFlag{Name: "app-user", Usage: "app user recNos (comma-separated)"},
			&cli.IntFlag{Name: "person", Usage: "the person's recNo"},
			&cli.StringFlag{Name: "subject", Usage: "subject starting with"},
			&cli.BoolFlag{Name: "open", Usage: "not completed"},
			&cli.BoolFlag{Name: "completed", Usage: "completed"},
			&cli.StringFlag{Name: "due-from", Usage: "targetDate from (YYYY-MM-DD)"},
			&cli.StringFlag{Name: "due-to", Usage: "targetDate to (YYYY-MM-DD, inclusive)"},
			&cli.StringFlag{Name: "cols", Value: "recNo,type,subject,targetDate,appUserId,personName", Usage: "columns, comma-separated"},
			&cli.IntFlag{Name: "limit", Value: 50, Usage: "rows per page"},
			&cli.IntFlag{Name: "offset", Usage: "rows to skip"},
			&cli.BoolFlag{Name: "json", Usage: "print a JSON array of row objects"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			q, cols, err := clientActivityQuery(cmd)
			if err != nil {
				return err
			}
			c, err := clientConnect(ctx, cmd)
			if err != nil {
				return err
			}
			page, err := c.SearchActivities(ctx, q)
			if err != nil {
				return clientCLIError(err)
			}
			return printClientRows(cmd.Root().Writer, cols, page.Rows, cmd.Bool("json"))
		},
	}
}

func clientActivityQuery(cmd *cli.Command) (*client.ActivityQuery, []client.Column, error) {
	q := client.Activities()
	if v := cmd.String("type"); v != "" {
		var ts []int
		for _, s := range strings.Split(v, ",") {
			t, ok := activityTypes[strings.ToLower(strings.TrimSpace(s))]
			if !ok {
				return nil, nil, fmt.Errorf("--type: unknown type %q (task, appointment, note, promo)", s)
			}
			ts = append(ts, t)
		}
		q.Types(ts...)
	}
	if v := cmd.String("app-user"); v != "" {
		var ids []int64
		for _, s := range strings.Split(v, ",") {
			id, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
			if err != nil {
				return nil, nil, fmt.Errorf("--app-user: %q is not a recNo", s)
			}
			ids = append(ids, id)
		}
		q.AppUser(ids...)
	}
	if v := cmd.Int("person"); v > 0 {
		q.Person(int64(v))
	}
	if v := cmd.String("subject"); v != "" {
		q.Subject(client.StartingWith, v)
	}
	switch {
	case cmd.Bool("open") && cmd.Bool("completed"):
		return nil, nil, errors.New("--open and --completed exclude each other")
	case cmd.Bool("open"):
		q.Open()
	case cmd.Bool("completed"):
		q.Completed()
	}
	var from, to client.Date
	for _, d := range []struct {
		flag string
		into *client.Date
	}{{"due-from", &from}, {"due-to", &to}} {
		if v := cmd.String(d.flag); v != "" {
			date, err := client.ParseDate(v)
			if err != nil {
				return nil, nil, fmt.Errorf("--%s: %w", d.flag, err)
			}
			*d.into = date
		}
	}
	q.Due(from, to)
	var cols []client.Column
	for _, name := range strings.Split(cmd.String("cols"), ",") {
		if name = strings.TrimSpace(name); name != "" {
			cols = append(cols, client.Column(name))
			q.Columns(name)
		}
	}
	if cmd.Int("limit") < 1 || cmd.Int("offset") < 0 {
		return nil, nil, errors.New("--limit must be at least 1 and --offset not negative")
	}
	q.Page(int64(cmd.Int("offset")), int64(cmd.Int("limit")))
	return q, cols, q.Err()
}
