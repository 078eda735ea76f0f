package vault

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tink-crypto/tink-go/v2/aead/aesgcm"
	"github.com/tink-crypto/tink-go/v2/core/registry"
	"github.com/tink-crypto/tink-go/v2/insecurecleartextkeyset"
	"github.com/tink-crypto/tink-go/v2/keyset"
	"github.com/tink-crypto/tink-go/v2/tink"
)

// docMap is a card key document as generic JSON, for tests that break it.
func docMap(t *testing.T, text string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func docText(t *testing.T, m map[string]any) string {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// keyValue is the base64 Tink key proto of the document's first key: what
// must never appear in an error.
func keyValue(t *testing.T, m map[string]any) string {
	t.Helper()
	keys := m["keyset"].(map[string]any)["key"].([]any)
	return keys[0].(map[string]any)["keyData"].(map[string]any)["value"].(string)
}

func TestGenerateKeyFile(t *testing.T) {
	text := mustKeyText(t, "k20261121")
	ks := mustKeyset(t, text)
	keys := ks.Keys()
	if len(keys) != 1 || keys[0].ID != "k20261121" || !keys[0].Primary || keys[0].Status != "ENABLED" || keys[0].Prefix != "TINK" {
		t.Fatalf("keys = %+v", keys)
	}
	m := docMap(t, text)
	if m["format"] != Format || m["note"] == "" {
		t.Errorf("document head: %v %v", m["format"], m["note"])
	}
	kd := m["keyset"].(map[string]any)["key"].([]any)[0].(map[string]any)["keyData"].(map[string]any)
	if kd["typeUrl"] != aesGCMTypeURL {
		t.Errorf("typeUrl %v", kd["typeUrl"])
	}
	if text == mustKeyText(t, "k20261121") {
		t.Error("two generated documents are equal")
	}
	for _, bad := range []string{"", "K", "a b", strings.Repeat("a", 33)} {
		if _, err := GenerateKeyFile(bad); err == nil {
			t.Errorf("GenerateKeyFile(%q) accepted a bad id", bad)
		}
	}
	// The document round-trips unchanged (but for the note, which it sets).
	again, err := ks.Marshal()
	if err != nil || string(again) != text {
		t.Errorf("Marshal of a parsed document differs:\n%s\n%s", again, text)
	}
}

func TestDocumentErrors(t *testing.T) {
	good := mustKeyText(t, "k1")
	value := keyValue(t, docMap(t, good))
	edit := func(f func(m map[string]any)) string {
		m := docMap(t, good)
		f(m)
		return docText(t, m)
	}
	firstKey := func(m map[string]any) map[string]any {
		return m["keyset"].(map[string]any)["key"].([]any)[0].(map[string]any)
	}
	aes128 := func() string {
		m := keyset.NewManager()
		p, _ := aesgcm.NewParameters(aesgcm.ParametersOpts{KeySizeInBytes: 16, IVSizeInBytes: 12, TagSizeInBytes: 16, Variant: aesgcm.VariantTink})
		id, err := m.AddNewKeyFromParameters(p)
		if err != nil {
			t.Fatal(err)
		}
		m.SetPrimary(id)
		h, _ := m.Handle()
		var buf bytes.Buffer
		insecurecleartextkeyset.Write(h, keyset.NewJSONWriter(&buf))
		return `{"format":"` + Format + `","keyIds":[{"id":"k1","tinkKeyId":` + jsonNumber(id) + `}],"keyset":` + buf.String() + `}`
	}
	tests := []struct{ name, text, want string }{
		{"not json", `{"format": `, "not valid JSON"},
		{"trailing", good + "{}", "unexpected data after the JSON object"},
		{"unknown member", edit(func(m map[string]any) { m["keyset2"] = 1 }), `unknown member "keyset2"`},
		{"no format", edit(func(m map[string]any) { delete(m, "format") }), `"format" is "", want "wayfarer-card-keys/1"`},
		{"other format", edit(func(m map[string]any) { m["format"] = "wayfarer-card-keys/2" }), `want "wayfarer-card-keys/1"`},
		{"no keyset", edit(func(m map[string]any) { delete(m, "keyset") }), `no "keyset"`},
		{"both keysets", edit(func(m map[string]any) { m["encryptedKeyset"] = m["keyset"] }), "not both"},
		{"kekUri without encryption", edit(func(m map[string]any) { m["kekUri"] = "gcp-kms://x" }), `"kekUri" goes with "encryptedKeyset"`},
		{"keyIds wrong type", edit(func(m map[string]any) { m["keyIds"] = "k1" }), `"keyIds" must be a JSON`},
		{"unnamed key", edit(func(m map[string]any) { m["keyIds"] = []any{} }), "has no key id: add"},
		{"name without key", edit(func(m map[string]any) {
			m["keyIds"] = append(m["keyIds"].([]any), map[string]any{"id": "k2", "tinkKeyId": 7})
		}), `key id "k2" names Tink key 7, which is not in the keyset`},
		{"duplicate name", edit(func(m map[string]any) {
			m["keyIds"] = append(m["keyIds"].([]any), map[string]any{"id": "k1", "tinkKeyId": 7})
		}), `duplicate key id "k1"`},
		{"bad name", edit(func(m map[string]any) { m["keyIds"].([]any)[0].(map[string]any)["id"] = "K 1" }), "must be 1 to 32 of a-z"},
		{"other key type", edit(func(m map[string]any) {
			firstKey(m)["keyData"].(map[string]any)["typeUrl"] = "type.googleapis.com/google.crypto.tink.ChaCha20Poly1305Key"
		}), "card keys must be AES256_GCM"},
		{"legacy prefix", edit(func(m map[string]any) { firstKey(m)["outputPrefixType"] = "LEGACY" }), "output prefix LEGACY"},
		{"aes128", aes128(), "must be AES256_GCM (32-byte key"},
		{"primary disabled", edit(func(m map[string]any) { firstKey(m)["status"] = "DISABLED" }), "invalid Tink keyset"},
		{"no primary", edit(func(m map[string]any) { m["keyset"].(map[string]any)["primaryKeyId"] = 1 }), "invalid Tink keyset"},
		{"key value not base64", edit(func(m map[string]any) {
			firstKey(m)["keyData"].(map[string]any)["value"] = value + "!!" + value
		}), "not a Tink JSON keyset"},
		{"key value truncated", edit(func(m map[string]any) {
			firstKey(m)["keyData"].(map[string]any)["value"] = value[:20]
		}), "cannot be read"},
	}
	for _, tt := range tests {
		_, err := ParseKeys([]byte(tt.text))
		if err == nil {
			t.Errorf("%s: no error", tt.name)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %q, want it to contain %q", tt.name, err, tt.want)
		}
		if strings.Contains(err.Error(), value[:12]) || strings.Contains(err.Error(), value[len(value)-12:]) {
			t.Errorf("%s: err %q echoes key material", tt.name, err)
		}
	}
}

func jsonNumber(n uint32) string { b, _ := json.Marshal(n); return string(b) }

func TestDisabledKey(t *testing.T) {
	ks := mustKeyset(t, mustKeyText(t, "old"))
	oldRing := ringOf(t, ks)
	_, ct, _ := oldRing.Encrypt([]byte("4111111111111111"), aad)
	if err := ks.Add("new", true); err != nil {
		t.Fatal(err)
	}
	doc, _ := ks.Marshal()
	m := docMap(t, string(doc))
	for _, k := range m["keyset"].(map[string]any)["key"].([]any) {
		if k := k.(map[string]any); k["keyId"] != m["keyset"].(map[string]any)["primaryKeyId"] {
			k["status"] = "DISABLED"
		}
	}
	r := mustRing(t, docText(t, m))
	if r.Has("old") || !r.Disabled("old") || r.Disabled("new") {
		t.Errorf("Has(old)=%v Disabled(old)=%v", r.Has("old"), r.Disabled("old"))
	}
	if _, err := r.Decrypt("old", ct, aad); err == nil || !strings.Contains(err.Error(), `card key id "old" is disabled`) {
		t.Errorf("decrypt under a disabled key: %v", err)
	}
}

func TestKeysetEdits(t *testing.T) {
	ks := mustKeyset(t, mustKeyText(t, "a"))
	if err := ks.Add("a", false); err == nil {
		t.Error("Add of an existing id accepted")
	}
	if err := ks.Add("B", false); err == nil {
		t.Error("Add of a bad id accepted")
	}
	if err := ks.Add("b", false); err != nil {
		t.Fatal(err)
	}
	if err := ks.Promote("c"); err == nil {
		t.Error("Promote of a missing id accepted")
	}
	if err := ks.Remove("a"); err == nil || !strings.Contains(err.Error(), "primary") {
		t.Errorf("Remove of the primary: %v", err)
	}
	if err := ks.Promote("b"); err != nil {
		t.Fatal(err)
	}
	if err := ks.Remove("a"); err != nil {
		t.Fatal(err)
	}
	doc, _ := ks.Marshal()
	r := mustRing(t, string(doc))
	if got := r.KeyIDs(); len(got) != 1 || got[0] != "b" {
		t.Errorf("after edits: %v", got)
	}
}

// testKMS is a KMS client for "test-kms://" URIs backed by a local key.
type testKMS struct{ aead tink.AEAD }

func (c testKMS) Supported(uri string) bool { return strings.HasPrefix(uri, "test-kms://") }
func (c testKMS) GetAEAD(uri string) (tink.AEAD, error) {
	return c.aead, nil
}

// A keyset encrypted under a KMS key opens through the KMS client Tink's
// registry holds for its URI, and is written back encrypted.
func TestEncryptedKeyset(t *testing.T) {
	kekRing := mustRing(t, mustKeyText(t, "kek"))
	registry.RegisterKMSClient(testKMS{kekRing.keys[0].aead})
	t.Cleanup(registry.ClearKMSClients)

	plain := mustKeyset(t, mustKeyText(t, "k1"))
	var buf bytes.Buffer
	if err := plain.handle.Write(keyset.NewJSONWriter(&buf), kekRing.keys[0].aead); err != nil {
		t.Fatal(err)
	}
	doc := `{"format":"` + Format + `","kekUri":"test-kms://keys/card","keyIds":[{"id":"k1","tinkKeyId":` +
		jsonNumber(plain.Keys()[0].TinkKeyID) + `}],"encryptedKeyset":` + buf.String() + `}`
	ks := mustKeyset(t, doc)
	r := ringOf(t, ks)
	id, ct, err := r.Encrypt([]byte("4111111111111111"), aad)
	if err != nil {
		t.Fatal(err)
	}
	if pt, err := ringOf(t, plain).Decrypt(id, ct, aad); err != nil || string(pt) != "4111111111111111" {
		t.Errorf("the encrypted keyset holds another key: %v", err)
	}
	if err := ks.Add("k2", true); err != nil {
		t.Fatal(err)
	}
	out, err := ks.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	m := docMap(t, string(out))
	if m["keyset"] != nil || m["encryptedKeyset"] == nil || m["kekUri"] != "test-kms://keys/card" {
		t.Errorf("written back as %s", out)
	}
	if r := mustRing(t, string(out)); r.CurrentKeyID() != "k2" {
		t.Errorf("rewritten keyset primary %q", r.CurrentKeyID())
	}

	for _, tt := range []struct{ doc, want string }{
		{strings.Replace(doc, "test-kms://", "aws-kms://", 1), `no KMS client in this build for kekUri "aws-kms://keys/card"`},
		{strings.Replace(doc, `"kekUri":"test-kms://keys/card",`, "", 1), `"encryptedKeyset" needs "kekUri"`},
	} {
		if _, err := ParseKeys([]byte(tt.doc)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("err = %v, want %q", err, tt.want)
		}
	}
	// Under another KMS key it does not open.
	registry.ClearKMSClients()
	registry.RegisterKMSClient(testKMS{mustRing(t, mustKeyText(t, "other")).keys[0].aead})
	if _, err := ParseKeys([]byte(doc)); err == nil || !strings.Contains(err.Error(), "cannot be opened with KMS key") {
		t.Errorf("wrong KMS key: %v", err)
	}
}
