package main

// client get and create: a person shown or made from a file.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/wayfarerhq/wayfarer/client"
)

func clientRecNoArg(cmd *cli.Command) (int64, error) {
	if cmd.Args().Len() != 1 {
		return 0, errors.New("give one person record number")
	}
	n, err := strconv.ParseInt(cmd.Args().First(), 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a person record number", cmd.Args().First())
	}
	return n, nil
}

func clientGetCommand() *cli.Command {
	return &cli.Command{
		Name:      "get",
		Usage:     "show a person (card numbers masked)",
		ArgsUsage: "RECNO",
		Flags:     []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print the person as JSON (the shape create and edit use)"}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			recNo, err := clientRecNoArg(cmd)
			if err != nil {
				return err
			}
			c, err := clientConnect(ctx, cmd)
			if err != nil {
				return err
			}
			p, err := c.LoadPerson(ctx, recNo)
			if err != nil {
				return clientCLIError(err)
			}
			return printClientPerson(cmd.Root().Writer, p, cmd.Bool("json"))
		},
	}
}

func printClientPerson(w io.Writer, p *client.Person, asJSON bool) error {
	if asJSON {
		b, err := json.MarshalIndent(p, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	line := func(k, v string) {
		if v != "" {
			fmt.Fprintf(tw, "%s\t%s\n", k, v)
		}
	}
	line("recNo", strconv.FormatInt(p.RecNo(), 10))
	line("name", p.Name())
	if p.ActiveStatus != nil {
		line("status", p.ActiveStatus.String())
	}
	line("email", p.PrimaryEmail())
	line("phone", p.PrimaryPhone())
	if p.BirthdayMonth != nil && p.BirthdayDay != nil {
		b := fmt.Sprintf("%02d-%02d", *p.BirthdayMonth, *p.BirthdayDay)
		if p.BirthdayYear != nil {
			b = fmt.Sprintf("%04d-%s", *p.BirthdayYear, b)
		}
		line("birthday", b)
	}
	line("branch", p.BranchName())
	line("advisor", p.AdvisorName())
	line("remarks", clientDeref(p.Remarks))
	if t := p.Created(); !t.IsZero() {
		line("created", t.Format(time.RFC3339))
	}
	for _, l := range p.Cards {
		card := l.Card
		desc := []string{card.Type().String(), card.Number()}
		if card.ExpirationDate != nil {
			desc = append(desc, "expires "+card.ExpirationDate.String())
		}
		if v := clientDeref(card.NameOnCard); v != "" {
			desc = append(desc, v)
		}
		if v := clientDeref(card.Description); v != "" {
			desc = append(desc, v)
		}
		line(fmt.Sprintf("card %d", l.CardRecNo()), strings.Join(desc, ", "))
	}
	return tw.Flush()
}

func clientDeref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

func clientCreateCommand() *cli.Command {
	return &cli.Command{
		Name:      "create",
		Usage:     "create a person from a JSON file (- for stdin)",
		ArgsUsage: "FILE.json",
		Description: `The file holds one person in the 1.8.2 shape, without recNo; cards go in
personCardLink with null identifiers, for example:

  {"firstName": "Ken", "lastName": "Abler", "activeStatus": 1,
   "personCardLink": [{"card": {"type": 2, "cardNumber": "SKY-123456"}}]}

Unknown fields are refused, and so is cvvCode.`,
		Flags: []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print the created person as JSON"}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() != 1 {
				return errors.New("give one JSON file (- for stdin)")
			}
			var b []byte
			var err error
			if name := cmd.Args().First(); name == "-" {
				b, err = io.ReadAll(cmd.Root().Reader)
			} else {
				b, err = os.ReadFile(name)
			}
			if err != nil {
				return err
			}
			p, err := client.DecodePerson(b)
			if err != nil {
				return fmt.Errorf("%s, %w", cmd.Args().First(), jsonTextError(b, err))
			}
			c, err := clientConnect(ctx, cmd)
			if err != nil {
				return err
			}
			saved, err := c.CreatePerson(ctx, p)
			if err != nil {
				return clientCLIError(err)
			}
			if cmd.Bool("json") {
				return printClientPerson(cmd.Root().Writer, saved, true)
			}
			fmt.Fprintf(cmd.Root().Writer, "created person %d\n", saved.RecNo())
			return nil
		},
	}
}
