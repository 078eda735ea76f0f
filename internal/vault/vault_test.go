package vault

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func mustKeyText(t *testing.T, id string) string {
	t.Helper()
	s, err := GenerateKeyText(id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustRing(t *testing.T, text string) *Ring {
	t.Helper()
	r, err := ParseRing(text)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

var aad = []byte("agency:42")

func TestVaultRoundTrip(t *testing.T) {
	r := mustRing(t, mustKeyText(t, "k1"))
	for _, pt := range [][]byte{[]byte("4111111111111111"), {}, bytes.Repeat([]byte{0xff}, 1000)} {
		id, ct, err := r.Encrypt(pt, aad)
		if err != nil {
			t.Fatal(err)
		}
		if id != "k1" {
			t.Errorf("key id = %q, want k1", id)
		}
		if len(pt) > 0 && bytes.Contains(ct, pt) {
			t.Error("ciphertext contains the plaintext")
		}
		got, err := r.Decrypt(id, ct, aad)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, pt) {
			t.Errorf("round trip = %q, want %q", got, pt)
		}
	}
}

func TestVaultNonceIsFresh(t *testing.T) {
	r := mustRing(t, mustKeyText(t, "k1"))
	_, a, _ := r.Encrypt([]byte("4111111111111111"), aad)
	_, b, _ := r.Encrypt([]byte("4111111111111111"), aad)
	if bytes.Equal(a[:nonceSize], b[:nonceSize]) || bytes.Equal(a, b) {
		t.Error("two encryptions of the same plaintext are identical")
	}
}

func TestVaultWrongAADFails(t *testing.T) {
	r := mustRing(t, mustKeyText(t, "k1"))
	id, ct, err := r.Encrypt([]byte("4111111111111111"), []byte("agency:1"))
	if err != nil {
		t.Fatal(err)
	}
	for _, other := range [][]byte{[]byte("agency:2"), nil, []byte("agency:1 ")} {
		if _, err := r.Decrypt(id, ct, other); err == nil {
			t.Errorf("decrypt with AAD %q succeeded", other)
		}
	}
}

func TestVaultTamperedCiphertextFails(t *testing.T) {
	r := mustRing(t, mustKeyText(t, "k1"))
	pt := []byte("4111111111111111")
	id, ct, err := r.Encrypt(pt, aad)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ct {
		bad := bytes.Clone(ct)
		bad[i] ^= 0x01
		_, err := r.Decrypt(id, bad, aad)
		if err == nil {
			t.Fatalf("decrypt succeeded with byte %d flipped", i)
		}
		if strings.Contains(err.Error(), string(pt)) {
			t.Fatalf("error %q contains the plaintext", err)
		}
	}
	for _, short := range [][]byte{nil, ct[:nonceSize], ct[:len(ct)-1]} {
		if _, err := r.Decrypt(id, short, aad); err == nil {
			t.Errorf("decrypt of %d-byte input succeeded", len(short))
		}
	}
}

func TestVaultWrongKeyFails(t *testing.T) {
	a := mustRing(t, mustKeyText(t, "k1"))
	b := mustRing(t, mustKeyText(t, "k1")) // same id, different key
	_, ct, _ := a.Encrypt([]byte("4111111111111111"), aad)
	if _, err := b.Decrypt("k1", ct, aad); err == nil {
		t.Error("decrypt with a different key succeeded")
	}
}

func TestVaultUnknownKeyID(t *testing.T) {
	r := mustRing(t, mustKeyText(t, "k1"))
	_, ct, _ := r.Encrypt([]byte("4111111111111111"), aad)
	_, err := r.Decrypt("k0", ct, aad)
	if err == nil || !strings.Contains(err.Error(), `"k0"`) {
		t.Errorf("err = %v, want one naming key id k0", err)
	}
}

func TestRingRotation(t *testing.T) {
	oldEntry := mustKeyText(t, "k20250101")
	newEntry := mustKeyText(t, "k20261121")
	oldRing := mustRing(t, oldEntry)
	pt := []byte("5555555555554444")
	oldID, oldCT, err := oldRing.Encrypt(pt, aad)
	if err != nil {
		t.Fatal(err)
	}

	// Rotation as documented: prepend the new key.
	newRing := mustRing(t, "# rotated\n"+newEntry+"\n"+oldEntry+"\n")
	if got := newRing.CurrentKeyID(); got != "k20261121" {
		t.Errorf("CurrentKeyID = %q", got)
	}
	if got := newRing.KeyIDs(); fmt.Sprint(got) != "[k20261121 k20250101]" {
		t.Errorf("KeyIDs = %v", got)
	}
	got, err := newRing.Decrypt(oldID, oldCT, aad)
	if err != nil || !bytes.Equal(got, pt) {
		t.Fatalf("old ciphertext under new ring: %q, %v", got, err)
	}
	newID, newCT, err := newRing.Encrypt(pt, aad)
	if err != nil {
		t.Fatal(err)
	}
	if newID != "k20261121" {
		t.Errorf("new encryption uses key %q, want k20261121", newID)
	}
	if _, err := oldRing.Decrypt(newID, newCT, aad); err == nil {
		t.Error("old ring decrypted data under the new key")
	}
}

func TestParseRingFormats(t *testing.T) {
	a, b := mustKeyText(t, "a"), mustKeyText(t, "b_2-x")
	tests := []struct {
		name string
		text string
		ids  string
	}{
		{"single", a, "[a]"},
		{"lines", a + "\n" + b + "\n", "[a b_2-x]"},
		{"crlf and comments", "# keys\r\n\r\n" + a + "\r\n  # old\r\n" + b + "\r\n", "[a b_2-x]"},
		{"comma", a + "," + b, "[a b_2-x]"},
		{"comma spaced trailing", " " + a + " , " + b + " ,", "[a b_2-x]"},
	}
	for _, tt := range tests {
		r, err := ParseRing(tt.text)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := fmt.Sprint(r.KeyIDs()); got != tt.ids {
			t.Errorf("%s: ids = %s, want %s", tt.name, got, tt.ids)
		}
	}
}

func TestParseRingKeyErrors(t *testing.T) {
	good := mustKeyText(t, "k1")
	_, goodB64, _ := strings.Cut(good, ":")
	short := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 16))
	long := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 33))
	tests := []struct {
		name, text, want string
	}{
		{"empty", "", "no keys"},
		{"only comments", "# nothing\n\n", "no keys"},
		{"no colon", goodB64, "want id:base64key"},
		{"bad base64", "k1:" + strings.Repeat("!", 44), "not valid standard base64"},
		{"url base64", "k1:" + strings.NewReplacer("+", "-", "/", "_").Replace(goodB64) + "-_", "not valid standard base64"},
		{"short key", "k1:" + short, "is 16 bytes, want 32"},
		{"long key", "k1:" + long, "is 33 bytes, want 32"},
		{"upper id", "K1:" + goodB64, "key id must be"},
		{"empty id", ":" + goodB64, "key id must be"},
		{"long id", strings.Repeat("a", 33) + ":" + goodB64, "key id must be"},
		{"dot id", "k.1:" + goodB64, "key id must be"},
		{"duplicate", good + "\n" + "x:" + goodB64 + "\n" + good, `line 3 entry 1: duplicate key id "k1"`},
		{"duplicate comma", good + "," + good, `line 1 entry 2: duplicate key id "k1"`},
	}
	for _, tt := range tests {
		_, err := ParseRing(tt.text)
		if err == nil {
			t.Errorf("%s: no error", tt.name)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %q, want it to contain %q", tt.name, err, tt.want)
		}
		if strings.Contains(err.Error(), goodB64[:8]) || strings.Contains(err.Error(), short[:8]) {
			t.Errorf("%s: err %q echoes key material", tt.name, err)
		}
	}
}

