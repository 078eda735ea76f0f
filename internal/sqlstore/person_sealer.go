package sqlstore

import (
	"strconv"

	"wayfarer/internal/vault"
	"wayfarer/internal/wayfarer"
)

// VaultSealer is the wayfarer.CardSealer over the card vault. Ciphertexts
// are bound to their agency ("agency:<id>"): a number copied into another
// agency's row does not decrypt there.
type VaultSealer struct{ Ring *vault.Ring }

var _ wayfarer.CardSealer = VaultSealer{}

func cardAAD(agencyID int64) []byte { return []byte("agency:" + strconv.FormatInt(agencyID, 10)) }

func (s VaultSealer) Seal(agencyID int64, digits string) (string, []byte, error) {
	return s.Ring.Encrypt([]byte(digits), cardAAD(agencyID))
}

func (s VaultSealer) Open(agencyID int64, keyID string, cipher []byte) (string, error) {
	pt, err := s.Ring.Decrypt(keyID, cipher, cardAAD(agencyID))
	if err != nil {
		return "", err
	}
	return string(pt), nil
}
