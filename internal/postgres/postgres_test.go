package postgres_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/postgres"
	"github.com/wayfarerhq/wayfarer/internal/sqlite"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

func TestParsePool(t *testing.T) {
	dsn, p, err := postgres.ParsePool("postgres://u:pw@h:5432/db?sslmode=disable")
	if err != nil || dsn != "postgres://u:pw@h:5432/db?sslmode=disable" || p != postgres.DefaultPool {
		t.Fatalf("no pool parameters: %q %+v %v", dsn, p, err)
	}
	dsn, p, err = postgres.ParsePool("postgres://h/db?sslmode=disable&pool_max_conns=4&pool_max_conn_lifetime=1h&pool_max_conn_idle_time=30s")
	if err != nil {
		t.Fatal(err)
	}
	if dsn != "postgres://h/db?sslmode=disable" {
		t.Errorf("pool parameters left in the URL: %q", dsn)
	}
	want := postgres.Pool{MaxConns: 4, MaxIdleConns: 4, MaxConnLifetime: time.Hour, MaxConnIdleTime: 30 * time.Second}
	if p != want {
		t.Errorf("pool %+v, want %+v", p, want)
	}
	// Idle connections follow the pool's size unless named.
	for query, idle := range map[string]int{"pool_max_conns=50": 50, "pool_max_conns=50&pool_max_idle_conns=3": 3, "pool_max_idle_conns=30": 20} {
		if _, p, err := postgres.ParsePool("postgres://h/db?" + query); err != nil || p.MaxIdleConns != idle {
			t.Errorf("%s: %d idle (%v), want %d", query, p.MaxIdleConns, err, idle)
		}
	}
	for _, bad := range []string{"pool_max_conns=0", "pool_max_conns=x", "pool_max_conn_lifetime=1", "pool_size=3"} {
		if _, _, err := postgres.ParsePool("postgres://h/db?" + bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	if _, _, err := postgres.ParsePool("postgres://u:secret@h/db?pool_max_conns=x"); err != nil && strings.Contains(err.Error(), "secret") {
		t.Errorf("error shows the password: %v", err)
	}
}

func openFresh(t *testing.T) (*sqlstore.DB, string) {
	t.Helper()
	url := testserver.FreshPostgres(t)
	db, err := postgres.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, url
}

// Instances that start together on a fresh database must not migrate over
// each other: the advisory lock lets one apply everything, the others none.
func TestMigrateConcurrently(t *testing.T) {
	ctx := context.Background()
	_, url := openFresh(t)
	const n = 4
	dbs := make([]*sqlstore.DB, n)
	for i := range dbs {
		db, err := postgres.Open(url)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		dbs[i] = db
	}
	applied := make([]int, n)
	errs := make([]error, n)
	var start, wg sync.WaitGroup
	start.Add(1)
	for i, db := range dbs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start.Wait()
			applied[i], errs[i] = db.Migrate(ctx)
		}()
	}
	start.Done()
	wg.Wait()
	total := 0
	for i := range n {
		if errs[i] != nil {
			t.Errorf("instance %d: %v", i, errs[i])
		}
		total += applied[i]
	}
	st, err := dbs[0].MigrationStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if total != len(st) {
		t.Errorf("%d migrations applied in all, want each of the %d once (per instance: %v)", total, len(st), applied)
	}
	for _, s := range st {
		if !s.Applied {
			t.Errorf("migration %d (%s) not applied", s.Version, s.Name)
		}
	}
	// A later start finds nothing to do.
	if k, err := dbs[1].Migrate(ctx); err != nil || k != 0 {
		t.Errorf("second migrate: applied %d, %v", k, err)
	}
}

