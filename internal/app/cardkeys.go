package app

import (
	"context"
	"errors"
	"log/slog"
	"strconv"

	"github.com/wayfarerhq/wayfarer/internal/metrics"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/vault"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// ErrNoCardKey says how to give an instance its card vault key.
var ErrNoCardKey = errors.New("no card encryption key: set --card-key-file or WAYFARER_CARD_KEYS (serve --demo on SQLite creates <db>.cardkey)")

// HasCardKey reports whether the configuration names a card vault key.
func (c Config) HasCardKey() bool { return c.CardKeys != "" || c.CardKeyFile != "" }

// loadCardKeys loads the card keyset from the environment or the key file,
// never from the database; nil when none is configured. Without a key, card
// numbers cannot be sealed or opened and saving a credit card fails; serve
// refuses to start that way.
func loadCardKeys(cfg Config) (*vault.Ring, error) {
	if !cfg.HasCardKey() {
		return nil, nil
	}
	return vault.LoadRing(cfg.CardKeyFile, cfg.CardKeys)
}

func sealerOf(ring *vault.Ring, m *metrics.Metrics) wayfarer.CardSealer {
	if ring == nil {
		return noKeySealer{}
	}
	return vaultSealer{ring, m}
}

// vaultSealer is the core's CardSealer over the card vault. Ciphertexts are
// bound to their agency ("agency:<id>"): a number copied into another
// agency's row does not decrypt there.
// Every operation is counted in the metrics (never with a number or key).
type vaultSealer struct {
	ring    *vault.Ring
	metrics *metrics.Metrics
}

func cardAAD(agencyID int64) []byte { return []byte("agency:" + strconv.FormatInt(agencyID, 10)) }

func (s vaultSealer) Seal(agencyID int64, digits string) (string, []byte, error) {
	keyID, cipher, err := s.ring.Encrypt([]byte(digits), cardAAD(agencyID))
	s.metrics.Vault("encrypt", err)
	return keyID, cipher, err
}

func (s vaultSealer) Open(agencyID int64, keyID string, cipher []byte) (string, error) {
	pt, err := s.ring.Decrypt(keyID, cipher, cardAAD(agencyID))
	s.metrics.Vault("decrypt", err)
	if err != nil {
		return "", err
	}
	return string(pt), nil
}

type noKeySealer struct{}

func (noKeySealer) Seal(int64, string) (string, []byte, error) { return "", nil, ErrNoCardKey }
func (noKeySealer) Open(int64, string, []byte) (string, error) { return "", ErrNoCardKey }

// openCardKeys loads the card keyset and checks it against the database
// (CheckCardKeys) before the instance serves; the legacy key text still
// works but is worth converting, which the log says once.
func openCardKeys(ctx context.Context, db *sqlstore.DB, cfg Config, log *slog.Logger, clock wayfarer.Clock) (*vault.Ring, error) {
	ring, err := loadCardKeys(cfg)
	if err != nil || ring == nil {
		return nil, err
	}
	if err := CheckCardKeys(ctx, db, ring, clock.Now()); err != nil {
		return nil, err
	}
	if ring.Legacy() {
		log.Warn("card keys are in the old id:base64 text; they work, but convert them to a Tink keyset document: wayfarer keys convert --out <new file>",
			"key_ids", ring.KeyIDs())
	}
	return ring, nil
}
