package vault

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/tink-crypto/tink-go/v2/aead/aesgcm"
	"github.com/tink-crypto/tink-go/v2/core/registry"
	"github.com/tink-crypto/tink-go/v2/insecurecleartextkeyset"
	"github.com/tink-crypto/tink-go/v2/keyset"
	tinkpb "github.com/tink-crypto/tink-go/v2/proto/tink_go_proto"
	"github.com/tink-crypto/tink-go/v2/tink"
)

// Format is the value of the "format" member of a card key document.
const Format = "wayfarer-card-keys/1"

// The stored form (docs/deployment.md, "Card keys"), a JSON document:
//
//	{
//	  "format": "wayfarer-card-keys/1",
//	  "note": "...",                        (optional, ignored)
//	  "keyIds": [{"id": "k20261121", "tinkKeyId": 1234567890}, ...],
//	  "keyset": { a Tink keyset in Tink's JSON form, in clear }
//	}
//
// or, instead of "keyset", "encryptedKeyset" (Tink's JSON form of a keyset
// encrypted under a KMS key) and "kekUri" (that key's URI, e.g.
// "gcp-kms://..."); it opens through the KMS client Tink's registry holds for
// that URI (registry.RegisterKMSClient), so adding a KMS changes no caller.
//
// Every key is AES-256-GCM (Tink's AesGcmKey, 32 bytes) with output prefix
// TINK (generated keys) or RAW (keys imported from the old id:base64 text,
// whose nonce||ciphertext||tag layout is exactly Tink's RAW AES-GCM). Each
// key has one Wayfarer key id, the name stored beside every ciphertext: the
// database can find the cards under a key, and messages can name it, without
// decrypting anything. Tink's own 5-byte prefix stays on TINK keys'
// ciphertexts as a second, self-describing check.
type document struct {
	Format          string          `json:"format"`
	Note            string          `json:"note,omitempty"`
	KeyIDs          []documentKeyID `json:"keyIds"`
	Keyset          json.RawMessage `json:"keyset,omitempty"`
	EncryptedKeyset json.RawMessage `json:"encryptedKeyset,omitempty"`
	KEKURI          string          `json:"kekUri,omitempty"`
}

type documentKeyID struct {
	ID        string `json:"id"`
	TinkKeyID uint32 `json:"tinkKeyId"`
}

const documentNote = "Wayfarer card encryption keys (AES-256-GCM, Tink keyset). Keep this file outside the database, " +
	"readable by the server user only (chmod 600), and backed up apart from database backups: without it stored card " +
	"numbers cannot be decrypted, with it a stolen dump can be. Format and rotation: docs/deployment.md, \"Card keys\"."

const aesGCMTypeURL = "type.googleapis.com/google.crypto.tink.AesGcmKey"

// Keyset is a card keyset as stored: a Tink keyset whose keys carry
// Wayfarer key ids. Ring gives its usable form; Add, Promote and Remove
// change it for the key commands.
type Keyset struct {
	handle *keyset.Handle
	ids    map[uint32]string // Tink key id → Wayfarer key id
	kekURI string            // set: written back encrypted under this KMS key
	kek    tink.AEAD
	legacy bool
}

// KeyInfo describes one key, without its material.
type KeyInfo struct {
	ID        string
	TinkKeyID uint32
	Primary   bool
	Status    string // ENABLED, DISABLED or DESTROYED
	Prefix    string // TINK or RAW
}

// ParseKeys reads key text: a card key document (JSON, starting with "{")
// or the old "id:base64key" text (legacy.go). Errors name what is wrong and
// where, never key material.
func ParseKeys(text []byte) (*Keyset, error) {
	trimmed := bytes.TrimSpace(text)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		return parseDocument(trimmed)
	}
	return parseLegacy(string(text))
}

func parseDocument(text []byte) (*Keyset, error) {
	var doc document
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, documentError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("vault: card key document: unexpected data after the JSON object")
	}
	if doc.Format != Format {
		return nil, fmt.Errorf("vault: card key document: \"format\" is %q, want %q", shorten(doc.Format, 40), Format)
	}
	ks := &Keyset{ids: map[uint32]string{}}
	var err error
	switch {
	case len(doc.Keyset) > 0 && len(doc.EncryptedKeyset) > 0:
		return nil, errors.New("vault: card key document: give either \"keyset\" or \"encryptedKeyset\", not both")
	case len(doc.Keyset) > 0:
		if doc.KEKURI != "" {
			return nil, errors.New("vault: card key document: \"kekUri\" goes with \"encryptedKeyset\" only")
		}
		ks.handle, err = readCleartext(doc.Keyset)
	case len(doc.EncryptedKeyset) > 0:
		ks.kekURI = doc.KEKURI
		ks.kek, ks.handle, err = readEncrypted(doc.EncryptedKeyset, doc.KEKURI)
	default:
		return nil, errors.New("vault: card key document: no \"keyset\"")
	}
	if err != nil {
		return nil, err
	}
	for _, k := range doc.KeyIDs {
		if !validKeyID(k.ID) {
			return nil, fmt.Errorf("vault: card key document: key id %q must be 1 to 32 of a-z, 0-9, _ and -", shorten(k.ID, 40))
		}
		if slices.Contains(ks.sortedIDs(), k.ID) {
			return nil, fmt.Errorf("vault: card key document: duplicate key id %q", k.ID)
		}
		if _, dup := ks.ids[k.TinkKeyID]; dup {
			return nil, fmt.Errorf("vault: card key document: Tink key %d has two key ids", k.TinkKeyID)
		}
		ks.ids[k.TinkKeyID] = k.ID
	}
	if err := ks.check(); err != nil {
		return nil, err
	}
	return ks, nil
}

