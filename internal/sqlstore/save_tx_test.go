package sqlstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// TestSaveAnsweredCommittedStaysCommitted: a save whose COMMIT went with
// its last write and was answered is written, and says so, even when its
// time runs out before database/sql ends its side of the transaction (that
// end then fails with nothing left to send). It used to answer
// QueryTimeoutError, "nothing written", for a save that was written.
func TestSaveAnsweredCommittedStaysCommitted(t *testing.T) {
	for _, engine := range searchEngines() {
		t.Run(engine, func(t *testing.T) {
			db, sc, recNo := onePerson(t, engine, sqlstore.BulkPerson{})
			ctx := context.Background()

			const limit = 200 * time.Millisecond
			db.SetQueryTimeout(limit)
			late := false
			defer sqlstore.SetAfterPipelinedCommitForTest(func() {
				late = true
				time.Sleep(3 * limit) // past the call's deadline, grace included
			})()
			err := db.UpdatePerson(ctx, sc, recNo, false, func(current *wayfarer.Person) (*wayfarer.PersonWrite, error) {
				n := &wayfarer.Person{LastName: wayfarer.Some("Baker")}
				return &wayfarer.PersonWrite{Changes: &wayfarer.PersonChanges{RecNo: recNo, Old: current, New: n, Fields: []string{"lastName"}}, Now: time.Now()}, nil
			})
			if err != nil {
				t.Errorf("save: %v", err)
			}
			if engine == "postgres" && !late {
				t.Error("the save's COMMIT did not go with its last write")
			}
			db.SetQueryTimeout(0)
			p, err := db.LoadPerson(ctx, sc, recNo)
			if err != nil {
				t.Fatal(err)
			}
			if p.LastName.Value != "Baker" {
				t.Errorf("stored last name %q, want Baker", p.LastName.Value)
			}
		})
	}
}
