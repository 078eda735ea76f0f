package vault

import (
	"fmt"

	"github.com/tink-crypto/tink-go/v2/aead/aesgcm"
	"github.com/tink-crypto/tink-go/v2/keyset"
)

// newKeyParameters are Tink's AES256_GCM template: 32-byte key, 12-byte
// nonce, 16-byte tag, TINK output prefix.
func newKeyParameters() *aesgcm.Parameters {
	p, err := aesgcm.NewParameters(aesgcm.ParametersOpts{KeySizeInBytes: KeySize, IVSizeInBytes: nonceSize, TagSizeInBytes: 16, Variant: aesgcm.VariantTink})
	if err != nil {
		panic(err) // constant parameters
	}
	return p
}

// NewKeyset is a keyset holding one fresh key, named id, as its primary.
func NewKeyset(id string) (*Keyset, error) {
	if !validKeyID(id) {
		return nil, fmt.Errorf("vault: key id %q must be 1 to 32 of a-z, 0-9, _ and -", shorten(id, 40))
	}
	m := keyset.NewManager()
	tid, err := m.AddNewKeyFromParameters(newKeyParameters())
	if err != nil {
		return nil, fmt.Errorf("vault: generating a key: %s", redact(err.Error()))
	}
	if err := m.SetPrimary(tid); err != nil {
		return nil, fmt.Errorf("vault: %s", redact(err.Error()))
	}
	h, err := m.Handle()
	if err != nil {
		return nil, fmt.Errorf("vault: %s", redact(err.Error()))
	}
	return &Keyset{handle: h, ids: map[uint32]string{tid: id}}, nil
}

// GenerateKeyFile returns a new card key document with one fresh key named id.
func GenerateKeyFile(id string) ([]byte, error) {
	ks, err := NewKeyset(id)
	if err != nil {
		return nil, err
	}
	return ks.Marshal()
}

// Add puts a fresh key named id into the keyset, as its primary when
// primary is set. Several instances share a keyset: add the key everywhere
// first, then promote it, so no instance meets a card it cannot open.
func (ks *Keyset) Add(id string, primary bool) error {
	if !validKeyID(id) {
		return fmt.Errorf("vault: key id %q must be 1 to 32 of a-z, 0-9, _ and -", shorten(id, 40))
	}
	if _, taken := ks.tinkID(id); taken {
		return fmt.Errorf("vault: the keyset already has a key with id %q", id)
	}
	return ks.edit(func(m *keyset.Manager) error {
		tid, err := m.AddNewKeyFromParameters(newKeyParameters())
		if err != nil {
			return err
		}
		ks.ids[tid] = id
		if primary {
			return m.SetPrimary(tid)
		}
		return nil
	})
}

// Promote makes the key named id the primary: new card numbers are sealed
// under it from then on.
func (ks *Keyset) Promote(id string) error {
	tid, ok := ks.tinkID(id)
	if !ok {
		return fmt.Errorf("vault: the keyset has no key with id %q", shorten(id, 40))
	}
	return ks.edit(func(m *keyset.Manager) error { return m.SetPrimary(tid) })
}

// Remove deletes the key named id from the keyset. The primary cannot be
// removed; callers check first that no card is sealed under id.
func (ks *Keyset) Remove(id string) error {
	tid, ok := ks.tinkID(id)
	if !ok {
		return fmt.Errorf("vault: the keyset has no key with id %q", shorten(id, 40))
	}
	if id == ks.primaryID() {
		return fmt.Errorf("vault: key %q is the primary; promote another key first", id)
	}
	if err := ks.edit(func(m *keyset.Manager) error { return m.Delete(tid) }); err != nil {
		return err
	}
	delete(ks.ids, tid)
	return nil
}

// edit applies f to a manager over the keyset and keeps the result; on an
// error the keyset is unchanged (names f added are dropped again).
func (ks *Keyset) edit(f func(*keyset.Manager) error) error {
	before := make(map[uint32]string, len(ks.ids))
	for k, v := range ks.ids {
		before[k] = v
	}
	m := keyset.NewManagerFromHandle(ks.handle)
	err := f(m)
	var h *keyset.Handle
	if err == nil {
		h, err = m.Handle()
	}
	if err != nil {
		ks.ids = before
		return fmt.Errorf("vault: %s", redact(err.Error()))
	}
	ks.handle = h
	ks.legacy = false
	return nil
}
