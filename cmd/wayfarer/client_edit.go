package main

// client edit: a person changed in $EDITOR, saved as an old/new dataset.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/wayfarerhq/wayfarer/client"
)

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
null identifiers.

If the text cannot be read or the server refuses it, the message says
where (line and column) and you are asked whether to edit again: the editor
reopens on your text. Answer n (or run without a terminal) and the file is
kept, its path printed, so no edit is lost. Once saved, the directory is
removed.`,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			recNo, err := clientRecNoArg(cmd)
			if err != nil {
				return err
			}
			c, err := clientConnect(ctx, cmd)
			if err != nil {
				return err
			}
			old, err := c.LoadPerson(ctx, recNo)
			if err != nil {
				return clientCLIError(err)
			}
			before, err := json.MarshalIndent(old, "", "  ")
			if err != nil {
				return err
			}
			f, err := newEditFile(before)
			if err != nil {
				return err
			}
			return editUntilSaved(ctx, cmd, c, old, before, f)
		},
	}
}

// editUntilSaved runs the editor on f until the server takes the edit. The
// user's text is never lost: on any error the message (with its line and
// column) is shown and the editor reopens on the same text when the user
// says so; otherwise the file is kept and its path printed.
func editUntilSaved(ctx context.Context, cmd *cli.Command, c *client.Client, old *client.Person, before []byte, f *editFile) error {
	w, ew := cmd.Root().Writer, cmd.Root().ErrWriter
	in := bufio.NewReader(cmd.Root().Reader)
	for {
		after, err := f.edit(ctx, cmd)
		if err != nil {
			return f.keep(err)
		}
		if bytes.Equal(bytes.TrimSpace(before), bytes.TrimSpace(after)) {
			f.remove()
			fmt.Fprintln(w, "no changes")
			return nil
		}
		var saved *client.Person
		edited, err := client.DecodePerson(after)
		if err != nil {
			err = jsonTextError(after, err)
		} else if saved, err = c.SavePerson(ctx, old, edited); err == nil {
			f.remove()
			fmt.Fprintf(w, "saved person %d; changed: %s\n", saved.RecNo(), strings.Join(clientJSONDiff(before, after), ", "))
			return nil
		} else if client.IsConflict(err) {
			return f.keep(fmt.Errorf("someone changed the person meanwhile, so nothing was saved: run edit again and carry your changes over"))
		} else if client.IsSessionEnded(err) {
			return f.keep(clientCLIError(err))
		} else {
			err = saveEditError(after, err)
		}
		fmt.Fprintln(ew, err)
		fmt.Fprint(ew, "Edit again? [Y/n] ")
		if !yes(in) {
			return f.keep(err)
		}
	}
}

// yes reads an answer; only an explicit yes (or Enter) is one, and no input
// at all (a script, a closed stdin) is a no.
func yes(in *bufio.Reader) bool {
	line, err := in.ReadString('\n')
	if err != nil && line == "" {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "", "y", "yes":
		return true
	}
	return false
}

// editFile is the person's text in a private temporary directory (0700,
// which also holds the editor's swap and backup files).
type editFile struct{ dir, name string }

func newEditFile(content []byte) (*editFile, error) {
	dir, err := os.MkdirTemp("", "wayfarer-edit-*")
	if err != nil {
		return nil, err
	}
	f := &editFile{dir: dir, name: filepath.Join(dir, "person.json")}
	if err := os.WriteFile(f.name, append(content, '\n'), 0o600); err != nil {
		f.remove()
		return nil, err
	}
	return f, nil
}

// edit runs $VISUAL or $EDITOR (default vi) on the file and returns what
// it holds afterwards.
func (f *editFile) edit(ctx context.Context, cmd *cli.Command) ([]byte, error) {
	editor := os.Getenv("VISUAL")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	args := strings.Fields(editor)
	ed := exec.CommandContext(ctx, args[0], append(args[1:], f.name)...)
	ed.Stdout, ed.Stderr = cmd.Root().Writer, cmd.Root().ErrWriter
	// The editor gets the terminal itself; other input (a pipe, a test's
	// text) is the answers to "Edit again?", not the editor's.
	if tty, ok := cmd.Root().Reader.(*os.File); ok {
		ed.Stdin = tty
	}
	if err := ed.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return nil, fmt.Errorf("the editor %q ended with status %d, so nothing was saved", editor, exit.ExitCode())
		}
		return nil, fmt.Errorf("the editor %q could not be started (%v): set $VISUAL or $EDITOR", editor, err)
	}
	return os.ReadFile(f.name)
}

func (f *editFile) remove() { _ = os.RemoveAll(f.dir) }

// keep leaves the file for the user and says where it is.
func (f *editFile) keep(err error) error {
	return fmt.Errorf("%w\nyour edit is kept in %s (remove it when done)", err, f.name)
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
