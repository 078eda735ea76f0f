package demo

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// bulkBatch persons are generated, and written in one transaction, at a
// time; the first batch is firstBulkBatch, each next one twice as large.
// With at most GOMAXPROCS batches queued and GOMAXPROCS being generated,
// the loader holds a few tens of thousands of persons (target 6: ≤ 300 MB).
const (
	bulkBatch      = 5000
	firstBulkBatch = 500
)

// DeferIndexesFrom is the smallest load (in persons) that builds the
// indexes after its rows (sqlstore.DB.BulkLoad); a variable for tests.
var DeferIndexesFrom = 50000

// LoadPersons tops the agency up to n persons with demo persons, GeneratePerson
// numbers count..n-1 of the DemoPersonSeed sequence: the result does not
// depend on how often it ran or where a run was cut off, and a second run
// with the same n adds nothing. Generation runs on every core, ahead of the
// one writer; each batch commits on its own, so an interrupted load keeps
// what it wrote. A progress bar goes to progress (nil: none). It returns how
// many persons it added.
func LoadPersons(ctx context.Context, db *sqlstore.DB, alias string, n int, sealer wayfarer.CardSealer, progress io.Writer) (int, error) {
	ag, err := db.AgencyByAlias(ctx, wayfarer.NormalizeAlias(alias))
	if err != nil {
		return 0, fmt.Errorf("agency %s: %w", alias, err)
	}
	have, err := db.CountPersons(ctx, ag.ID)
	if err != nil {
		return 0, err
	}
	start := int(have)
	if start >= n {
		return 0, nil
	}
	refs, err := LoadPersonRefs(ctx, db, ag.ID, sealer)
	if err != nil {
		return 0, err
	}
	var bar *progressLine
	if progress != nil {
		bar = newProgress(progress, "persons of "+ag.Alias, n-start, time.Now)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		persons []sqlstore.BulkPerson
		err     error
	}
	// One channel per batch keeps the batches in order while workers race.
	batches := make(chan chan result, runtime.GOMAXPROCS(0))
	go func() {
		defer close(batches)
		sem := make(chan struct{}, runtime.GOMAXPROCS(0))
		// The first batches are small, so that the progress line has a
		// rate and an estimate within a second; then bulkBatch at a time.
		size := firstBulkBatch
		for lo := start; lo < n; lo, size = lo+size, min(size*2, bulkBatch) {
			hi := min(lo+size, n)
			out := make(chan result, 1)
			select {
			case batches <- out:
			case <-ctx.Done():
				return
			}
			sem <- struct{}{}
			go func() {
				defer func() { <-sem }()
				ps := make([]sqlstore.BulkPerson, hi-lo)
				for i := range ps {
					p, err := GeneratePerson(DemoPersonSeed, lo+i, refs)
					if err != nil {
						out <- result{err: err}
						return
					}
					ps[i] = p
				}
				out <- result{persons: ps}
			}()
		}
	}()

	added := 0
	// Build the indexes after the rows when the load at least doubles the
	// table and is not small: one sort per index beats a B-tree insert per
	// row there, and rebuilding them costs in proportion to the whole table.
	add := n - start
	deferIndexes := add >= DeferIndexesFrom && add >= start
	opt := sqlstore.BulkOptions{DeferIndexes: deferIndexes}
	if progress != nil {
		opt.Log = func(format string, args ...any) { fmt.Fprintf(progress, format+"\n", args...) }
	}
	err = db.BulkLoad(ctx, ag.ID, opt, func(insert func([]sqlstore.BulkPerson) error) error {
		for out := range batches {
			r := <-out
			if r.err != nil {
				return r.err
			}
			if err := insert(r.persons); err != nil {
				return err
			}
			added += len(r.persons)
			if bar != nil {
				bar.update(added)
			}
		}
		// The persons in flight are gone: their heap goes back before the
		// index builds' sorts take memory of their own (target 6).
		debug.FreeOSMemory()
		return nil
	})
	if bar != nil && err == nil {
		bar.finish(added)
	}
	return added, err
}
