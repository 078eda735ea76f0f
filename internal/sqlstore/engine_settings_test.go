package sqlstore_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// The settings a benchmark's header reports (wayfarer bench): the engine
// and its version first, then what moves its figures, each with a value,
// the database's size last.
func TestEngineSettings(t *testing.T) {
	want := map[string][]string{
		"sqlite":   {"SQLite", "journal_mode", "synchronous", "cache_size", "database"},
		"postgres": {"PostgreSQL", "shared_buffers", "effective_cache_size", "work_mem", "synchronous_commit", "database"},
	}
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		got, err := s.App.DB.EngineSettings(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		names := make([]string, len(got))
		for i, st := range got {
			names[i] = st.Name
			if st.Value == "" {
				t.Errorf("%s: no value", st.Name)
			}
		}
		if !slices.Equal(names, want[s.Engine]) {
			t.Fatalf("settings %v, want %v", names, want[s.Engine])
		}
		if s.Engine == "sqlite" && !slices.Contains(got, sqlstore.Setting{Name: "journal_mode", Value: "wal"}) {
			t.Errorf("SQLite settings %v: want journal_mode wal", got)
		}
		if size := got[len(got)-1].Value; !strings.HasSuffix(size, " MiB") {
			t.Errorf("database size %q", size)
		}
	})
}
