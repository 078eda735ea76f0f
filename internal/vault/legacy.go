package vault

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/tink-crypto/tink-go/v2/aead/aesgcm"
	"github.com/tink-crypto/tink-go/v2/insecuresecretdataaccess"
	"github.com/tink-crypto/tink-go/v2/keyset"
	"github.com/tink-crypto/tink-go/v2/secretdata"
)

// The legacy key text, from before the keys were a Tink keyset: entries
// "id:base64(32 bytes)" (standard base64), one per line or several per line
// separated by commas; blank lines and lines starting with # are ignored;
// the first entry is the current key. Its ciphertexts are
// nonce(12)||ciphertext||tag(16) under AES-256-GCM, which is byte for byte
// Tink's AES-GCM with the RAW output prefix, so each entry becomes a RAW key
// of a Tink keyset under its old id and every stored card still opens.
// `wayfarer keys convert` writes that keyset as a card key document.

// ParseRing reads key text (a card key document or the legacy text) into a
// usable ring.
func ParseRing(text string) (*Ring, error) {
	ks, err := ParseKeys([]byte(text))
	if err != nil {
		return nil, err
	}
	return ks.Ring()
}

// parseLegacy reads the legacy text. Errors name the line and entry
// position, and the id once it is known to be well formed, never the key
// text: a malformed entry may be a key pasted in the wrong place.
func parseLegacy(text string) (*Keyset, error) {
	m := keyset.NewManager()
	ids := map[uint32]string{}
	seen := map[string]bool{}
	for lineNo, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		for entryNo, entry := range strings.Split(line, ",") {
			entry = strings.TrimSpace(entry)
			if entry == "" {
				continue
			}
			where := fmt.Sprintf("vault: key line %d entry %d", lineNo+1, entryNo+1)
			id, b64, ok := strings.Cut(entry, ":")
			if !ok {
				return nil, fmt.Errorf("%s: want id:base64key, or a card key document (JSON)", where)
			}
			id, b64 = strings.TrimSpace(id), strings.TrimSpace(b64)
			if !validKeyID(id) {
				return nil, fmt.Errorf("%s: key id must be 1 to 32 of a-z, 0-9, _ and -", where)
			}
			if seen[id] {
				return nil, fmt.Errorf("%s: duplicate key id %q", where, id)
			}
			raw, err := base64.StdEncoding.Strict().DecodeString(b64)
			if err != nil {
				return nil, fmt.Errorf("%s: key %q is not valid standard base64", where, id)
			}
			if len(raw) != KeySize {
				clear(raw)
				return nil, fmt.Errorf("%s: key %q is %d bytes, want %d", where, id, len(raw), KeySize)
			}
			tid, err := addRawKey(m, raw)
			clear(raw)
			if err != nil {
				return nil, fmt.Errorf("%s: key %q: %s", where, id, redact(err.Error()))
			}
			if len(ids) == 0 {
				if err := m.SetPrimary(tid); err != nil {
					return nil, fmt.Errorf("%s: %s", where, redact(err.Error()))
				}
			}
			seen[id] = true
			ids[tid] = id
		}
	}
	if len(ids) == 0 {
		return nil, errors.New("vault: no keys found in key text")
	}
	h, err := m.Handle()
	if err != nil {
		return nil, fmt.Errorf("vault: %s", redact(err.Error()))
	}
	return &Keyset{handle: h, ids: ids, legacy: true}, nil
}

// addRawKey adds a 32-byte AES-GCM key with no output prefix.
func addRawKey(m *keyset.Manager, raw []byte) (uint32, error) {
	p, err := aesgcm.NewParameters(aesgcm.ParametersOpts{KeySizeInBytes: KeySize, IVSizeInBytes: nonceSize, TagSizeInBytes: 16, Variant: aesgcm.VariantNoPrefix})
	if err != nil {
		return 0, err
	}
	k, err := aesgcm.NewKey(secretdata.NewBytesFromData(raw, insecuresecretdataaccess.Token{}), 0, p)
	if err != nil {
		return 0, err
	}
	return m.AddKey(k)
}

func validKeyID(id string) bool {
	if len(id) == 0 || len(id) > 32 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