// documentError says where the JSON is wrong without quoting it.
func documentError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("vault: card key document is not valid JSON (at byte %d)", syn.Offset)
	case errors.As(err, &typ):
		return fmt.Errorf("vault: card key document: %q must be a JSON %s", typ.Field, typ.Type)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return fmt.Errorf("vault: card key document: unknown member %s (known: format, note, keyIds, keyset, encryptedKeyset, kekUri)",
			shorten(strings.TrimPrefix(err.Error(), "json: unknown field "), 40))
	}
	return fmt.Errorf("vault: card key document is not valid JSON: %s", redact(err.Error()))
}

func readCleartext(raw json.RawMessage) (*keyset.Handle, error) {
	// Read once for the proto, whose errors say what is wrong (redacted), and
	// once through the cleartext reader, which hides them.
	pb, err := keyset.NewJSONReader(bytes.NewReader(raw)).Read()
	if err != nil {
		return nil, fmt.Errorf("vault: \"keyset\" is not a Tink JSON keyset: %s", redact(err.Error()))
	}
	if err := checkProto(pb); err != nil {
		return nil, err
	}
	h, err := insecurecleartextkeyset.Read(keyset.NewJSONReader(bytes.NewReader(raw)))
	if err != nil {
		return nil, fmt.Errorf("vault: \"keyset\" cannot be read: %s", redact(err.Error()))
	}
	return h, nil
}

func readEncrypted(raw json.RawMessage, uri string) (tink.AEAD, *keyset.Handle, error) {
	if uri == "" {
		return nil, nil, errors.New("vault: card key document: \"encryptedKeyset\" needs \"kekUri\", the URI of the KMS key it is encrypted under")
	}
	client, err := registry.GetKMSClient(uri)
	if err != nil {
		return nil, nil, fmt.Errorf("vault: no KMS client in this build for kekUri %q", shorten(uri, 80))
	}
	kek, err := client.GetAEAD(uri)
	if err != nil {
		return nil, nil, fmt.Errorf("vault: KMS key %q: %s", shorten(uri, 80), redact(err.Error()))
	}
	h, err := keyset.Read(keyset.NewJSONReader(bytes.NewReader(raw)), kek)
	if err != nil {
		return nil, nil, fmt.Errorf("vault: \"encryptedKeyset\" cannot be opened with KMS key %q: %s", shorten(uri, 80), redact(err.Error()))
	}
	if err := checkProto(insecurecleartextkeyset.KeysetMaterial(h)); err != nil {
		return nil, nil, err
	}
	return kek, h, nil
}

// checkProto accepts only AES-GCM keys with a TINK or RAW prefix; Tink's
// own validation covers duplicates, statuses and the primary.
func checkProto(pb *tinkpb.Keyset) error {
	if err := keyset.Validate(pb); err != nil {
		return fmt.Errorf("vault: invalid Tink keyset: %s", redact(err.Error()))
	}
	for _, k := range pb.GetKey() {
		if url := k.GetKeyData().GetTypeUrl(); url != aesGCMTypeURL {
			return fmt.Errorf("vault: Tink key %d is %s; card keys must be AES256_GCM (%s)", k.GetKeyId(), shorten(url, 80), aesGCMTypeURL)
		}
		if p := k.GetOutputPrefixType(); p != tinkpb.OutputPrefixType_TINK && p != tinkpb.OutputPrefixType_RAW {
			return fmt.Errorf("vault: Tink key %d has output prefix %s; card keys use TINK (or RAW for imported keys)", k.GetKeyId(), p)
		}
	}
	return nil
}

