package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// Dialect is every difference between the two engines, in one place. Queries
// are written once with ? placeholders; Rebind renders them for the engine.
type Dialect struct {
	Name string
	// Goose is the migration tool's name for the engine.
	Goose goose.Dialect
	// Numbered placeholders ($1, $2, ...) instead of ?.
	Numbered bool
	// ForUpdate locks the rows a SELECT reads until the transaction ends.
	// SQLite needs none: its transactions take the write lock up front.
	ForUpdate string

	// codePoints is the collation under which text compares by code point,
	// as SQLite's does by default.
	codePoints string
	// nullsFirst sorts nulls first in ascending order, SQLite's default.
	nullsFirst string
	// trueLit and falseLit are a boolean column's literals.
	trueLit, falseLit string
	// snapshot is the isolation under which a read-only transaction reads
	// one snapshot; SQLite's transactions always do.
	snapshot sql.IsolationLevel
	// advisoryLocks: instances sharing the database take turns (Exclusive,
	// migrations) under session advisory locks. SQLite has one process per
	// file in practice.
	advisoryLocks bool
	// probeTrigrams: the communication trigram index is an FTS5 table the
	// search sizes up first; PostgreSQL plans with its own trigram index.
	probeTrigrams bool
	// sparseTrigrams: a positive commValue Contains asks the trigram index
	// (pg_trgm) for at most three trigrams of the fragment and checks the
	// whole fragment on the rows it offers (commValueCond); the search
	// sizes it up first (probeContains).
	sparseTrigrams bool
	// candidateIDs selects the ids of a JSON array of whole numbers given
	// as its one argument (the candidates of searchOptions).
	candidateIDs string
	// probeChildren: child-row filters, and the person's own filters an
	// index serves (personFilter), are sized up first and run as
	// p.rec_no IN (...) when few rows pass (childFilter); SQLite walks the
	// persons for an EXISTS whatever it costs, PostgreSQL's planner picks
	// the side to start from itself.
	probeChildren bool
	// perPersonExists ends the EXISTS form of a child filter so that the
	// engine tests it person by person, as the persons are walked: SQLite
	// turns a plain EXISTS into a join and first builds a Bloom filter
	// over the whole child table (every open action item of the agency:
	// 167 ms at a million persons before the first row, 4 ms without);
	// LIMIT 1 keeps it a correlated subquery. PostgreSQL plans a
	// semi-join with its statistics instead (subplansAfter).
	perPersonExists string
	// linkedIn writes "the row has a linked row passing conds" as the
	// row's key IN (the linked rows' keys, correlated on the agency only),
	// which SQLite lists once and starts from: the activities of one
	// person, when a link table held it, took 4.2 s at 800,000 activities
	// as EXISTS, every activity
	// walked in recNo order, and 0.2 ms as IN. Without it, EXISTS, which
	// PostgreSQL plans as a semi-join from either side (a correlated IN it
	// runs again for every row). See linkedRows.
	linkedIn bool
	// identitySequences: rec_no draws from a sequence that rows inserted
	// with explicit numbers leave behind; SQLite's AUTOINCREMENT follows.
	identitySequences bool
	// bulkBegin runs on a bulk load's connection before it; the
	// connection is closed after the load, so nothing it sets outlives it.
	// SQLite: a page cache of 64 MiB (the load appends to the tables; the
	// sorts that build the deferred indexes use as much; 128 and 512 MiB
	// were no faster and kept the loader above 300 MB), and no memory map:
	// the index builds read every table, and mapped they count in the
	// loader's resident set (1.66 GB at 1,000,000 persons, for no speed:
	// 1 min 36 s mapped, 1 min 38 s not). PostgreSQL: the foreign-key checks of each COPY keep one
	// generic plan, which must be the primary key's index scan: a plan
	// made while a parent table was small picked a sequential scan and
	// kept it while the load grew the table (150 persons a second at
	// 7,500), and a custom plan per check (force_custom_plan, until
	// issue 15's bulk work) halved the load's rate with planning. With
	// seqscan off on this connection a PK lookup is never a scan.
	bulkBegin string
	// bulkBuild runs on the load's connection before the deferred indexes
	// are built: on SQLite a smaller page cache, which also caps the
	// sorter's memory, so the sorts do not take 64 MiB on top of the cache;
	// on PostgreSQL room for the server's sorts and the trigram index's
	// build (its memory, not the loader's).
	bulkBuild string
	// rowValueSeek: a keyset continuation without null keys is one
	// row-value comparison, which both engines run as a range of the name
	// index (PostgreSQL: 0.3 ms for the page after row 100,000 of
	// 1,000,000, against 2–3 ms spelled out); SQLite only since its name
	// index holds columns (foldKeys), not expressions (search_keyset.go).
	rowValueSeek bool
	// chr names the function of a character by its code point, and padID
	// formats an integer column zero-padded to 19 digits (producerKey).
	chr, padID string
	// foldKeys maps a text column to a column that holds its Fold, where
	// the schema has one (SQLite's person.last_name_key, a virtual
	// generated column, migration 00018): the searches then name the
	// column an index holds. "p" is the person in every sqlstore query.
	foldKeys map[string]string
	// copyFrom writes rows into table with the engine's COPY, on conn
	// (inside the transaction open on it); nil: multi-row INSERTs.
	copyFrom func(ctx context.Context, conn *sql.Conn, table string, cols []string, rows [][]any) error
	// bulkAnalyze refreshes statistics after a bulk load; PostgreSQL also
	// vacuums, or index-only scans read the heap until autovacuum runs;
	// SQLite drops the value histograms (statistics.go).
	bulkAnalyze string
	// dropHistograms deletes the value histograms ANALYZE writes, which
	// make SQLite plan a statement again at every run (statistics.go); ""
	// where the engine keeps none to drop.
	dropHistograms string
	// deferrable lists (name, kind, restore, drop) of what a large bulk
	// load drops and builds after its rows (bulk_defer.go).
	deferrable string
	// objectExists answers whether a schema object of the name its one
	// argument gives exists (an index, key or trigger bulk_deferred lists).
	objectExists string
	// requestSettings runs first in the transactions of searches, loads
	// and saves, with the query time limit as its argument (NULL: none).
	// PostgreSQL sets them for the transaction only (set_config's third
	// argument), so a pooled connection never keeps them: statement_timeout,
	// so that the server stops a statement by itself, jit off, because
	// compiling a search of many filters took seconds, and no parallel
	// workers (pgPlanSettings; docs/decisions.md).
	// SQLite needs none: its statements stop through their context.
	requestSettings string
	// searchPlans names a setting a search's transaction sets to
	// searchPlansValue besides the request's (pgSearchPlans); "" none.
	// genericPlansValue is its value for a search whose plan cannot depend
	// on its values (genericPlanned): planned once per connection.
	searchPlans, searchPlansValue, genericPlansValue string
	// localSettings is requestSettings as statements without arguments
	// (SET LOCAL), for a driver that sends them with the transaction's
	// BEGIN in one round trip (RequestSettings); ms is the query time
	// limit, 0 none.
	localSettings func(ms int64) string
	// subplansAfter, when above 0, is how many filters on tags and
	// marketing a search keeps as semi-joins for the planner to order;
	// later ones are tested person by person (an EXISTS with OFFSET 0,
	// which PostgreSQL leaves a subplan). Each semi-join on the person adds
	// a member to one equivalence class, and PostgreSQL's planning time
	// grows with its cube: 20 tag and 20 marketing filters took 0.4 s to
	// plan, 0.03 s so. 0: every filter is a semi-join.
	subplansAfter int
	// orderedJoin is the inner join that keeps the tables in the order
	// written ("CROSS JOIN" on SQLite); "" where the planner orders them
	// itself (PostgreSQL, whose CROSS JOIN takes no ON).
	orderedJoin string
	// lockRevocations starts a transaction that records revocations: on
	// PostgreSQL it keeps other writers of the log out until commit, so
	// sequence numbers follow commit order. SQLite's transactions already
	// take the write lock at BEGIN.
	lockRevocations string
	// waitNotification blocks on a connection that runs LISTEN until a
	// notification arrives (PostgreSQL); nil where the engine has none.
	waitNotification func(ctx context.Context, conn *sql.Conn) error
	// likeAsIs lists the columns (as the searches name them) whose
	// substring tests compare the value as stored (FoldContains), where
	// the engine's LIKE ignores case exactly where its lower() changes it
	// (SQLite: ASCII letters, both) and no index holds lower() of the
	// column alone: a communication's value is also held as it is by
	// communication_person, which the person-by-person test reads, and
	// user_specific by no index. Folding copied each value first (a
	// fragment nobody has, over 2.3 million communications: 0.41 → 0.26 s
	// over HTTP). A column whose lower() only an index holds keeps it (a
	// tag value read from person_tag_search_value: 29 → 125 ms as is).
	likeAsIs map[string]bool
	// sameAs compares two values, equal where both are null too.
	sameAs string
	// engineSettings selects (name, value) rows of the engine's version
	// and of the settings that move measurements (EngineSettings).
	engineSettings string
}

