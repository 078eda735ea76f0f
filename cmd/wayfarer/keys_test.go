package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/vault"
)

// runWayfarer runs the command line in-process and returns its output.
func runWayfarer(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	root := rootCommand()
	var out, errb bytes.Buffer
	root.Writer, root.ErrWriter = &out, &errb
	err = root.Run(context.Background(), append([]string{"wayfarer"}, args...))
	return out.String(), errb.String(), err
}

func TestKeysGenerateIsAKeyFile(t *testing.T) {
	t.Setenv(vault.EnvVar, "")
	dir := t.TempDir()
	out, _, err := runWayfarer(t, "keys", "generate", "--id", "k2027")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "printed.json")
	if err := os.WriteFile(file, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := vault.LoadRing(file, "")
	if err != nil || r.CurrentKeyID() != "k2027" {
		t.Fatalf("generated output as a key file: %v, %v", r, err)
	}
	if r, err := vault.LoadRing("", out); err != nil || r.CurrentKeyID() != "k2027" {
		t.Fatalf("generated output in %s: %v, %v", vault.EnvVar, r, err)
	}

	// --out writes a new 0600 file and never overwrites one.
	written := filepath.Join(dir, "out.json")
	if _, _, err := runWayfarer(t, "keys", "generate", "--out", written); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(written); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("--out file: %v %v", fi, err)
	}
	before, _ := os.ReadFile(written)
	if _, _, err := runWayfarer(t, "keys", "generate", "--out", written); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("generate over an existing file: %v", err)
	}
	if after, _ := os.ReadFile(written); !bytes.Equal(before, after) {
		t.Error("an existing key file was overwritten")
	}
	if _, _, err := runWayfarer(t, "keys", "generate", "--id", "Bad Id"); err == nil {
		t.Error("a bad id was accepted")
	}

	// A key file others may read is refused, by every command that reads it.
	os.Chmod(file, 0o644)
	_, _, err = runWayfarer(t, "keys", "list", "--card-key-file", file)
	if err == nil || !strings.Contains(err.Error(), file) || !strings.Contains(err.Error(), "chmod 600 "+file) {
		t.Errorf("list of a 0644 key file: %v", err)
	}
	if _, _, err := runWayfarer(t, "--db", filepath.Join(dir, "w.db"), "migrate", "up"); err != nil {
		t.Fatal(err)
	}
	_, _, err = runWayfarer(t, "--db", filepath.Join(dir, "w.db"), "serve", "--card-key-file", file, "--addr", "127.0.0.1:0")
	if err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("serve with a 0644 key file: %v", err)
	}
}

func TestKeysConvertLegacy(t *testing.T) {
	t.Setenv(vault.EnvVar, "")
	dir := t.TempDir()
	legacy := filepath.Join(dir, "old.keys")
	os.WriteFile(legacy, []byte("# old\nnew1:ZmM0YjVmYTk2Y2Q3ODAxZWQ1YzE3Mzg1NWE5ODFmMjE=\nold1:T2xkZXIga2V5IGZvciB0aGUgbGVnYWN5IGZpeHR1cmU=\n"), 0o600)
	out, _, err := runWayfarer(t, "keys", "list", "--card-key-file", legacy)
	if err != nil || !strings.Contains(out, "old id:base64 key text") {
		t.Fatalf("list legacy: %v\n%s", err, out)
	}
	converted := filepath.Join(dir, "new.json")
	if _, _, err := runWayfarer(t, "keys", "convert", "--card-key-file", legacy, "--out", converted); err != nil {
		t.Fatal(err)
	}
	out, _, err = runWayfarer(t, "keys", "list", "--card-key-file", converted)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "new1 ") || !strings.Contains(lines[1], "RAW") ||
		!strings.HasSuffix(lines[1], "primary") || !strings.HasPrefix(lines[2], "old1 ") {
		t.Errorf("converted keyset:\n%s", out)
	}
	if strings.Contains(out, "ZmM0YjVm") {
		t.Error("list shows key material")
	}
	if _, _, err := runWayfarer(t, "keys", "convert", "--card-key-file", converted); err == nil {
		t.Error("converting a document again succeeded")
	}
	// Editing needs the document form.
	if _, _, err := runWayfarer(t, "keys", "add", "--card-key-file", legacy, "--id", "k3"); err == nil || !strings.Contains(err.Error(), "keys convert") {
		t.Errorf("add to a legacy file: %v", err)
	}
}