// check ties the parsed keys together: every key AES-256-GCM with a
// standard nonce and tag, every key named, every name a key.
func (ks *Keyset) check() error {
	seen := map[uint32]bool{}
	for i := range ks.handle.Len() {
		e, err := ks.handle.Entry(i)
		if err != nil {
			return fmt.Errorf("vault: keyset entry %d: %s", i, redact(err.Error()))
		}
		k, ok := e.Key().(*aesgcm.Key)
		if !ok {
			return fmt.Errorf("vault: Tink key %d is not an AES-GCM key", e.KeyID())
		}
		p, _ := k.Parameters().(*aesgcm.Parameters)
		if p == nil || p.KeySizeInBytes() != KeySize || p.IVSizeInBytes() != nonceSize || p.TagSizeInBytes() != 16 {
			return fmt.Errorf("vault: Tink key %d must be AES256_GCM (32-byte key, 12-byte nonce, 16-byte tag)", e.KeyID())
		}
		if _, ok := ks.ids[e.KeyID()]; !ok {
			return fmt.Errorf("vault: Tink key %d has no key id: add {\"id\": \"...\", \"tinkKeyId\": %d} to \"keyIds\"", e.KeyID(), e.KeyID())
		}
		seen[e.KeyID()] = true
	}
	for tid, id := range ks.ids {
		if !seen[tid] {
			return fmt.Errorf("vault: key id %q names Tink key %d, which is not in the keyset", id, tid)
		}
	}
	return nil
}

// Legacy reports whether the keys came in the old "id:base64key" text.
func (ks *Keyset) Legacy() bool { return ks.legacy }

// Keys lists the keys in keyset order.
func (ks *Keyset) Keys() []KeyInfo {
	out := make([]KeyInfo, 0, ks.handle.Len())
	for i := range ks.handle.Len() {
		e, err := ks.handle.Entry(i)
		if err != nil {
			continue
		}
		info := KeyInfo{ID: ks.ids[e.KeyID()], TinkKeyID: e.KeyID(), Primary: e.IsPrimary(), Status: strings.ToUpper(e.KeyStatus().String()), Prefix: "RAW"}
		if _, hasID := e.Key().IDRequirement(); hasID {
			info.Prefix = "TINK"
		}
		out = append(out, info)
	}
	return out
}

func (ks *Keyset) sortedIDs() []string {
	ids := make([]string, 0, len(ks.ids))
	for _, id := range ks.ids {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

func (ks *Keyset) tinkID(id string) (uint32, bool) {
	for tid, name := range ks.ids {
		if name == id {
			return tid, true
		}
	}
	return 0, false
}

// Ring builds the usable form: a primitive per enabled key.
func (ks *Keyset) Ring() (*Ring, error) {
	r := &Ring{legacy: ks.legacy}
	for i := range ks.handle.Len() {
		e, err := ks.handle.Entry(i)
		if err != nil {
			return nil, fmt.Errorf("vault: keyset entry %d: %s", i, redact(err.Error()))
		}
		id := ks.ids[e.KeyID()]
		if e.KeyStatus() != keyset.Enabled {
			r.disabled = append(r.disabled, id)
			continue
		}
		a, err := aesgcm.NewAEAD(e.Key().(*aesgcm.Key))
		if err != nil {
			return nil, fmt.Errorf("vault: key %q: cannot create AES-GCM", id)
		}
		k := ringKey{id: id, aead: a}
		if e.IsPrimary() {
			r.keys = slices.Insert(r.keys, 0, k)
		} else {
			r.keys = append(r.keys, k)
		}
	}
	if len(r.keys) == 0 || r.CurrentKeyID() != ks.primaryID() {
		return nil, errors.New("vault: the keyset has no usable primary key")
	}
	return r, nil
}

func (ks *Keyset) primaryID() string {
	e, err := ks.handle.Primary()
	if err != nil {
		return ""
	}
	return ks.ids[e.KeyID()]
}

// String shows key ids only.
func (ks *Keyset) String() string { return "vault.Keyset{" + strings.Join(ks.sortedIDs(), ",") + "}" }

// GoString keeps %#v as safe as %v.
func (ks *Keyset) GoString() string { return ks.String() }

// Marshal writes the keyset as a card key document (indented JSON), the
// legacy text's keys too: that is how it is converted.
func (ks *Keyset) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	doc := document{Format: Format, Note: documentNote}
	if ks.kek != nil {
		if err := ks.handle.Write(keyset.NewJSONWriter(&buf), ks.kek); err != nil {
			return nil, fmt.Errorf("vault: encrypting the keyset with KMS key %q: %s", shorten(ks.kekURI, 80), redact(err.Error()))
		}
		doc.EncryptedKeyset, doc.KEKURI = buf.Bytes(), ks.kekURI
	} else {
		if err := insecurecleartextkeyset.Write(ks.handle, keyset.NewJSONWriter(&buf)); err != nil {
			return nil, errors.New("vault: writing the keyset failed")
		}
		doc.Keyset = buf.Bytes()
	}
	for _, k := range ks.Keys() {
		doc.KeyIDs = append(doc.KeyIDs, documentKeyID{ID: k.ID, TinkKeyID: k.TinkKeyID})
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, errors.New("vault: encoding the card key document failed")
	}
	return append(out, '\n'), nil
}

// secretish matches what could be key material inside a library's error
// text: long runs of base64 or hex characters.
var secretish = regexp.MustCompile(`[A-Za-z0-9+/=_-]{16,}`)

// redact keeps a library's error text useful (positions, field names)
// while dropping anything long enough to be key material.
func redact(s string) string { return secretish.ReplaceAllString(s, "[...]") }
