package vault

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// mustKeyText is a new card key document with one key named id.
func mustKeyText(t *testing.T, id string) string {
	t.Helper()
	b, err := GenerateKeyFile(id)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// mustKeyset parses key text into its stored form.
func mustKeyset(t *testing.T, text string) *Keyset {
	t.Helper()
	ks, err := ParseKeys([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return ks
}

func ringOf(t *testing.T, ks *Keyset) *Ring {
	t.Helper()
	r, err := ks.Ring()
	if err != nil {
		t.Fatal(err)
	}
	return r
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
	const prefix = 5 // Tink's output prefix: 0x01 and the Tink key id
	if !bytes.Equal(a[:prefix], b[:prefix]) {
		t.Error("two ciphertexts under one key have different Tink prefixes")
	}
	if bytes.Equal(a[prefix:prefix+nonceSize], b[prefix:prefix+nonceSize]) || bytes.Equal(a, b) {
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
	for _, short := range [][]byte{nil, ct[:nonceSize], ct[:nonceSize+16], ct[:len(ct)-1]} {
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
	ks := mustKeyset(t, mustKeyText(t, "k20250101"))
	oldRing := ringOf(t, ks)
	pt := []byte("5555555555554444")
	oldID, oldCT, err := oldRing.Encrypt(pt, aad)
	if err != nil {
		t.Fatal(err)
	}

	// Rotation as documented: add a new key, then make it the primary.
	if err := ks.Add("k20261121", false); err != nil {
		t.Fatal(err)
	}
	if got := ringOf(t, ks).CurrentKeyID(); got != "k20250101" {
		t.Errorf("after Add without primary: CurrentKeyID = %q", got)
	}
	if err := ks.Promote("k20261121"); err != nil {
		t.Fatal(err)
	}
	// Through the stored form, as instances read it.
	doc, err := ks.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	newRing := ringOf(t, mustKeyset(t, string(doc)))
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
	// A ciphertext presented under the other key's id does not open.
	if _, err := newRing.Decrypt("k20250101", newCT, aad); err == nil {
		t.Error("a ciphertext opened under the wrong key id")
	}
}

func TestRingEncryptWith(t *testing.T) {
	ks := mustKeyset(t, mustKeyText(t, "old"))
	if err := ks.Add("new", true); err != nil {
		t.Fatal(err)
	}
	r := ringOf(t, ks)
	ct, err := r.EncryptWith("old", []byte("canary"), []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Decrypt("new", ct, []byte("x")); err == nil {
		t.Error("sealed under old, opened under new")
	}
	if pt, err := r.Decrypt("old", ct, []byte("x")); err != nil || string(pt) != "canary" {
		t.Errorf("Decrypt = %q, %v", pt, err)
	}
	if _, err := r.EncryptWith("gone", []byte("x"), nil); err == nil || !strings.Contains(err.Error(), `"gone"`) {
		t.Errorf("EncryptWith unknown id: %v", err)
	}
}

func TestRingStringHidesKeys(t *testing.T) {
	ks := mustKeyset(t, mustKeyText(t, "k1"))
	r := ringOf(t, ks)
	for _, s := range []string{fmt.Sprint(r), fmt.Sprintf("%v %+v %#v %s", r, r, r, r)} {
		if s != "vault.Ring{k1} vault.Ring{k1} vault.Ring{k1} vault.Ring{k1}" && s != "vault.Ring{k1}" {
			t.Errorf("Ring prints as %q", s)
		}
	}
	if s := fmt.Sprintf("%v %+v %#v", ks, ks, ks); s != "vault.Keyset{k1} vault.Keyset{k1} vault.Keyset{k1}" {
		t.Errorf("Keyset prints as %q", s)
	}
}
