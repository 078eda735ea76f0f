package app

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/vault"
)

// The start-up canary (docs/deployment.md, "Card keys"): per card key id, a
// known text sealed under that key is kept in card_key_canary. A key id in
// use must be in the keyset and open its canary, or the instance does not
// start: a missing or wrong key is found before any card fails to open.

const canaryText = "wayfarer card key canary v1"

func canaryAAD(keyID string) []byte { return []byte("card-key-canary:" + keyID) }

// CardKeyError lists why the card keys do not fit the database; each
// problem names its key id.
type CardKeyError struct{ Problems []string }

func (e *CardKeyError) Error() string {
	return "the card keys do not fit the database, so the server does not start:\n  - " +
		strings.Join(e.Problems, "\n  - ") +
		"\n(docs/deployment.md, \"Card keys\"; `wayfarer keys list` shows the keyset)"
}

// checkSample is how many cards a key id with no canary yet is tried on: a
// wrong key opens none of them, a right one all but damaged rows.
const checkSample = 3

// CheckCardKeys checks ring against the database: every key id cards are
// sealed under must be an enabled key of ring, and every key of ring must
// open its canary. Keys without a canary get one, after opening a card
// sealed under them when there is one (databases from before canaries). A
// canary whose key left the keyset and seals no card is a retired key and
// left alone, so the id cannot later come back with other key material.
func CheckCardKeys(ctx context.Context, db *sqlstore.DB, ring *vault.Ring, now time.Time) error {
	used, err := db.CardKeyIDs(ctx)
	if err != nil {
		return fmt.Errorf("card keys: %w", err)
	}
	canaries, err := db.CardKeyCanaries(ctx)
	if err != nil {
		return fmt.Errorf("card keys: %w", err)
	}
	var problems []string
	for _, id := range used {
		if ring.Has(id) {
			continue
		}
		n, err := db.CountSealedCards(ctx, id)
		if err != nil {
			return fmt.Errorf("card keys: %w", err)
		}
		if ring.Disabled(id) {
			problems = append(problems, fmt.Sprintf("key id %q seals %d stored card number(s) but is disabled in the card keyset: enable it again", id, n))
		} else {
			problems = append(problems, fmt.Sprintf("key id %q seals %d stored card number(s) but is not in the card keyset: add that key (from its backup) to the keyset", quoteSafe(id), n))
		}
	}
	wrong := func(id string) string {
		return fmt.Sprintf("key id %q is the wrong key: it does not open what was sealed under that id; restore the key that id stood for", id)
	}
	for _, id := range ring.KeyIDs() {
		if c, ok := canaries[id]; ok {
			if !opensCanary(ring, id, c) {
				problems = append(problems, wrong(id))
			}
			continue
		}
		if slices.Contains(used, id) {
			ok, err := opensSomeCard(ctx, db, ring, id)
			if err != nil {
				return fmt.Errorf("card keys: %w", err)
			}
			if !ok {
				problems = append(problems, wrong(id))
				continue
			}
		}
		ct, err := ring.EncryptWith(id, []byte(canaryText), canaryAAD(id))
		if err != nil {
			return fmt.Errorf("card keys: %w", err)
		}
		stored, err := db.AddCardKeyCanary(ctx, id, ct, now)
		if err != nil {
			return fmt.Errorf("card keys: writing the canary of key id %q: %w", id, err)
		}
		if !opensCanary(ring, id, stored) { // another instance, another key, first
			problems = append(problems, wrong(id))
		}
	}
	if len(problems) > 0 {
		return &CardKeyError{Problems: problems}
	}
	return nil
}

func opensCanary(ring *vault.Ring, id string, cipher []byte) bool {
	pt, err := ring.Decrypt(id, cipher, canaryAAD(id))
	return err == nil && bytes.Equal(pt, []byte(canaryText))
}

func opensSomeCard(ctx context.Context, db *sqlstore.DB, ring *vault.Ring, id string) (bool, error) {
	cards, err := db.SealedCards(ctx, id, 0, checkSample)
	if err != nil {
		return false, err
	}
	for _, c := range cards {
		if pt, err := ring.Decrypt(id, c.Cipher, cardAAD(c.AgencyID)); err == nil {
			clear(pt)
			return true, nil
		}
	}
	return false, nil
}

// quoteSafe cuts an id read from the database short: a row may hold garbage.
func quoteSafe(id string) string {
	if len(id) > 40 {
		return id[:40] + "..."
	}
	return id
}
