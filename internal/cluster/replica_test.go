package cluster

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/storage"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// addMarker inserts a person only this database has.
func addMarker(a *app.App, lastName string) error {
	_, err := a.DB.Primary().ExecContext(context.Background(), `
		INSERT INTO person (agency_id, last_name, active_status, create_date_time, last_modified_date_time)
		SELECT rec_no, $1, 1, now(), now() FROM agency WHERE alias = 'DEMO'`, lastName)
	return err
}

// --db-replica: searches with readOnlyIntent read the replica, everything
// else (login, token checks, other searches) the primary. The "replica"
// here is a second database with different data, so every answer shows
// which one it came from.
func TestReadOnlyIntentSearchesGoToTheReplica(t *testing.T) {
	replica := testserver.Start(t, testserver.Options{Engine: "postgres",
		Seed: func(a *app.App) error { return addMarker(a, "OnReplica") }})
	primary := testserver.Start(t, testserver.Options{Engine: "postgres",
		Config: func(c *app.Config) { c.DBReplica = replica.DBPath },
		Seed:   func(a *app.App) error { return addMarker(a, "OnPrimary") }})

	tok := primary.LoginDemo(t, "admin") // the replica holds no such session
	names := func(body string) []string {
		t.Helper()
		r := primary.Do(t, "POST", "/personSearch", body, testserver.Bearer(tok)...)
		if r.Status != 200 {
			t.Fatalf("search %s: %d %s", body, r.Status, r.Body)
		}
		var out []string
		for _, m := range decodeRows(t, r.Body) {
			if s, ok := m["lastName"].(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	const filter = `"lastName":{"value":["OnPrimary","OnReplica"],"compareCondition":7}`
	if got := names(`{"includeCols":["lastName"],` + filter + `}`); !slices.Equal(got, []string{"OnPrimary"}) {
		t.Errorf("search without readOnlyIntent found %q, want the primary's person", got)
	}
	if got := names(`{"includeCols":["lastName"],"readOnlyIntent":false,` + filter + `}`); !slices.Equal(got, []string{"OnPrimary"}) {
		t.Errorf("readOnlyIntent false found %q, want the primary's person", got)
	}
	if got := names(`{"includeCols":["lastName","summaryCount"],"readOnlyIntent":true,` + filter + `}`); !slices.Equal(got, []string{"OnReplica"}) {
		t.Errorf("readOnlyIntent true found %q, want the replica's person", got)
	}
}

func TestReplicaMustBePostgres(t *testing.T) {
	if _, err := storage.Open(t.TempDir()+"/x.db", t.TempDir()+"/replica.db"); err == nil {
		t.Fatal("a SQLite replica was accepted")
	}
}

func decodeRows(t *testing.T, body []byte) []map[string]any {
	t.Helper()
	var rows []map[string]any
	if err := json.Unmarshal(body, &rows); err != nil {
		t.Fatalf("rows: %v: %s", err, body)
	}
	return rows
}
