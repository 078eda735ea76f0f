package vault

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"
)

// legacyEntry is an entry of the old key text with a fresh random key.
func legacyEntry(t *testing.T, id string) string {
	t.Helper()
	key := make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	return id + ":" + base64.StdEncoding.EncodeToString(key)
}

func TestParseLegacyFormats(t *testing.T) {
	a, b := legacyEntry(t, "a"), legacyEntry(t, "b_2-x")
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
		if !r.Legacy() {
			t.Errorf("%s: ring not marked legacy", tt.name)
		}
	}
}

func TestParseLegacyKeyErrors(t *testing.T) {
	good := legacyEntry(t, "k1")
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

// LegacyFixtureKeys is the key text testdata/legacy_sealed.txt was sealed with.
const legacyFixtureKeys = "legacy1:ZmM0YjVmYTk2Y2Q3ODAxZWQ1YzE3Mzg1NWE5ODFmMjE=,older:T2xkZXIga2V5IGZvciB0aGUgbGVnYWN5IGZpeHR1cmU="

type sealedFixture struct {
	keyID, aad, plaintext string
	cipher                []byte
}

func readLegacyFixture(t *testing.T) []sealedFixture {
	t.Helper()
	f, err := os.Open("testdata/legacy_sealed.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []sealedFixture
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") || strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		fs := strings.Fields(sc.Text())
		ct, err := hex.DecodeString(fs[3])
		if len(fs) != 4 || err != nil {
			t.Fatalf("bad fixture line %q", sc.Text())
		}
		out = append(out, sealedFixture{fs[0], fs[1], fs[2], ct})
	}
	if len(out) == 0 {
		t.Fatal("empty fixture")
	}
	return out
}

// Numbers sealed by the hand-written ring open under the Tink keyset: from
// the legacy text itself, and from the document `keys convert` writes.
func TestLegacySealedNumbersOpen(t *testing.T) {
	legacy := mustKeyset(t, legacyFixtureKeys)
	converted, err := legacy.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(converted, []byte("ZmM0YjVm")) {
		t.Error("the converted document holds the legacy key text") // it holds the key inside Tink's proto instead
	}
	conv := mustKeyset(t, string(converted))
	if conv.Legacy() {
		t.Error("converted keyset still marked legacy")
	}
	for _, k := range conv.Keys() {
		if k.Prefix != "RAW" || k.Status != "ENABLED" {
			t.Errorf("converted key %+v: want RAW and ENABLED", k)
		}
	}
	// A key added to the converted keyset is a normal TINK key.
	if err := conv.Add("k2027", true); err != nil {
		t.Fatal(err)
	}
	for name, ks := range map[string]*Keyset{"legacy text": legacy, "converted": conv} {
		r := ringOf(t, ks)
		for _, fx := range readLegacyFixture(t) {
			pt, err := r.Decrypt(fx.keyID, fx.cipher, []byte(fx.aad))
			if err != nil || string(pt) != fx.plaintext {
				t.Errorf("%s: %s/%s: %q, %v", name, fx.keyID, fx.aad, pt, err)
			}
			if _, err := r.Decrypt(fx.keyID, fx.cipher, []byte("agency:999")); err == nil {
				t.Errorf("%s: opened under another agency", name)
			}
		}
	}
	if got := ringOf(t, conv).CurrentKeyID(); got != "k2027" {
		t.Errorf("after adding k2027 as primary: %q", got)
	}
	for _, k := range conv.Keys() {
		if k.ID == "k2027" && k.Prefix != "TINK" {
			t.Errorf("new key prefix %s, want TINK", k.Prefix)
		}
	}
}