var (
	SQLite = Dialect{Name: "sqlite", Goose: goose.DialectSQLite3,
		chr: "char", padID: "printf('%%019d', %s)",
		trueLit: "1", falseLit: "0", probeTrigrams: true, probeChildren: true, rowValueSeek: true, perPersonExists: " LIMIT 1", linkedIn: true,
		orderedJoin:  "CROSS JOIN",
		sameAs:       " IS ",
		candidateIDs: "SELECT value FROM json_each(?)",
		foldKeys:     map[string]string{"p.last_name": "p.last_name_key", "p.first_name": "p.first_name_key"},
		bulkBegin:    "PRAGMA cache_size = -65536; PRAGMA mmap_size = 0", bulkBuild: "PRAGMA cache_size = -32768", bulkAnalyze: "ANALYZE; " + sqliteDropHistograms,
		dropHistograms: sqliteDropHistograms, deferrable: sqliteDeferrable,
		objectExists:   "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = ?)",
		engineSettings: sqliteEngineSettings,
		likeAsIs:       map[string]bool{"cm.value": true, "cm.user_specific": true}}
	Postgres = Dialect{Name: "postgres", Goose: goose.DialectPostgres, Numbered: true, ForUpdate: " FOR UPDATE",
		codePoints: ` COLLATE "C"`, nullsFirst: " NULLS FIRST", trueLit: "TRUE", falseLit: "FALSE",
		chr: "chr", padID: "lpad(CAST(%s AS text), 19, '0')",
		snapshot: sql.LevelRepeatableRead, advisoryLocks: true, sparseTrigrams: true, identitySequences: true, bulkAnalyze: "VACUUM ANALYZE", deferrable: pgDeferrable, objectExists: pgObjectExists,
		candidateIDs:    "SELECT CAST(value AS bigint) FROM json_array_elements_text(CAST(? AS json))",
		bulkBegin:       "SET plan_cache_mode = force_generic_plan; SET enable_seqscan = off",
		bulkBuild:       "SET maintenance_work_mem = '256MB'",
		requestSettings: "SELECT set_config('statement_timeout', COALESCE(?, current_setting('statement_timeout')), true), set_config('jit', 'off', true), set_config('max_parallel_workers_per_gather', '0', true)",
		localSettings:   pgLocalSettings, copyFrom: pgCopyFrom, rowValueSeek: true,
		searchPlans: pgSearchPlans, searchPlansValue: "force_custom_plan", genericPlansValue: "force_generic_plan",
		subplansAfter: 4, lockRevocations: "LOCK TABLE session_revocation IN EXCLUSIVE MODE", waitNotification: pgWaitNotification,
		engineSettings: pgEngineSettings, sameAs: " IS NOT DISTINCT FROM "}
)

