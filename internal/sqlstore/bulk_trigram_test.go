package sqlstore_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// After a bulk load that deferred its indexes, the trigram indexes hold
// every communication value, activity subject and person name, whether
// SQLite built them beside the other indexes and copied them in, or
// rebuilt them in place because another connection wrote meanwhile:
// FTS5's own integrity check against each content table passes, substring
// searches find every loaded person (and the value written meanwhile),
// and no scratch file is left.
func TestBulkLoadTrigramBeside(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		t.Run("copied", func(t *testing.T) {
			log := bulkLoadMailed(t, s, "besidea", 300)
			for _, table := range []string{"communication_trigram", "activity_trigram", "person_trigram"} {
				if built := strings.Contains(log, table+": trigram index built beside the others"); built != (s.Engine == "sqlite") || strings.Contains(log, "rebuilt in place") {
					t.Errorf("%s: scratch build used: %v, want it on SQLite only: %q", table, built, log)
				}
			}
			checkMailed(t, s, "besidea", 300)
		})
		t.Run("written meanwhile", func(t *testing.T) {
			if s.Engine != "sqlite" {
				t.Skip("PostgreSQL builds its trigram index with CREATE INDEX, which reads every committed row")
			}
			var once sync.Once
			written := make(chan error, 1)
			defer sqlstore.SetTrigramBuiltForTest(func() {
				once.Do(func() {
					// Another connection, as a server sharing the file would.
					_, err := s.App.DB.Primary().Exec(`INSERT INTO communication (agency_id, person_id, type, value)
						SELECT agency_id, rec_no, 2, 'meanwhile-written@bulk.example' FROM person WHERE agency_id = ? ORDER BY rec_no LIMIT 1`, agencyOf(t, s))
					written <- err
				})
			})()
			log := bulkLoadMailed(t, s, "besideb", 300)
			if err := <-written; err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(log, "communication_trigram rebuilt in place: the database was written during the load") ||
				!strings.Contains(log, "person_trigram rebuilt in place: the database was written during the load") {
				t.Errorf("the copy was taken although another connection wrote: %q", log)
			}
			checkMailed(t, s, "besideb", 300)
			if got := mailedPersons(t, s, "meanwhile-written"); got != 1 {
				t.Errorf("the value written during the load is found for %d persons, want 1", got)
			}
		})
		t.Run("scratch file gone", func(t *testing.T) {
			if s.Engine != "sqlite" {
				t.Skip("SQLite only: PostgreSQL has no scratch build")
			}
			// Removed before its copy (say by another process opening the
			// database): ATTACH would create an empty file in its place.
			defer sqlstore.SetTrigramBuiltForTest(func() { _ = os.Remove(s.DBPath + "-trigram-build") })()
			log := bulkLoadMailed(t, s, "besidec", 300)
			if !strings.Contains(log, "trigram index rebuilt in place") {
				t.Errorf("a missing scratch file was taken for the build: %q", log)
			}
			checkMailed(t, s, "besidec", 300)
		})
	})
}

// bulkLoadMailed bulk-loads n persons (indexes deferred), each with an
// e-mail tag-i@bulk.example and an activity "Note tag-i", and returns what
// the load logged.
func bulkLoadMailed(t *testing.T, s *testserver.Server, tag string, n int) string {
	t.Helper()
	now := time.Now()
	persons := make([]sqlstore.BulkPerson, n)
	for i := range persons {
		name, mail, subject := fmt.Sprintf("%s%d", tag, i), fmt.Sprintf("%s-%d@bulk.example", tag, i), fmt.Sprintf("Note %s-%d", tag, i)
		persons[i] = sqlstore.BulkPerson{FirstName: &name, LastName: &name, ActiveStatus: 1, Created: now, Modified: now,
			Comms: []sqlstore.BulkComm{{Type: 2, Value: &mail}}, Activities: []sqlstore.BulkActivity{{Type: 3, Priority: 1, Subject: &subject}}}
	}
	var log strings.Builder
	opt := sqlstore.BulkOptions{DeferIndexes: true, Log: func(format string, args ...any) { fmt.Fprintf(&log, format+"\n", args...) }}
	err := s.App.DB.BulkLoad(context.Background(), agencyOf(t, s), opt, func(insert func([]sqlstore.BulkPerson) error) error {
		return insert(persons)
	})
	if err != nil {
		t.Fatal(err)
	}
	return log.String()
}

