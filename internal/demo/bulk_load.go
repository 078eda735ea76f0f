package demo

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/schollz/progressbar/v3"

	"wayfarer/internal/sqlstore"
	"wayfarer/internal/wayfarer"
)

// bulkBatch persons are generated, and written in one transaction, at a time.
const bulkBatch = 20000

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
	var bar *progressbar.ProgressBar
	if progress != nil {
		bar = progressbar.NewOptions(n-start, progressbar.OptionSetWriter(progress),
			progressbar.OptionSetDescription(fmt.Sprintf("persons of %s", ag.Alias)), progressbar.OptionShowCount(),
			progressbar.OptionShowIts(), progressbar.OptionSetItsString("persons"), progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionSetPredictTime(true), progressbar.OptionOnCompletion(func() { fmt.Fprintln(progress) }))
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		persons []BulkPerson
		err     error
	}
	// One channel per batch keeps the batches in order while workers race.
	batches := make(chan chan result, runtime.GOMAXPROCS(0)*2)
	go func() {
		defer close(batches)
		sem := make(chan struct{}, runtime.GOMAXPROCS(0))
		for lo := start; lo < n; lo += bulkBatch {
			hi := min(lo+bulkBatch, n)
			out := make(chan result, 1)
			select {
			case batches <- out:
			case <-ctx.Done():
				return
			}
			sem <- struct{}{}
			go func() {
				defer func() { <-sem }()
				ps := make([]BulkPerson, hi-lo)
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

	// One connection writes; on SQLite it gets a large page cache for the
	// load (index pages of a million persons), given back afterwards.
	conn, err := db.Primary().Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	if !db.Dialect.Numbered {
		if _, err := conn.ExecContext(ctx, "PRAGMA cache_size = -524288"); err != nil {
			return 0, err
		}
		defer conn.ExecContext(context.Background(), "PRAGMA cache_size = -2000")
	}
	added := 0
	for out := range batches {
		r := <-out
		if r.err != nil {
			return added, r.err
		}
		if err := insertBulk(ctx, conn, db.Dialect, ag.ID, r.persons); err != nil {
			return added, err
		}
		added += len(r.persons)
		if bar != nil {
			_ = bar.Add(len(r.persons))
		}
	}
	// Fresh statistics let the planner pick the search indexes well.
	if _, err := conn.ExecContext(ctx, "ANALYZE"); err != nil {
		return added, fmt.Errorf("analyze: %w", err)
	}
	return added, nil
}
