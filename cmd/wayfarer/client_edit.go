package main

// client edit: a person changed in $EDITOR, saved as an old/new dataset.

import (
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
