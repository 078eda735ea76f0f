// Package vault encrypts credit/debit card numbers at rest with AES-256-GCM
// keys kept in a Tink keyset.
//
// Keys live outside the database (a key file or WAYFARER_CARD_KEYS) so a
// database dump alone does not reveal card numbers. The keyset holds several
// keys for rotation: its primary encrypts, any enabled key decrypts, and each
// ciphertext is stored next to the Wayfarer key id (a name such as
// "k20261121") of the key that made it. Keyset.go describes the stored form.
//
// Nothing in this package puts key bytes or plaintext into an error or a
// String result.
package vault

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tink-crypto/tink-go/v2/tink"
)

// KeySize is the AES-256 key length in bytes.
const KeySize = 32

const nonceSize = 12 // the GCM standard nonce

type ringKey struct {
	id   string
	aead tink.AEAD // only the primitive is kept, not the key material
}

// Ring is the usable form of a card keyset: its enabled keys by Wayfarer key
// id, the primary first. It is safe for concurrent use.
type Ring struct {
	keys     []ringKey
	disabled []string // ids of keys the keyset holds but does not enable
	legacy   bool     // read from the old "id:base64key" text
}

// CurrentKeyID is the id new encryptions use (the keyset's primary).
func (r *Ring) CurrentKeyID() string {
	if r == nil || len(r.keys) == 0 {
		return ""
	}
	return r.keys[0].id
}

// KeyIDs lists the ids of the enabled keys, current first.
func (r *Ring) KeyIDs() []string {
	if r == nil {
		return nil
	}
	ids := make([]string, len(r.keys))
	for i, k := range r.keys {
		ids[i] = k.id
	}
	return ids
}

// Has reports whether the ring can open data sealed under id.
func (r *Ring) Has(id string) bool { return r.key(id) != nil }

// Disabled reports whether the keyset holds a key under id that is not
// enabled (status DISABLED or DESTROYED), so it cannot be used.
func (r *Ring) Disabled(id string) bool { return r != nil && slices.Contains(r.disabled, id) }

// Legacy reports whether the keys came in the old "id:base64key" text, which
// still works but should be converted (wayfarer keys convert).
func (r *Ring) Legacy() bool { return r != nil && r.legacy }

// String shows key ids only, so printing a Ring cannot leak key material.
func (r *Ring) String() string {
	return "vault.Ring{" + strings.Join(r.KeyIDs(), ",") + "}"
}

// GoString keeps %#v as safe as %v.
func (r *Ring) GoString() string { return r.String() }

func (r *Ring) key(id string) *ringKey {
	if r == nil {
		return nil
	}
	for i := range r.keys {
		if r.keys[i].id == id {
			return &r.keys[i]
		}
	}
	return nil
}

// Encrypt seals plaintext with the current key and returns that key's id and
// the Tink ciphertext (output prefix, nonce, ciphertext, tag).
//
// additionalData binds the ciphertext to where it is stored: it is not
// encrypted but must be identical on Decrypt. Callers pass the row's owner,
// e.g. "agency:<id>", so a ciphertext copied to another agency's row fails to
// decrypt instead of revealing a number there.
func (r *Ring) Encrypt(plaintext, additionalData []byte) (keyID string, ciphertext []byte, err error) {
	if r == nil || len(r.keys) == 0 {
		return "", nil, errors.New("vault: no encryption key")
	}
	k := r.keys[0]
	ct, err := k.aead.Encrypt(plaintext, additionalData)
	if err != nil {
		return "", nil, fmt.Errorf("vault: cannot encrypt with key %q", k.id)
	}
	return k.id, ct, nil
}

// EncryptWith seals plaintext with the key named keyID, current or not: the
// start-up canaries are sealed under every key.
func (r *Ring) EncryptWith(keyID string, plaintext, additionalData []byte) ([]byte, error) {
	k := r.key(keyID)
	if k == nil {
		return nil, r.unknown(keyID)
	}
	ct, err := k.aead.Encrypt(plaintext, additionalData)
	if err != nil {
		return nil, fmt.Errorf("vault: cannot encrypt with key %q", k.id)
	}
	return ct, nil
}

// Decrypt opens a ciphertext made by Encrypt with the key named keyID. It
// fails on an unknown key id, on tampered data, and on additionalData that
// differs from the one used to encrypt.
func (r *Ring) Decrypt(keyID string, ciphertext, additionalData []byte) ([]byte, error) {
	k := r.key(keyID)
	if k == nil {
		return nil, r.unknown(keyID)
	}
	if len(ciphertext) < nonceSize+16 {
		return nil, fmt.Errorf("vault: ciphertext for key %q is too short", k.id)
	}
	// Tink's own error is not passed on: it is generic anyway, and this
	// package promises errors that never carry data.
	pt, err := k.aead.Decrypt(ciphertext, additionalData)
	if err != nil {
		return nil, fmt.Errorf("vault: cannot decrypt with key %q: wrong key, altered data or data bound to another record", k.id)
	}
	return pt, nil
}

func (r *Ring) unknown(keyID string) error {
	// The id comes from the database, not the key file; it is safe to name,
	// but quoted and cut short in case a row holds garbage.
	if r.Disabled(keyID) {
		return fmt.Errorf("vault: card key id %q is disabled in the card keyset: enable it again", keyID)
	}
	return fmt.Errorf("vault: unknown card key id %q: add that key to the card keyset", shorten(keyID, 40))
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