// checkMailed checks that a substring search finds the n persons
// bulkLoadMailed loaded with tag, and the trigram index (checkTrigramIndex).
func checkMailed(t *testing.T, s *testserver.Server, tag string, n int64) {
	t.Helper()
	if got := mailedPersons(t, s, tag+"-"); got != n {
		t.Errorf("a substring search finds %d of the %d loaded persons", got, n)
	}
	if got := notedPersons(t, s, "note "+tag+"-"); got != n {
		t.Errorf("an activity subject substring finds %d of the %d loaded persons", got, n)
	}
	// The names are tag and a number: a last name substring (few: SQLite's
	// search starts from person_trigram).
	if got := countPersons(t, s, fmt.Sprintf(`"lastName":{"value":[%q],"compareCondition":6}`, tag[1:])); got != n {
		t.Errorf("a last name substring finds %d of the %d loaded persons", got, n)
	}
	checkTrigramIndex(t, s)
}

// countPersons counts the persons of the agency that search filter finds.
func countPersons(t *testing.T, s *testserver.Server, filter string) int64 {
	t.Helper()
	crit, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(`{"includeCols":["recNo","summaryCount"],"rowCount":1,`+filter+`}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.App.DB.SearchPersons(context.Background(), wayfarer.Scope{AgencyID: agencyOf(t, s)}, crit)
	if err != nil {
		t.Fatal(err)
	}
	return res.Total
}

// mailedPersons counts the persons with a communication value containing
// fragment.
func mailedPersons(t *testing.T, s *testserver.Server, fragment string) int64 {
	t.Helper()
	return countPersons(t, s, fmt.Sprintf(`"commValue":{"value":[%q],"compareCondition":6}`, fragment))
}

// notedPersons counts the persons with an activity whose subject contains
// fragment (few: SQLite's search starts from activity_trigram).
func notedPersons(t *testing.T, s *testserver.Server, fragment string) int64 {
	t.Helper()
	crit, err := wire.DecodePersonSearch(jsoncodec.Strict, []byte(fmt.Sprintf(
		`{"includeCols":["recNo","summaryCount"],"rowCount":1,"personActivitySearchParams":{"subject":{"value":[%q],"compareCondition":6}}}`, fragment)))
	if err != nil {
		t.Fatal(err)
	}
	sc := wayfarer.Scope{AgencyID: agencyOf(t, s)}
	crit.ActivityScope = sc
	res, err := s.App.DB.SearchPersons(context.Background(), sc, crit)
	if err != nil {
		t.Fatal(err)
	}
	return res.Total
}

// checkTrigramIndex runs FTS5's integrity check (rank 1: against the
// content table too) and looks for a scratch file left behind (SQLite).
func checkTrigramIndex(t *testing.T, s *testserver.Server) {
	t.Helper()
	if s.Engine != "sqlite" {
		return
	}
	for _, table := range []string{"communication_trigram", "activity_trigram", "person_trigram"} {
		if _, err := s.App.DB.Primary().Exec(`INSERT INTO ` + table + ` (` + table + `, rank) VALUES ('integrity-check', 1)`); err != nil {
			t.Errorf("%s: %v", table, err)
		}
	}
	if _, err := os.Stat(s.DBPath + "-trigram-build"); !os.IsNotExist(err) {
		t.Errorf("scratch file left behind (%v)", err)
	}
}