// The whole rotation from the command line: add, promote, rotate (stopped
// and resumed), remove; remove refuses while cards use the key.
func TestKeysRotateCommand(t *testing.T) {
	t.Setenv(vault.EnvVar, "")
	for _, engine := range testserver.Engines() {
		t.Run(engine, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "cardkeys.json")
			if _, _, err := runWayfarer(t, "keys", "generate", "--id", "k2025", "--out", file); err != nil {
				t.Fatal(err)
			}
			s := testserver.Start(t, testserver.Options{Engine: engine, Config: func(c *app.Config) { c.CardKeys, c.CardKeyFile = "", file }})
			tok := testserver.Bearer(s.LoginDemo(t, "admin"))
			for i, num := range []string{"4111111111111111", "5555555555554444", "378282246310005"} {
				body := fmt.Sprintf(`{"firstName":"R%d","lastName":"Card","activeStatus":1,"personCardLink":[{"card":{"type":1,"cardNumber":%q}}]}`, i, num)
				if r := s.Do(t, "POST", "/person", body, tok...); r.Status != 200 {
					t.Fatalf("create: %d %s", r.Status, r.Body)
				}
			}
			db := []string{"--db", s.DBPath}
			must := func(args ...string) string {
				t.Helper()
				out, errOut, err := runWayfarer(t, append(db, args...)...)
				if err != nil {
					t.Fatalf("%v: %v\n%s%s", args, err, out, errOut)
				}
				return out + errOut
			}
			must("keys", "add", "--card-key-file", file, "--id", "k2026")
			must("keys", "promote", "--card-key-file", file, "--id", "k2026")
			if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o600 {
				t.Errorf("edited key file mode %04o", fi.Mode().Perm())
			}
			if _, _, err := runWayfarer(t, append(db, "keys", "remove", "--card-key-file", file, "--id", "k2025")...); err == nil ||
				!strings.Contains(err.Error(), "3 card number(s)") || !strings.Contains(err.Error(), "keys rotate") {
				t.Fatalf("remove of a key in use: %v", err)
			}
			out := must("keys", "rotate", "--card-key-file", file, "--batch-size", "2", "--max-batches", "1")
			if !strings.Contains(out, "rotating k2025 -> k2026: 2/3 cards") || !strings.Contains(out, "stopped with 1 card(s) under other keys") {
				t.Errorf("first rotate:\n%s", out)
			}
			out = must("keys", "rotate", "--card-key-file", file, "--batch-size", "2")
			if !strings.Contains(out, "rotating k2025 -> k2026: 1/1 cards") || !strings.Contains(out, "1 card(s) re-encrypted under k2026") ||
				!strings.Contains(out, "every card is under k2026") {
				t.Errorf("second rotate:\n%s", out)
			}
			must("keys", "remove", "--card-key-file", file, "--id", "k2025")
			out = must("keys", "list", "--card-key-file", file)
			if strings.Contains(out, "k2025") || !strings.Contains(out, "k2026") {
				t.Errorf("after remove:\n%s", out)
			}
			// An instance with only the new key starts on that database.
			a, err := app.Open(context.Background(), app.Config{DB: s.DBPath, CardKeyFile: file, PasswordParams: testserver.CheapPasswords},
				s.App.Server.Persons.Log, s.Clock)
			if err != nil {
				t.Fatalf("start with the new key alone: %v", err)
			}
			a.Close()
		})
	}
}

func TestHealthcheckCommand(t *testing.T) {
	s := testserver.Start(t, testserver.Options{})
	if out, _, err := runWayfarer(t, "healthcheck", "--url", s.URL+"/healthz"); err != nil || !strings.Contains(out, "ok") {
		t.Errorf("healthy server: %v %s", err, out)
	}
	if _, _, err := runWayfarer(t, "healthcheck", "--url", s.URL+"/nothing-here"); err == nil {
		t.Error("404 counted as healthy")
	}
	if _, _, err := runWayfarer(t, "healthcheck", "--url", "http://127.0.0.1:1/healthz", "--timeout", "1s"); err == nil {
		t.Error("no server counted as healthy")
	}
	for addr, want := range map[string]string{
		"":               "http://127.0.0.1:8080/healthz",
		"0.0.0.0:9000":   "http://127.0.0.1:9000/healthz",
		":9001":          "http://127.0.0.1:9001/healthz",
		"[::]:9002":      "http://127.0.0.1:9002/healthz",
		"10.1.2.3:9003":  "http://10.1.2.3:9003/healthz",
		"[::1]:9004":     "http://[::1]:9004/healthz",
		"127.0.0.1:0":    "http://127.0.0.1:8080/healthz",
		"not an address": "http://127.0.0.1:8080/healthz",
	} {
		if got := localHealthURL(addr); got != want {
			t.Errorf("localHealthURL(%q) = %s, want %s", addr, got, want)
		}
	}
}