// pgPlanSettings: how PostgreSQL plans a request's statements, for its
// transaction only. No JIT (compiling a search of many filters took
// seconds). No parallel workers: they cost more to start than Wayfarer's
// short searches gain on a few cores shared by concurrent requests (a tag
// filter with a value at 1,000,000 persons: 18-19 ms with two workers,
// 3.2-3.7 ms without). BENCHMARKS.md has the figures.
const pgPlanSettings = "SET LOCAL jit = off; SET LOCAL max_parallel_workers_per_gather = 0"

// pgSearchPlans: a search's statements get a plan for the values at hand
// (custom), also from the statement cache's prepared statements: a
// search's best plan depends on its values, and the generic plan
// PostgreSQL switches to after five runs cannot see them ("my open tasks
// this week": 340 ms generic, 11 ms custom). Searches only: a load's
// plans do not depend on its values, and planning its six-table UNION on
// every run made GET /person 1.3 ms instead of 0.4.
const pgSearchPlans = "plan_cache_mode"

// pgLocalSettings is requestSettings of PostgreSQL without arguments:
// ms is a number, so the text is safe to send as it is.
func pgLocalSettings(ms int64) string {
	if ms <= 0 {
		return pgPlanSettings
	}
	return "SET LOCAL statement_timeout = '" + strconv.FormatInt(ms, 10) + "ms'; " + pgPlanSettings
}

