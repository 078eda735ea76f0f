// Package vault encrypts credit/debit card numbers at rest with AES-256-GCM.
//
// Keys live outside the database (a key file or WAYFARER_CARD_KEYS) so a
// database dump alone does not reveal card numbers. A Ring holds several keys
// for rotation: the first encrypts, any of them decrypts, and each ciphertext
// is stored next to the id of the key that made it.
//
// Nothing in this package puts key bytes or plaintext into an error or a
// String result.
package vault

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
)

// KeySize is the AES-256 key length in bytes.
const KeySize = 32

const nonceSize = 12 // the GCM standard nonce

type ringKey struct {
	id   string
	aead cipher.AEAD // only the cipher is kept, not the raw key bytes
}

// Ring is a set of keys; the first is the current one. It is safe for
// concurrent use.
type Ring struct {
	keys []ringKey
}

// newRing builds a ring from ids and raw keys, first one current. Callers
// have validated ids and uniqueness.
func newRing(ids []string, keys [][]byte) (*Ring, error) {
	if len(ids) == 0 {
		return nil, errors.New("vault: no keys")
	}
	r := &Ring{keys: make([]ringKey, len(ids))}
	for i, id := range ids {
		if len(keys[i]) != KeySize {
			return nil, fmt.Errorf("vault: key %q is %d bytes, want %d", id, len(keys[i]), KeySize)
		}
		block, err := aes.NewCipher(keys[i])
		if err != nil {
			return nil, fmt.Errorf("vault: key %q: cannot create cipher", id)
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, fmt.Errorf("vault: key %q: cannot create GCM", id)
		}
		r.keys[i] = ringKey{id: id, aead: aead}
	}
	return r, nil
}

// CurrentKeyID is the id new encryptions use.
func (r *Ring) CurrentKeyID() string {
	if r == nil || len(r.keys) == 0 {
		return ""
	}
	return r.keys[0].id
}

// KeyIDs lists the ring's key ids, current first.
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

// String shows key ids only, so printing a Ring cannot leak key material.
func (r *Ring) String() string {
	return "vault.Ring{" + strings.Join(r.KeyIDs(), ",") + "}"
}

// GoString keeps %#v as safe as %v.
func (r *Ring) GoString() string { return r.String() }

// Encrypt seals plaintext with the current key and returns that key's id and
// nonce||ciphertext||tag.
//
// additionalData binds the ciphertext to where it is stored: it is not
// encrypted but must be identical on Decrypt. Callers should pass the row's
// owner, e.g. "agency:<id>" (adding ",card:<id>" when the card id is known
// before the write), so a ciphertext copied to another agency's row fails to
// decrypt instead of revealing a number there.
func (r *Ring) Encrypt(plaintext, additionalData []byte) (keyID string, ciphertext []byte, err error) {
	if r == nil || len(r.keys) == 0 {
		return "", nil, errors.New("vault: no encryption key")
	}
	k := r.keys[0]
	out := make([]byte, nonceSize, nonceSize+len(plaintext)+k.aead.Overhead())
	if _, err := rand.Read(out); err != nil {
		return "", nil, fmt.Errorf("vault: reading random nonce: %w", err)
	}
	out = k.aead.Seal(out, out[:nonceSize], plaintext, additionalData)
	return k.id, out, nil
}

// Decrypt opens a ciphertext made by Encrypt with the key named keyID. It
// fails on an unknown key id, on tampered data, and on additionalData that
// differs from the one used to encrypt.
func (r *Ring) Decrypt(keyID string, ciphertext, additionalData []byte) ([]byte, error) {
	if r == nil {
		return nil, errors.New("vault: no keys")
	}
	var k *ringKey
	for i := range r.keys {
		if r.keys[i].id == keyID {
			k = &r.keys[i]
			break
		}
	}
	if k == nil {
		// The id comes from the database, not the key file; it is safe to name,
		// but quoted and cut short in case a row holds garbage.
		return nil, fmt.Errorf("vault: unknown card key id %q: add that key to the key ring", shorten(keyID, 40))
	}
	if len(ciphertext) < nonceSize+k.aead.Overhead() {
		return nil, fmt.Errorf("vault: ciphertext for key %q is too short", k.id)
	}
	pt, err := k.aead.Open(nil, ciphertext[:nonceSize], ciphertext[nonceSize:], additionalData)
	if err != nil {
		return nil, fmt.Errorf("vault: cannot decrypt with key %q: wrong key, altered data or data bound to another record", k.id)
	}
	return pt, nil
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
