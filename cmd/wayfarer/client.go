package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/wayfarerhq/wayfarer/client"
)

func clientCommand() *cli.Command {
	return &cli.Command{
		Name:  "client",
		Usage: "use a Wayfarer server from the command line (login, search, get, create, edit, logout)",
		Description: `Examples:
  wayfarer client login --url http://127.0.0.1:8080 --alias DEMO --user admin
  wayfarer client search --last-name Abl --cols recNo,name,primaryEmail
  wayfarer client search --email example.com --match contains --json
  wayfarer client get 42
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
			clientCreateCommand(), clientEditCommand(), clientVersionCommand(),
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

// clientCLIError turns an ended session into advice.
func clientCLIError(err error) error {
	if client.IsSessionEnded(err) {
		return fmt.Errorf("the session has ended (%v): run `wayfarer client login` again", err)
	}
	return err
}

func clientLoginCommand() *cli.Command {
	return &cli.Command{
		Name:  "login",
		Usage: "log in and keep the session token (password from a prompt or --password-stdin)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "url", Usage: "server base URL", Required: true, Sources: cli.EnvVars("WAYFARER_URL")},
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
			c := client.New(cmd.String("url"))
			login := c.Login
			if cmd.Bool("basic") {
				login = c.LoginBasic
			}
			if err := login(ctx, cmd.String("alias"), cmd.String("user"), pw); err != nil {
				return err
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
	if t := p.LastModified(); !t.IsZero() {
		line("modified", t.Format(time.RFC3339))
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
				return fmt.Errorf("%s: %w", cmd.Args().First(), err)
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

var errClientNoChanges = errors.New("no changes")

func clientEditCommand() *cli.Command {
	return &cli.Command{
		Name:      "edit",
		Usage:     "edit a person in $EDITOR and save the old/new difference",
		ArgsUsage: "RECNO",
		Description: `The person is written as JSON to a file in a private temporary directory and opened with
$VISUAL or $EDITOR (default vi). After the editor exits, the loaded person is
sent as oldData and your version as newData. A field you delete becomes
null; a card link you delete removes the card. Keep the identifiers
(recNo, person_recNo, card_recNo) as they are; add a card as a link with
null identifiers. The directory is removed afterwards.`,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			recNo, err := clientRecNoArg(cmd)
			if err != nil {
				return err
			}
			c, err := clientConnect(ctx, cmd)
			if err != nil {
				return err
			}
			var changed []string
			saved, err := c.UpdatePerson(ctx, recNo, func(p *client.Person) error {
				before, err := json.MarshalIndent(p, "", "  ")
				if err != nil {
					return err
				}
				after, err := clientEditInEditor(ctx, cmd, before)
				if err != nil {
					return err
				}
				if bytes.Equal(bytes.TrimSpace(before), bytes.TrimSpace(after)) {
					return errClientNoChanges
				}
				edited, err := client.DecodePerson(after)
				if err != nil {
					return fmt.Errorf("the edited person: %w", err)
				}
				changed = clientJSONDiff(before, after)
				*p = *edited
				return nil
			})
			if errors.Is(err, errClientNoChanges) {
				fmt.Fprintln(cmd.Root().Writer, "no changes")
				return nil
			}
			if client.IsConflict(err) {
				return fmt.Errorf("%w\nsomeone changed the person meanwhile: run edit again to start from the current data", err)
			}
			if err != nil {
				return clientCLIError(err)
			}
			fmt.Fprintf(cmd.Root().Writer, "saved person %d; changed: %s\n", saved.RecNo(), strings.Join(changed, ", "))
			return nil
		},
	}
}

// clientEditInEditor writes content to a private temporary file, runs the editor
// on it and returns what the editor left there.
func clientEditInEditor(ctx context.Context, cmd *cli.Command, content []byte) ([]byte, error) {
	editor := os.Getenv("VISUAL")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	// A private directory also holds the editor's swap and backup files.
	dir, err := os.MkdirTemp("", "wayfarer-edit-*") // 0700
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	name := filepath.Join(dir, "person.json")
	if err := os.WriteFile(name, append(content, '\n'), 0o600); err != nil {
		return nil, err
	}
	args := strings.Fields(editor)
	ed := exec.CommandContext(ctx, args[0], append(args[1:], name)...)
	ed.Stdin, ed.Stdout, ed.Stderr = cmd.Root().Reader, cmd.Root().Writer, cmd.Root().ErrWriter
	if err := ed.Run(); err != nil {
		return nil, fmt.Errorf("editor %q: %w", editor, err)
	}
	return os.ReadFile(name)
}

// clientJSONDiff names the paths whose values differ between two JSON documents.
func clientJSONDiff(a, b []byte) []string {
	var x, y any
	_ = json.Unmarshal(a, &x)
	_ = json.Unmarshal(b, &y)
	fa, fb := map[string]string{}, map[string]string{}
	clientFlatten(x, "", fa)
	clientFlatten(y, "", fb)
	var out []string
	seen := map[string]bool{}
	val := func(m map[string]string, k string) string {
		if v, ok := m[k]; ok {
			return v
		}
		return "null" // a deleted key is a null
	}
	for _, m := range []map[string]string{fa, fb} {
		for k := range m {
			if !seen[k] && val(fa, k) != val(fb, k) {
				out = append(out, k)
			}
			seen[k] = true
		}
	}
	slices.Sort(out)
	return out
}

func clientFlatten(v any, path string, out map[string]string) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			p := k
			if path != "" {
				p = path + "." + k
			}
			clientFlatten(x, p, out)
		}
	case []any:
		if len(t) == 0 {
			out[path] = "[]"
		}
		for i, x := range t {
			clientFlatten(x, fmt.Sprintf("%s[%d]", path, i), out)
		}
	default:
		b, _ := json.Marshal(t)
		out[path] = string(b)
	}
}
