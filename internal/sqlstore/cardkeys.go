package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Card key bookkeeping: the start-up canaries and the re-encryption of card
// numbers under a new key (docs/deployment.md, "Card keys"). These run
// across agencies: they are maintenance, not requests.

// CardKeyIDs lists the distinct key ids card numbers are sealed under, in
// index order: one index seek per id, however many cards there are.
func (db *DB) CardKeyIDs(ctx context.Context) ([]string, error) {
	stmt, err := db.primary.PrepareContext(ctx, db.q(
		`SELECT number_key_id FROM card WHERE number_key_id > ? ORDER BY number_key_id LIMIT 1`))
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	var ids []string
	last := ""
	for {
		var id string
		err := stmt.QueryRowContext(ctx, last).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return ids, nil
		}
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
		last = id
	}
}

// SealedCard is one card's sealed number, for re-encryption and checks.
type SealedCard struct {
	AgencyID int64
	RecNo    int64
	KeyID    string
	Cipher   []byte
}

// SealedCards returns up to limit cards sealed under keyID with a rec_no
// above afterRecNo, in rec_no order.
func (db *DB) SealedCards(ctx context.Context, keyID string, afterRecNo int64, limit int) ([]SealedCard, error) {
	var out []SealedCard
	err := queryEach(ctx, db.primary, db.q(`
		SELECT agency_id, rec_no, number_cipher FROM card
		WHERE number_key_id = ? AND rec_no > ? ORDER BY rec_no LIMIT ?`), []any{keyID, afterRecNo, limit},
		func(rows *sql.Rows) error {
			c := SealedCard{KeyID: keyID}
			if err := rows.Scan(&c.AgencyID, &c.RecNo, &c.Cipher); err != nil {
				return err
			}
			out = append(out, c)
			return nil
		})
	return out, err
}

// CountSealedCards counts the cards sealed under keyID.
func (db *DB) CountSealedCards(ctx context.Context, keyID string) (int64, error) {
	var n int64
	err := db.primary.QueryRowContext(ctx, db.q(`SELECT COUNT(*) FROM card WHERE number_key_id = ?`), keyID).Scan(&n)
	return n, err
}

// Reseal replaces a card's sealed number, if it still is the one read.
type Reseal struct {
	From      SealedCard
	KeyID     string
	NewCipher []byte
}

// ResealCards writes every reseal in one transaction, each only where the
// card still holds the key id and cipher it was read with (compare and
// set): a save that changed the number meanwhile keeps its value. It
// returns how many cards it changed.
func (db *DB) ResealCards(ctx context.Context, rs []Reseal) (int, error) {
	changed := 0
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, db.q(`
			UPDATE card SET number_cipher = ?, number_key_id = ?
			WHERE agency_id = ? AND rec_no = ? AND number_key_id = ? AND number_cipher = ?`))
		if err != nil {
			return err
		}
		defer stmt.Close()
		changed = 0
		for _, r := range rs {
			res, err := stmt.ExecContext(ctx, r.NewCipher, r.KeyID, r.From.AgencyID, r.From.RecNo, r.From.KeyID, r.From.Cipher)
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			changed += int(n)
		}
		return nil
	})
	return changed, err
}

// CardKeyCanaries returns the stored canary of every key id.
func (db *DB) CardKeyCanaries(ctx context.Context) (map[string][]byte, error) {
	out := map[string][]byte{}
	err := queryEach(ctx, db.primary, `SELECT key_id, cipher FROM card_key_canary`, nil, func(rows *sql.Rows) error {
		var id string
		var c []byte
		if err := rows.Scan(&id, &c); err != nil {
			return err
		}
		out[id] = c
		return nil
	})
	return out, err
}

// AddCardKeyCanary stores cipher as keyID's canary unless one exists, and
// returns the one stored: of instances racing to write it, all read the
// winner's, and one with a different key under that id finds out.
func (db *DB) AddCardKeyCanary(ctx context.Context, keyID string, cipher []byte, at time.Time) ([]byte, error) {
	if _, err := db.primary.ExecContext(ctx, db.q(
		`INSERT INTO card_key_canary (key_id, cipher, created_at) VALUES (?, ?, ?) ON CONFLICT (key_id) DO NOTHING`),
		keyID, cipher, ts(at)); err != nil {
		return nil, err
	}
	var stored []byte
	err := db.primary.QueryRowContext(ctx, db.q(`SELECT cipher FROM card_key_canary WHERE key_id = ?`), keyID).Scan(&stored)
	return stored, err
}
