package app

import (
	"errors"
	"strconv"

	"github.com/wayfarerhq/wayfarer/internal/vault"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// ErrNoCardKey says how to give an instance its card vault key.
var ErrNoCardKey = errors.New("no card encryption key: set --card-key-file or WAYFARER_CARD_KEYS (serve --demo on SQLite creates <db>.cardkey)")

// HasCardKey reports whether the configuration names a card vault key.
func (c Config) HasCardKey() bool { return c.CardKeys != "" || c.CardKeyFile != "" }

// cardSealer loads the card vault from the key file or the environment,
// never from the database. Without a key, card numbers cannot be sealed or
// opened and saving a credit card fails; serve refuses to start that way.
func cardSealer(cfg Config) (wayfarer.CardSealer, error) {
	if !cfg.HasCardKey() {
		return noKeySealer{}, nil
	}
	ring, err := vault.LoadRing(cfg.CardKeyFile, cfg.CardKeys)
	if err != nil {
		return nil, err
	}
	return vaultSealer{ring}, nil
}

// vaultSealer is the core's CardSealer over the card vault. Ciphertexts are
// bound to their agency ("agency:<id>"): a number copied into another
// agency's row does not decrypt there.
type vaultSealer struct{ ring *vault.Ring }

func cardAAD(agencyID int64) []byte { return []byte("agency:" + strconv.FormatInt(agencyID, 10)) }

func (s vaultSealer) Seal(agencyID int64, digits string) (string, []byte, error) {
	return s.ring.Encrypt([]byte(digits), cardAAD(agencyID))
}

func (s vaultSealer) Open(agencyID int64, keyID string, cipher []byte) (string, error) {
	pt, err := s.ring.Decrypt(keyID, cipher, cardAAD(agencyID))
	if err != nil {
		return "", err
	}
	return string(pt), nil
}

type noKeySealer struct{}

func (noKeySealer) Seal(int64, string) (string, []byte, error) { return "", nil, ErrNoCardKey }
func (noKeySealer) Open(int64, string, []byte) (string, error) { return "", ErrNoCardKey }
