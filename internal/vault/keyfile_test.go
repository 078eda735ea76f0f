package vault

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLoadRing(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "card.keys")
	if err := os.WriteFile(file, []byte(mustKeyText(t, "fromfile")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := mustKeyText(t, "fromenv")

	r, err := LoadRing(file, env)
	if err != nil || r.CurrentKeyID() != "fromenv" {
		t.Errorf("env should win: %v, %v", r, err)
	}
	r, err = LoadRing(file, "  \n")
	if err != nil || r.CurrentKeyID() != "fromfile" {
		t.Errorf("blank env should fall back to file: %v, %v", r, err)
	}
	r, err = LoadRing("", env)
	if err != nil || r.CurrentKeyID() != "fromenv" {
		t.Errorf("env alone: %v, %v", r, err)
	}
	if _, err := LoadRing("", ""); !errors.Is(err, ErrNoKey) ||
		err.Error() != "no card encryption key: set --card-key-file or WAYFARER_CARD_KEYS" {
		t.Errorf("no source: err = %v", err)
	}
	if _, err := LoadRing(filepath.Join(dir, "missing"), ""); err == nil {
		t.Error("missing file: no error")
	}
	if _, err := LoadRing(file, "k1:nope"); err == nil || !strings.Contains(err.Error(), EnvVar) {
		t.Errorf("bad env: err = %v, want it to name %s", err, EnvVar)
	}
	// The legacy text still loads, from the environment and from a file.
	legacy := legacyEntry(t, "old")
	if r, err := LoadRing("", legacy); err != nil || r.CurrentKeyID() != "old" || !r.Legacy() {
		t.Errorf("legacy env: %v, %v", r, err)
	}
	legacyFile := filepath.Join(dir, "legacy.keys")
	os.WriteFile(legacyFile, []byte("# old keys\n"+legacy+"\n"), 0o600)
	if r, err := LoadRing(legacyFile, ""); err != nil || r.CurrentKeyID() != "old" || !r.Legacy() {
		t.Errorf("legacy file: %v, %v", r, err)
	}
}

// A key file group or others may read (or write) is refused, naming the
// file and the fix; 0600 and 0400 are accepted.
func TestKeyFileModeChecked(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "card.keys")
	if err := os.WriteFile(file, []byte(mustKeyText(t, "k1")), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []os.FileMode{0o644, 0o640, 0o604, 0o620, 0o602, 0o660, 0o666} {
		os.Chmod(file, mode)
		_, err := LoadRing(file, "")
		if err == nil {
			t.Errorf("mode %04o: accepted", mode)
			continue
		}
		if !strings.Contains(err.Error(), file) || !strings.Contains(err.Error(), "chmod 600 "+file) {
			t.Errorf("mode %04o: err = %q, want the file and the fix", mode, err)
		}
		if _, err := ReadKeyFile(file); err == nil {
			t.Errorf("mode %04o: ReadKeyFile accepted", mode)
		}
	}
	for _, mode := range []os.FileMode{0o600, 0o400} {
		os.Chmod(file, mode)
		if _, err := LoadRing(file, ""); err != nil {
			t.Errorf("mode %04o: %v", mode, err)
		}
	}
	// Through a symlink (Kubernetes mounts secrets so), the target's mode counts.
	link := filepath.Join(dir, "link.keys")
	os.Chmod(file, 0o644)
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadRing(link, ""); err == nil {
		t.Error("symlink to a 0644 file accepted")
	}
}

// A credential systemd passes (LoadCredential=) shows mode 0440: the
// group bits are its ACL's mask. It is accepted there, and only there.
func TestKeyFileModeSystemdCredential(t *testing.T) {
	creds := t.TempDir()
	t.Setenv("CREDENTIALS_DIRECTORY", creds)
	cred := filepath.Join(creds, "cardkeys.json")
	if err := os.WriteFile(cred, []byte(mustKeyText(t, "k1")), 0o440); err != nil {
		t.Fatal(err)
	}
	os.Chmod(cred, 0o440)
	if _, err := LoadRing(cred, ""); err != nil {
		t.Errorf("0440 credential refused: %v", err)
	}
	for _, mode := range []os.FileMode{0o444, 0o460, 0o404} {
		os.Chmod(cred, mode)
		if _, err := LoadRing(cred, ""); err == nil {
			t.Errorf("credential with mode %04o accepted", mode)
		}
	}
	elsewhere := filepath.Join(t.TempDir(), "cardkeys.json")
	os.WriteFile(elsewhere, []byte(mustKeyText(t, "k1")), 0o440)
	os.Chmod(elsewhere, 0o440)
	if _, err := LoadRing(elsewhere, ""); err == nil {
		t.Error("0440 file outside the credentials directory accepted")
	}
	// A symlink in the credentials directory pointing out is no credential.
	os.Chmod(cred, 0o440)
	link := filepath.Join(creds, "link.json")
	os.Symlink(elsewhere, link)
	if _, err := LoadRing(link, ""); err == nil {
		t.Error("symlink out of the credentials directory accepted")
	}
}

func TestEnsureKeyFile(t *testing.T) {
	defer func(f func() time.Time) { now = f }(now)
	now = func() time.Time { return time.Date(2026, 11, 21, 23, 30, 0, 0, time.UTC) }

	path := filepath.Join(t.TempDir(), "sub", "card.keys")
	created, err := EnsureKeyFile(path)
	if err != nil || !created {
		t.Fatalf("first call: created=%v err=%v", created, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("mode = %o, want 600", perm)
	}
	first, _ := os.ReadFile(path)
	for _, want := range []string{`"format": "wayfarer-card-keys/1"`, "backed up apart from database backups", "outside the database", "chmod 600", `"id": "k20261121"`} {
		if !strings.Contains(string(first), want) {
			t.Errorf("key file lacks %q:\n%s", want, first)
		}
	}
	r, err := LoadRing(path, "")
	if err != nil || r.CurrentKeyID() != "k20261121" || r.Legacy() {
		t.Fatalf("load created file: %v, %v", r, err)
	}

	created, err = EnsureKeyFile(path)
	if err != nil || created {
		t.Fatalf("second call: created=%v err=%v", created, err)
	}
	second, _ := os.ReadFile(path)
	if !bytes.Equal(first, second) {
		t.Error("second call changed the file")
	}

	// An existing file is left alone, whatever it holds.
	other := filepath.Join(t.TempDir(), "other.keys")
	os.WriteFile(other, []byte("not a key file"), 0o644)
	if created, err := EnsureKeyFile(other); err != nil || created {
		t.Errorf("existing file: created=%v err=%v", created, err)
	}
	if b, _ := os.ReadFile(other); string(b) != "not a key file" {
		t.Error("existing file was changed")
	}
}

func TestReplaceKeyFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "card.keys")
	if err := CreateKeyFile(path, []byte(mustKeyText(t, "a"))); err != nil {
		t.Fatal(err)
	}
	if err := CreateKeyFile(path, []byte("x")); !errors.Is(err, os.ErrExist) {
		t.Errorf("CreateKeyFile over an existing file: %v", err)
	}
	ks, err := ReadKeyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := ks.Add("b", true); err != nil {
		t.Fatal(err)
	}
	doc, _ := ks.Marshal()
	if err := ReplaceKeyFile(path, doc); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after replace %04o", fi.Mode().Perm())
	}
	if r, err := LoadRing(path, ""); err != nil || r.CurrentKeyID() != "b" {
		t.Errorf("after replace: %v, %v", r, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	os.Chmod(path, 0o644)
	if err := ReplaceKeyFile(path, doc); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("replace of a 0644 file: %v", err)
	}
}
