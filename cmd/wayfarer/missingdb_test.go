package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A mistyped --db never creates a database: every command but serve
// --demo, demo and migrate up refuses a missing SQLite file, naming it,
// and leaves nothing behind (no database, no key file).
func TestMissingDatabaseRefused(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "wayfarr.db") // the typo
	t.Setenv("WAYFARER_CARD_KEYS", "")
	for _, args := range [][]string{
		{"serve", "--addr", "127.0.0.1:0"},
		{"admin", "agency", "list"},
		{"admin", "user", "list", "--alias", "DEMO"},
		{"migrate", "status"},
		{"bench", "--persons", "1"},
		{"bench", "flood"},
		{"keys", "rotate", "--card-key-file", filepath.Join(dir, "keys.json")},
	} {
		root := rootCommand()
		var out bytes.Buffer
		root.Writer, root.ErrWriter = &out, &out
		err := root.Run(context.Background(), append([]string{"wayfarer", "--db", missing}, args...))
		if err == nil || !strings.Contains(err.Error(), "the database file "+missing+" does not exist") ||
			!strings.Contains(err.Error(), "migrate up") {
			t.Errorf("%v: %v\n%s", args, err, out.String())
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Fatalf("%v left %v behind", args, entries)
		}
	}
	// migrate up creates it; then the others open it.
	root := rootCommand()
	root.Writer, root.ErrWriter = &bytes.Buffer{}, &bytes.Buffer{}
	if err := root.Run(context.Background(), []string{"wayfarer", "--db", missing, "migrate", "up"}); err != nil {
		t.Fatal(err)
	}
	root = rootCommand()
	var out bytes.Buffer
	root.Writer, root.ErrWriter = &out, &out
	if err := root.Run(context.Background(), []string{"wayfarer", "--db", missing, "migrate", "status"}); err != nil || !strings.Contains(out.String(), "applied") {
		t.Fatalf("status after up: %v\n%s", err, out.String())
	}
}
