package app

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/vault"
)

// Rotation (wayfarer keys rotate) re-encrypts every card number sealed
// under a key other than the keyset's primary, while instances serve: in
// batches, each written in its own short transaction, walking the cards of
// one old key id at a time in rec_no order. Cards already under the primary
// are never read again, so a second run resumes where the first stopped.

// DefaultRotateBatch and MaxRotateBatch bound the cards of one transaction.
const (
	DefaultRotateBatch = 500
	MaxRotateBatch     = 10_000
)

// RotateOptions adjust a rotation.
type RotateOptions struct {
	BatchSize  int // cards per transaction; 0: DefaultRotateBatch
	MaxBatches int // stop after this many batches; 0: run to the end
	// Progress is called after every batch.
	Progress func(RotateProgress)
	// Log receives one line per card that could not be opened.
	Log *slog.Logger
	// BeforeWrite runs between reading a batch and writing it (tests use it
	// to save a card in between).
	BeforeWrite func(batch int)
}

// RotateProgress is the state after a batch.
type RotateProgress struct {
	From, To   string // the old key id being worked on, and the primary
	Done       int64  // cards handled so far in this run
	Total      int64  // cards not under the primary when the run started
	PerSecond  float64
	BatchCount int
}

// RotateResult sums a run up.
type RotateResult struct {
	To        string
	Total     int64 // cards not under the primary at the start
	Resealed  int64 // now under the primary
	Skipped   int64 // changed by a save meanwhile: their new value is kept
	Failed    []sqlstore.SealedCard
	Remaining int64 // cards not under the primary at the end
	Stopped   bool  // MaxBatches or a cancelled context ended the run early
	Elapsed   time.Duration
}

// RotateCardKeys re-encrypts card numbers under ring's primary key. A card
// that cannot be opened is logged (record number and key id) and left as it
// is; the run goes on.
func RotateCardKeys(ctx context.Context, db *sqlstore.DB, ring *vault.Ring, opt RotateOptions) (RotateResult, error) {
	if ring == nil {
		return RotateResult{}, ErrNoCardKey
	}
	batch := opt.BatchSize
	if batch <= 0 {
		batch = DefaultRotateBatch
	}
	if batch > MaxRotateBatch {
		return RotateResult{}, fmt.Errorf("batch size %d is above the limit of %d", batch, MaxRotateBatch)
	}
	log := opt.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	res := RotateResult{To: ring.CurrentKeyID()}
	start := time.Now()
	old, total, err := cardsToRotate(ctx, db, res.To)
	if err != nil {
		return res, err
	}
	res.Total = total
	for _, id := range old {
		if !ring.Has(id) {
			return res, fmt.Errorf("card key id %q is not in the card keyset: cards sealed under it cannot be re-encrypted", quoteSafe(id))
		}
	}
	var done int64
	batches := 0
	defer func() { res.Elapsed = time.Since(start) }()
outer:
	for _, id := range old {
		after := int64(0)
		for {
			if ctx.Err() != nil || (opt.MaxBatches > 0 && batches >= opt.MaxBatches) {
				res.Stopped = true
				break outer
			}
			cards, err := db.SealedCards(ctx, id, after, batch)
			if err != nil && ctx.Err() != nil {
				res.Stopped = true
				break outer
			}
			if err != nil {
				return res, err
			}
			if len(cards) == 0 {
				break
			}
			after = cards[len(cards)-1].RecNo
			reseals := make([]sqlstore.Reseal, 0, len(cards))
			for _, c := range cards {
				r, err := reseal(ring, c)
				if err != nil {
					log.Error("card could not be re-encrypted", "card_rec_no", c.RecNo, "agency_id", c.AgencyID, "key_id", c.KeyID, "error", err.Error())
					res.Failed = append(res.Failed, sqlstore.SealedCard{AgencyID: c.AgencyID, RecNo: c.RecNo, KeyID: c.KeyID})
					continue
				}
				reseals = append(reseals, r)
			}
			if opt.BeforeWrite != nil {
				opt.BeforeWrite(batches)
			}
			n, err := db.ResealCards(ctx, reseals)
			if err != nil && ctx.Err() != nil { // the batch rolled back: nothing of it written
				res.Stopped = true
				break outer
			}
			if err != nil {
				return res, err
			}
			res.Resealed += int64(n)
			res.Skipped += int64(len(reseals) - n)
			done += int64(len(cards))
			batches++
			if opt.Progress != nil {
				elapsed := time.Since(start).Seconds()
				opt.Progress(RotateProgress{From: id, To: res.To, Done: done, Total: total,
					PerSecond: float64(done) / max(elapsed, 1e-3), BatchCount: batches})
			}
		}
	}
	_, res.Remaining, err = cardsToRotate(context.WithoutCancel(ctx), db, res.To)
	return res, err
}

// cardsToRotate lists the key ids other than primary that seal cards, and
// how many cards they seal.
func cardsToRotate(ctx context.Context, db *sqlstore.DB, primary string) ([]string, int64, error) {
	ids, err := db.CardKeyIDs(ctx)
	if err != nil {
		return nil, 0, err
	}
	var old []string
	var total int64
	for _, id := range ids {
		if id == primary {
			continue
		}
		n, err := db.CountSealedCards(ctx, id)
		if err != nil {
			return nil, 0, err
		}
		old = append(old, id)
		total += n
	}
	return old, total, nil
}

func reseal(ring *vault.Ring, c sqlstore.SealedCard) (sqlstore.Reseal, error) {
	aad := cardAAD(c.AgencyID)
	pt, err := ring.Decrypt(c.KeyID, c.Cipher, aad)
	if err != nil {
		return sqlstore.Reseal{}, err
	}
	defer clear(pt)
	keyID, ct, err := ring.Encrypt(pt, aad)
	if err != nil {
		return sqlstore.Reseal{}, err
	}
	return sqlstore.Reseal{From: c, KeyID: keyID, NewCipher: ct}, nil
}