// The PostgreSQL schema is the twin of the SQLite one: the same migration
// versions, tables, columns and named indexes, so the shared SQL runs on both.
func TestSchemaTwinOfSQLite(t *testing.T) {
	ctx := context.Background()
	pg, _ := openFresh(t)
	if _, err := pg.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	lite, err := sqlite.Open(filepath.Join(t.TempDir(), "twin.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	if _, err := lite.Migrate(ctx); err != nil {
		t.Fatal(err)
	}

	versions := func(db *sqlstore.DB) []int64 {
		st, err := db.MigrationStatus(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var v []int64
		for _, s := range st {
			v = append(v, s.Version)
		}
		return v
	}
	if a, b := versions(lite), versions(pg); !slices.Equal(a, b) {
		t.Errorf("migration versions: sqlite %v, postgres %v", a, b)
	}

	// Ordinary tables only: SQLite's full-text indexes (virtual tables and
	// their shadow tables) are its form of what PostgreSQL does with indexes.
	liteCols := strings_(t, lite.Primary(), `
		SELECT l.name || '.' || c.name FROM pragma_table_list l, pragma_table_info(l.name) c
		WHERE l.schema = 'main' AND l.type = 'table' AND l.name NOT LIKE 'sqlite_%' AND l.name <> 'goose_db_version'`)
	pgCols := strings_(t, pg.Primary(), `
		SELECT table_name || '.' || column_name FROM information_schema.columns
		WHERE table_schema = 'public' AND table_name <> 'goose_db_version'`)
	if d := diff(liteCols, pgCols); d != "" {
		t.Errorf("columns differ:\n%s", d)
	}

	// Every index SQLite has, PostgreSQL has by the same name (it may have more).
	liteIdx := strings_(t, lite.Primary(), `
		SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`)
	pgIdx := strings_(t, pg.Primary(), `SELECT indexname FROM pg_indexes WHERE schemaname = 'public'`)
	for _, i := range liteIdx {
		if !slices.Contains(pgIdx, i) {
			t.Errorf("index %s of the SQLite schema is missing on PostgreSQL", i)
		}
	}
}

// Citus readiness: apart from the reference tables, every table has
// agency_id in its primary key, and every foreign key between agency-owned
// tables carries agency_id on both sides.
func TestSchemaKeyedByAgency(t *testing.T) {
	ctx := context.Background()
	pg, _ := openFresh(t)
	if _, err := pg.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	reference := []string{"agency", "server_secret", "goose_db_version"}
	reference = append(reference, "card_key_canary") // per card key, not per agency
	// Host operators belong to no agency (docs/operators.md): their tables
	// are the host's, reference tables on a distributed PostgreSQL.
	reference = append(reference, "operator", "operator_grant", "operator_audit")
	// What a bulk load dropped (sqlstore/bulk_defer.go) is the schema's,
	// not an agency's: a reference table too.
	reference = append(reference, "bulk_deferred")
	tables := strings_(t, pg.Primary(), `SELECT tablename FROM pg_tables WHERE schemaname = 'public'`)
	for _, tab := range tables {
		if slices.Contains(reference, tab) {
			continue
		}
		pk := strings_(t, pg.Primary(), `
			SELECT a.attname FROM pg_index i
			JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
			WHERE i.indrelid = '`+tab+`'::regclass AND i.indisprimary`)
		if !slices.Contains(pk, "agency_id") {
			t.Errorf("table %s: primary key %v lacks agency_id", tab, pk)
		}
		uniques := strings_(t, pg.Primary(), `
			SELECT c.conname FROM pg_constraint c
			WHERE c.conrelid = '`+tab+`'::regclass AND c.contype = 'u'
			AND NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.conrelid
			                AND a.attnum = ANY (c.conkey) AND a.attname = 'agency_id')`)
		for _, u := range uniques {
			t.Errorf("table %s: unique constraint %s lacks agency_id", tab, u)
		}
	}
	rows, err := pg.Primary().QueryContext(ctx, `
		SELECT c.conname, c.conrelid::regclass::text, c.confrelid::regclass::text,
		       EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey) AND a.attname = 'agency_id'),
		       EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.confrelid AND a.attnum = ANY (c.confkey) AND a.attname = 'agency_id')
		FROM pg_constraint c WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var name, from, to string
		var fromAgency, toAgency bool
		if err := rows.Scan(&name, &from, &to, &fromAgency, &toAgency); err != nil {
			t.Fatal(err)
		}
		n++
		if slices.Contains(reference, to) {
			continue // a distributed table may point at a reference table
		}
		if !fromAgency || !toAgency {
			t.Errorf("foreign key %s (%s → %s) does not include agency_id on both sides", name, from, to)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Error("no foreign keys found")
	}
}

func strings_(t *testing.T, db *sql.DB, query string) []string {
	t.Helper()
	rows, err := db.Query(query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func diff(a, b []string) string {
	var d []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			d = append(d, "  only in sqlite:   "+s)
		}
	}
	for _, s := range b {
		if !slices.Contains(a, s) {
			d = append(d, "  only in postgres: "+s)
		}
	}
	return strings.Join(d, "\n")
}

// Exclusive keeps one-off work of several instances from overlapping.
func TestExclusive(t *testing.T) {
	ctx := context.Background()
	_, url := openFresh(t)
	var mu sync.Mutex
	inside, most := 0, 0
	var wg sync.WaitGroup
	for range 4 {
		db, err := postgres.Open(url)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := db.Exclusive(ctx, "test", func(context.Context) error {
				mu.Lock()
				inside++
				most = max(most, inside)
				mu.Unlock()
				time.Sleep(50 * time.Millisecond)
				mu.Lock()
				inside--
				mu.Unlock()
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if most != 1 {
		t.Errorf("%d ran at once", most)
	}
}
