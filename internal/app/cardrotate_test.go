package app_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Rotation stopped half way resumes; a save racing with a batch keeps its
// value; afterwards every card opens under the new key alone and the old
// key can be dropped.
func TestRotateCardKeys(t *testing.T) {
	docs := makeKeyDocs(t)
	for _, engine := range testserver.Engines() {
		t.Run(engine, func(t *testing.T) {
			ctx := context.Background()
			old := withKeys(t, engine, "", docs.old)
			ids := createCardPersons(t, old, 7) // sealed under k2025
			want := map[int64]string{}
			for i, id := range ids {
				want[id] = cardNumbers[i]
			}

			// Every instance now has k2026 as the primary; new saves use it.
			s := withKeys(t, engine, old.DBPath, docs.both)
			db, ring := s.App.DB, s.App.CardKeys
			if ring.CurrentKeyID() != "k2026" {
				t.Fatalf("primary %s", ring.CurrentKeyID())
			}
			more := createCardPersons(t, s, 8)[7]
			want[more] = cardNumbers[7]

			// Interrupted (Ctrl-C) while a batch is in hand: nothing of it
			// is written, and the run says it stopped.
			cctx, cancel := context.WithCancel(ctx)
			res, err := app.RotateCardKeys(cctx, db, ring, app.RotateOptions{BatchSize: 2, BeforeWrite: func(int) { cancel() }})
			if err != nil || !res.Stopped || res.Resealed != 0 || res.Remaining != 7 {
				t.Fatalf("interrupted run: %+v %v", res, err)
			}

			// First run: stopped after two batches of two.
			var progress []app.RotateProgress
			res, err = app.RotateCardKeys(ctx, db, ring, app.RotateOptions{BatchSize: 2, MaxBatches: 2,
				Progress: func(p app.RotateProgress) { progress = append(progress, p) }})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Stopped || res.Total != 7 || res.Resealed != 4 || res.Skipped != 0 || res.Remaining != 3 || len(res.Failed) != 0 {
				t.Fatalf("first run: %+v", res)
			}
			if len(progress) != 2 || progress[1].Done != 4 || progress[1].Total != 7 || progress[1].From != "k2025" || progress[1].To != "k2026" {
				t.Fatalf("progress %+v", progress)
			}
			if n, _ := db.CountSealedCards(ctx, "k2025"); n != 3 {
				t.Fatalf("%d cards left under k2025, want 3", n)
			}

			// Second run resumes with the 5th card; while its first batch is
			// in hand, a save gives that card a new number.
			raced := ids[4]
			res, err = app.RotateCardKeys(ctx, db, ring, app.RotateOptions{BatchSize: 2,
				BeforeWrite: func(batch int) {
					if batch == 0 {
						changeCardNumber(t, s, raced, cardNumbers[8])
					}
				}})
			if err != nil {
				t.Fatal(err)
			}
			want[raced] = cardNumbers[8]
			if res.Stopped || res.Total != 3 || res.Resealed != 2 || res.Skipped != 1 || res.Remaining != 0 {
				t.Fatalf("second run: %+v", res)
			}
			if keyIDs, _ := db.CardKeyIDs(ctx); !slices.Equal(keyIDs, []string{"k2026"}) {
				t.Fatalf("key ids in use %v", keyIDs)
			}
			// Nothing left: a third run does nothing.
			if res, err := app.RotateCardKeys(ctx, db, ring, app.RotateOptions{}); err != nil || res.Total != 0 || res.Resealed != 0 {
				t.Fatalf("third run: %+v %v", res, err)
			}

			// The old key dropped: the instance starts and every card opens.
			fresh := withKeys(t, engine, old.DBPath, docs.new)
			for id, num := range want {
				got, r := clearNumber(t, fresh, id)
				if got != num {
					t.Errorf("person %d: %q (%s), want %s", id, got, r.Body, num)
				}
			}
		})
	}
}

// changeCardNumber saves a new number on the person's credit card.
func changeCardNumber(t *testing.T, s *testserver.Server, recNo int64, number string) {
	t.Helper()
	tok := testserver.Bearer(s.LoginDemo(t, "admin"))
	r := s.Do(t, "GET", fmt.Sprintf("/person/%d", recNo), nil, tok...)
	var ps []*wayfarer.Person
	if err := jsoncodec.Strict.Decode(r.Body, &ps, "test"); err != nil || len(ps) != 1 {
		t.Fatalf("load %d: %s", recNo, r.Body)
	}
	old := ps[0]
	var n wayfarer.Person
	b, _ := jsoncodec.Marshal(old)
	if err := jsoncodec.Strict.Decode(b, &n, "test"); err != nil {
		t.Fatal(err)
	}
	n.PersonCardLink[0].Card.CardNumber = wayfarer.Some(number)
	n.PersonCardLink[0].Card.CardNumberToken = wayfarer.Opt[string]{}
	body := map[string]any{"oldNewDataset": map[string]any{"oldData": []*wayfarer.Person{old}, "newData": []*wayfarer.Person{&n}}}
	if r := s.Do(t, "POST", "/person", body, tok...); r.Status != 200 {
		t.Fatalf("save new number: %d %s", r.Status, r.Body)
	}
}