func TestGenerateKeyText(t *testing.T) {
	s := mustKeyText(t, "k20261121")
	id, b64, ok := strings.Cut(s, ":")
	if !ok || id != "k20261121" {
		t.Fatalf("entry %q has no id k20261121", id)
	}
	key, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(key) != KeySize {
		t.Fatalf("key decodes to %d bytes, %v", len(key), err)
	}
	if s == mustKeyText(t, "k20261121") {
		t.Error("two generated keys are equal")
	}
	for _, bad := range []string{"", "K", "a b", strings.Repeat("a", 33)} {
		if _, err := GenerateKeyText(bad); err == nil {
			t.Errorf("GenerateKeyText(%q) accepted a bad id", bad)
		}
	}
}

func TestRingStringHidesKeys(t *testing.T) {
	entry := mustKeyText(t, "k1")
	_, b64, _ := strings.Cut(entry, ":")
	r := mustRing(t, entry)
	for _, s := range []string{fmt.Sprint(r), fmt.Sprintf("%v %+v %#v %s", r, r, r, r)} {
		if strings.Contains(s, b64[:8]) || !strings.Contains(s, "k1") {
			t.Errorf("Ring prints as %q", s)
		}
	}
}

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
	for _, want := range []string{"# Wayfarer card encryption keys", "Back this file up", "Never store it in the database", "prepend a new line", "\nk20261121:"} {
		if !strings.Contains(string(first), want) {
			t.Errorf("key file lacks %q:\n%s", want, first)
		}
	}
	r, err := LoadRing(path, "")
	if err != nil || r.CurrentKeyID() != "k20261121" {
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
