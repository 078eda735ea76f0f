package demo_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/demo"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// A load that builds its indexes afterwards must never leave a database
// whose searches are wrong or slow: cancelled, it builds them before it
// returns; killed (SIGKILL, no chance to clean up), the next open of the
// database builds them. Both end with the indexes and triggers of a fresh
// database and searches that find every loaded row.
func TestBulkLoadInterrupted(t *testing.T) {
	if os.Getenv("WAYFARER_BULK_HELPER_DB") != "" {
		t.Skip("the helper process")
	}
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ctx := context.Background()
		want, err := s.App.DB.SchemaObjects(ctx)
		if err != nil || len(want) < 10 {
			t.Fatalf("schema objects: %v %v", want, err)
		}

		t.Run("cancelled", func(t *testing.T) {
			defer setDeferFrom(1)()
			lctx, cancel := context.WithCancel(ctx)
			go func() {
				waitFor(t, func() bool { return personCount(t, s) >= 1500 })
				cancel()
			}()
			if _, err := demo.LoadPersons(lctx, s.App.DB, demo.Alias, 200000, s.App.Server.Persons.Sealer, nil); err == nil {
				t.Fatal("the cancelled load succeeded")
			}
			checkWhole(t, s, want)
		})

		t.Run("killed", func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run", "^TestBulkLoadHelper$", "-test.v")
			cmd.Env = append(os.Environ(), "WAYFARER_BULK_HELPER_DB="+s.DBPath, "WAYFARER_BULK_HELPER_ENGINE="+s.Engine)
			cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			before := personCount(t, s)
			waitFor(t, func() bool { return personCount(t, s) >= before+1500 })
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			left, err := s.App.DB.DeferredIndexes(ctx)
			if err != nil || len(left) == 0 {
				t.Fatalf("the killed load left nothing to build (%v): it did not defer, the test proves nothing", err)
			}
			// What a load killed while building its trigram index beside
			// the others leaves (SQLite): the next open removes it.
			scratch := s.DBPath + "-trigram-build"
			if s.Engine == "sqlite" {
				if err := os.WriteFile(scratch, []byte("left by a killed load"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			// A new instance on the same database: app.Open restores.
			again := testserver.Start(t, testserver.Options{Engine: s.Engine, DB: s.DBPath})
			checkWhole(t, again, want)
			if _, err := os.Stat(scratch); !os.IsNotExist(err) {
				t.Errorf("the killed load's scratch file is still there (%v)", err)
			}
		})
	})
}

// TestBulkLoadHelper is the process TestBulkLoadInterrupted kills: a load
// into the database it is given that would take minutes.
func TestBulkLoadHelper(t *testing.T) {
	db := os.Getenv("WAYFARER_BULK_HELPER_DB")
	if db == "" {
		t.Skip("run by TestBulkLoadInterrupted")
	}
	defer setDeferFrom(1)()
	s := testserver.Start(t, testserver.Options{Engine: os.Getenv("WAYFARER_BULK_HELPER_ENGINE"), DB: db})
	_, err := demo.LoadPersons(context.Background(), s.App.DB, demo.Alias, 1000000, s.App.Server.Persons.Sealer, nil)
	t.Fatalf("the load was to be killed, it ended: %v", err)
}

func setDeferFrom(n int) func() {
	old := demo.DeferIndexesFrom
	demo.DeferIndexesFrom = n
	return func() { demo.DeferIndexesFrom = old }
}

func waitFor(t *testing.T, cond func() bool) {
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Error("timed out waiting for the load")
}

func personCount(t *testing.T, s *testserver.Server) int64 {
	ctx := context.Background()
	ag, err := s.App.DB.AgencyByAlias(ctx, demo.Alias)
	if err != nil {
		t.Error(err)
		return 0
	}
	n, err := s.App.DB.CountPersons(ctx, ag.ID)
	if err != nil {
		t.Error(err)
	}
	return n
}

// checkWhole: nothing left to build, the indexes and triggers of a fresh
// database, and searches that see every person: each has one e-mail at
// example.com (found through the trigram index) and a last name (the name
// index).
func checkWhole(t *testing.T, s *testserver.Server, want []string) {
	t.Helper()
	ctx := context.Background()
	if left, err := s.App.DB.DeferredIndexes(ctx); err != nil || len(left) > 0 {
		t.Fatalf("still to build: %v %v", left, err)
	}
	got, err := s.App.DB.SchemaObjects(ctx)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("indexes and triggers:\n got %v\nwant %v (%v)", got, want, err)
	}
	ag, err := s.App.DB.AgencyByAlias(ctx, demo.Alias)
	if err != nil {
		t.Fatal(err)
	}
	total := personCount(t, s)
	if total < 1500 {
		t.Fatalf("only %d persons loaded", total)
	}
	for _, q := range []string{
		`"commType":[2],"commValue":{"value":["example.com"],"compareCondition":6}`,
		`"commValue":{"value":["@example.c"],"compareCondition":6}`,
	} {
		crit, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(fmt.Sprintf(`{"includeCols":["recNo","summaryCount"],"rowCount":1,%s}`, q)))
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.App.DB.SearchPersons(ctx, wayfarer.Scope{AgencyID: ag.ID}, crit)
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != total {
			t.Fatalf("%s finds %d persons of %d", q, res.Total, total)
		}
	}
}