// pgCopyFrom is copyFrom on pgx (through database/sql's Raw).
func pgCopyFrom(ctx context.Context, conn *sql.Conn, table string, cols []string, rows [][]any) error {
	return conn.Raw(func(dc any) error {
		c, ok := dc.(interface{ Conn() *pgx.Conn })
		if !ok {
			return fmt.Errorf("COPY needs a pgx connection, not %T", dc)
		}
		_, err := c.Conn().CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromRows(rows))
		return err
	})
}

// pgWaitNotification waits on a pgx connection (through database/sql's
// Raw) for the next notification.
func pgWaitNotification(ctx context.Context, conn *sql.Conn) error {
	return conn.Raw(func(dc any) error {
		c, ok := dc.(interface{ Conn() *pgx.Conn })
		if !ok {
			return fmt.Errorf("LISTEN needs a pgx connection, not %T", dc)
		}
		// An idle LISTEN has no statement for the pool's cancel request to
		// stop, so ending ctx would leave the wait until the one-second
		// deadline of postgres.OpenHandle. Closing the socket ends it at
		// once; the caller discards the connection afterwards.
		stop := context.AfterFunc(ctx, func() { _ = c.Conn().PgConn().Conn().Close() })
		defer stop()
		_, err := c.Conn().WaitForNotification(context.WithoutCancel(ctx))
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	})
}

// Rebind rewrites ? placeholders into the engine's form. Queries never hold
// a literal '?', so a plain scan suffices.
func (d Dialect) Rebind(query string) string {
	if !d.Numbered || !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 16)
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(query[i])
	}
	return b.String()
}

// Placeholder returns the n-th (1-based) placeholder.
func (d Dialect) Placeholder(n int) string {
	if d.Numbered {
		return "$" + strconv.Itoa(n)
	}
	return "?"
}

// Fold is the case-insensitive form of a text column, as the indexes of
// both engines hold it: lower(), compared by code point.
func (d Dialect) Fold(col string) string {
	if k, ok := d.foldKeys[col]; ok {
		return k
	}
	return "lower(" + col + ")" + d.codePoints
}

// NullsFirst is the ORDER BY suffix that sorts nulls first.
func (d Dialect) NullsFirst() string { return d.nullsFirst }

// BoolLit is the literal of a boolean column's value.
func (d Dialect) BoolLit(v bool) string {
	if v {
		return d.trueLit
	}
	return d.falseLit
}

// syncIdentity is the statement that moves table's rec_no sequence to its
// argument, the next rec_no the loader would take, unless the sequence is
// already further; "" where none is needed.
func (d Dialect) syncIdentity(table string) string {
	if !d.identitySequences {
		return ""
	}
	seq := "pg_get_serial_sequence('" + table + "', 'rec_no')"
	return "SELECT setval(" + seq + ", GREATEST(?::bigint, nextval(" + seq + ")), false)"
}

// gooseOptions makes instances that start together migrate one at a time.
func (d Dialect) gooseOptions() ([]goose.ProviderOption, error) {
	if !d.advisoryLocks {
		return nil, nil
	}
	// Retry each second (goose's default is 5 s) for up to 30 minutes, so a
	// second instance neither idles nor gives up during a long migration.
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, 1800))
	if err != nil {
		return nil, err
	}
	return []goose.ProviderOption{goose.WithSessionLocker(locker)}, nil
}

// Exclusive runs fn while no other process runs an Exclusive of the same
// name on this database: on PostgreSQL under a session advisory lock, so
// instances that start together do one-off work (e.g. demo data) one after
// another. SQLite has one process per file in practice: fn just runs.
func (db *DB) Exclusive(ctx context.Context, name string, fn func(context.Context) error) error {
	if !db.Dialect.advisoryLocks {
		return fn(ctx)
	}
	// The lock belongs to one session: hold that connection throughout.
	conn, err := db.primary.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	const key = `hashtextextended('wayfarer:' || $1, 0)`
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(`+key+`)`, name); err != nil {
		return fmt.Errorf("lock %s: %w", name, err)
	}
	defer func() {
		if _, err := conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(`+key+`)`, name); err != nil {
			// Never pool a session that may still hold the lock.
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
	}()
	return fn(ctx)
}

// SQLiteFileURI is the "file:" URI of the SQLite file at path, for a
// connection string that adds parameters after it: what a file name may
// hold and the URI reads otherwise is escaped ("?" starts the parameters,
// for the driver's split and SQLite's both; "#" a fragment; "%" an
// escape), and SQLite decodes it back. Unescaped, "a?b.db" opened "a",
// without the pragmas.
func SQLiteFileURI(path string) string { return "file:" + sqliteURIPath.Replace(path) }

var sqliteURIPath = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")
