package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// A large bulk load drops the secondary indexes of the tables it fills
// (and, on SQLite, the trigger that feeds the trigram index) and builds
// them once after its rows: one sort per index instead of a random B-tree
// insert per row. Each dropped object gets a row in bulk_deferred, written
// in the transaction that drops it and deleted in the one that restores
// it, so whatever a killed load leaves missing is listed; the load itself
// restores at its end (also when it fails or is cancelled), and so does
// every open of the database (RestoreDeferred, from app.Open) before it
// serves anything. docs/decisions.md, "Bulk load: indexes built after the
// rows".

// bulkFilledTables are the tables a bulk load writes.
const bulkFilledTables = "'person', 'communication', 'card', 'person_card_link', 'person_tag', 'person_action_item', " +
	"'profile_person', 'person_marketing', 'activity'"

// Kinds of deferred objects.
const (
	deferredForeignKey = "foreign key" // PostgreSQL; restored before the indexes (restoreDeferred orders by kind)
	deferredIndex      = "index"
	deferredTrigram    = "trigram" // SQLite: the insert trigger of communication_trigram; restored with a rebuild
	// SQLite: the insert trigger of another trigram index (activity_trigram,
	// person_trigram), whose restore statement also rebuilds and merges it
	// in place: restoreOne copies the scratch build's instead where it can.
	deferredTrigger = "trigger"
)

// Catalog queries listing (name, kind, restore, drop) of what a bulk load
// defers: non-unique indexes only (unique ones enforce rules the load must
// obey, and back the foreign keys' lookups). On SQLite also the insert
// triggers of the trigram indexes: the communications' (kind trigram,
// rebuilt by restoreOne) and the others' (kind trigger, whose restore
// statement ends with the index's trigramRebuild; restoreOne copies the
// scratch build's instead where it can).
var sqliteDeferrable = `SELECT name, '` + deferredIndex + `', sql, 'DROP INDEX "' || name || '"' FROM sqlite_master
	WHERE type = 'index' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%' AND tbl_name IN (` + bulkFilledTables + `)
UNION ALL
SELECT name, '` + deferredTrigram + `', sql, 'DROP TRIGGER "' || name || '"' FROM sqlite_master
	WHERE type = 'trigger' AND name = '` + trigramTable + `_insert'` +
	sqliteTriggerDeferrable(activityTrigramTable) + sqliteTriggerDeferrable(personTrigramTable)

// sqliteTriggerDeferrable is sqliteDeferrable's row of the insert trigger
// of the trigram index table (kind trigger).
func sqliteTriggerDeferrable(table string) string {
	return `
UNION ALL
SELECT name, '` + deferredTrigger + `', sql || '; ` + strings.ReplaceAll(trigramRebuild(table), "'", "''") + `', 'DROP TRIGGER "' || name || '"' FROM sqlite_master
	WHERE type = 'trigger' AND name = '` + table + `_insert'`
}

// pgDeferrable is PostgreSQL's list. It also defers the foreign keys of
// those tables: COPY checks each row's references with a lookup and a row
// lock per reference, and adding a key back checks the whole table in one
// join. A row the key refuses fails that restore, which then stays listed
// and fails every open of the database until it is resolved, so a broken
// reference is never served silently.
const pgDeferrable = `SELECT i.relname, '` + deferredIndex + `', pg_get_indexdef(i.oid), 'DROP INDEX ' || quote_ident(i.relname)
FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
WHERE t.relnamespace = current_schema()::regnamespace AND NOT x.indisunique AND NOT x.indisprimary
	AND t.relname IN (` + bulkFilledTables + `)
UNION ALL
SELECT c.conname, '` + deferredForeignKey + `',
	'ALTER TABLE ' || quote_ident(t.relname) || ' ADD CONSTRAINT ' || quote_ident(c.conname) || ' ' || pg_get_constraintdef(c.oid),
	'ALTER TABLE ' || quote_ident(t.relname) || ' DROP CONSTRAINT ' || quote_ident(c.conname)
FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
WHERE t.relnamespace = current_schema()::regnamespace AND c.contype = 'f'
	AND t.relname IN (` + bulkFilledTables + `)`

// pgObjectExists is PostgreSQL's Dialect.objectExists: an index of the
// schema or a constraint of one of its tables.
const pgObjectExists = `SELECT EXISTS (SELECT 1 FROM pg_class WHERE relname = $1 AND relnamespace = current_schema()::regnamespace)
	OR EXISTS (SELECT 1 FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid WHERE c.conname = $1 AND t.relnamespace = current_schema()::regnamespace)`

// execQuerier is a *sql.DB or a *sql.Conn.
type execQuerier interface {
	txBeginner
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// deferIndexes drops what a bulk load builds afterwards, recording each in
// bulk_deferred in the same transaction.
func deferIndexes(ctx context.Context, on execQuerier, d Dialect) error {
	tx, err := on.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	type object struct{ name, kind, restore, drop string }
	var objs []object
	err = eachQueried(ctx, tx, d.deferrable, func(r *sql.Rows) error {
		var o object
		if err := r.Scan(&o.name, &o.kind, &o.restore, &o.drop); err != nil {
			return err
		}
		objs = append(objs, o)
		return nil
	})
	if err != nil {
		return fmt.Errorf("bulk: deferrable indexes: %w", err)
	}
	for _, o := range objs {
		if _, err := tx.ExecContext(ctx, d.Rebind("INSERT INTO bulk_deferred (name, kind, restore) VALUES (?, ?, ?)"), o.name, o.kind, o.restore); err != nil {
			return fmt.Errorf("bulk: defer %s: %w", o.name, err)
		}
		if _, err := tx.ExecContext(ctx, o.drop); err != nil {
			return fmt.Errorf("bulk: defer %s: %w", o.name, err)
		}
	}
	return tx.Commit()
}

// restoreDeferred builds what bulk_deferred lists, each object in its own
// transaction with the deletion of its row (so two processes restoring at
// once build each object once), and reports how many it built. With a
// pool (of which on is a connection), SQLite's trigram index is built on
// another of its connections while on builds the rest (bulk_trigram.go);
// log hears when that build could not be used.
func restoreDeferred(ctx context.Context, on execQuerier, d Dialect, pool *sql.DB, log func(string, ...any)) (int, error) {
	type object struct{ name, kind, restore string }
	var objs []object
	// The trigram index first (SQLite): its rebuild reads communication in
	// rowid order only while no index covers (rowid, value); with
	// communication_person (migration 00019) back first, the scan went in
	// that index's order and the rebuild took 66 s instead of 26 (1M). A
	// build beside the others reads the table before they exist and is
	// copied in last; the rebuild in place it may fall back on pays the 66.
	err := eachQueried(ctx, on, "SELECT name, kind, restore FROM bulk_deferred ORDER BY kind <> '"+deferredTrigram+"', kind, name", func(r *sql.Rows) error {
		var o object
		if err := r.Scan(&o.name, &o.kind, &o.restore); err != nil {
			return err
		}
		objs = append(objs, o)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("bulk: deferred indexes: %w", err)
	}
	var side *trigramBuild
	conn, onConn := on.(*sql.Conn)
	switch trigram := len(objs) > 0 && objs[0].kind == deferredTrigram; {
	case trigram && onConn && pool != nil:
		if side, err = startTrigramBuild(ctx, conn, pool, log); err != nil {
			return 0, err
		}
		if side != nil {
			defer side.close()
			// Its copy comes last, after the indexes built meanwhile.
			objs = append(objs[1:], objs[0])
		}
	case trigram:
		// Rebuilt in place (a killed load's, at open): its scratch file,
		// if any, is of no use.
		if _, _, err := removeTrigramScratch(ctx, on); err != nil {
			return 0, err
		}
	}
	// One that fails (a foreign key a row breaks) stays listed; the others
	// are built all the same.
	built, errs := 0, []error(nil)
	for _, o := range objs {
		ok, err := restoreOne(ctx, on, d, o.name, o.kind, o.restore, side)
		if err != nil {
			if ctx.Err() != nil {
				return built, err
			}
			errs = append(errs, fmt.Errorf("bulk: restore %s: %w", o.name, err))
			continue
		}
		if ok {
			built++
		}
	}
	return built, errors.Join(errs...)
}

// restoreOne builds one deferred object; side, when set, is the trigram
// indexes built beside the load, copied in if they can be.
func restoreOne(ctx context.Context, on execQuerier, d Dialect, name, kind, restore string, side *trigramBuild) (bool, error) {
	// A trigram index's insert trigger: its restore is the trigger, then
	// (kind trigger) the index's rebuild, which the side build's copy
	// replaces.
	table, rebuild := "", ""
	switch kind {
	case deferredTrigram:
		table, rebuild = trigramTable, trigramRebuild(trigramTable)
	case deferredTrigger:
		table = strings.TrimSuffix(name, "_insert")
		rebuild = trigramRebuild(table)
		if !strings.HasSuffix(restore, "; "+rebuild) {
			table, rebuild = "", ""
		}
		restore = strings.TrimSuffix(restore, "; "+rebuild)
	}
	attached := false
	if table != "" && side != nil && side.holds(table) {
		conn := on.(*sql.Conn) // restoreDeferred starts a side build on a connection only
		if attached = side.attach(ctx, conn); attached {
			defer side.detach(ctx, conn)
		}
	}
	tx, err := on.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, d.Rebind("DELETE FROM bulk_deferred WHERE name = ?"), name)
	if err != nil {
		return false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, err // another process restored it
	}
	// Already there with its row kept (a restore that an earlier version
	// let a cancelled load's rollback cut in two: every open then failed
	// on "already exists"): an index or key stands as built; a trigger is
	// made again, with its trigram index's rebuild.
	var exists bool
	if err := tx.QueryRowContext(ctx, d.Rebind(d.objectExists), name).Scan(&exists); err != nil {
		return false, err
	}
	switch {
	case exists && (kind == deferredIndex || kind == deferredForeignKey):
		return true, tx.Commit()
	case exists:
		if _, err := tx.ExecContext(ctx, `DROP TRIGGER "`+name+`"`); err != nil {
			return false, err
		}
	}
	if _, err := tx.ExecContext(ctx, restore); err != nil {
		return false, err
	}
	if table != "" {
		copied := false
		if attached {
			if copied, err = side.copyInto(ctx, tx, table); err != nil {
				return false, err
			}
		}
		if !copied {
			if _, err := tx.ExecContext(ctx, rebuild); err != nil {
				return false, err
			}
		}
	}
	return true, tx.Commit()
}

// RestoreDeferred builds whatever a bulk load that never finished left
// dropped (none: nothing to do, one query), then refreshes the statistics.
// app.Open calls it after the migrations, so a database is whole again
// before anything is served from it.
func (db *DB) RestoreDeferred(ctx context.Context) (int, error) {
	n, err := restoreDeferred(ctx, db.primary, db.Dialect, nil, nil)
	if err != nil || n == 0 {
		return n, err
	}
	if _, err := db.primary.ExecContext(ctx, db.Dialect.bulkAnalyze); err != nil {
		return n, fmt.Errorf("analyze: %w", err)
	}
	return n, nil
}

// DeferredIndexes lists what bulk_deferred holds (tests, diagnostics).
func (db *DB) DeferredIndexes(ctx context.Context) ([]string, error) {
	return db.queryStrings(ctx, "SELECT name FROM bulk_deferred ORDER BY name")
}

// SchemaObjects lists the indexes, triggers and (PostgreSQL) foreign keys
// of the tables a bulk load fills, as "index name", "trigger name" or
// "foreign key name definition", so a test can compare a loaded database
// with a fresh one.
func (db *DB) SchemaObjects(ctx context.Context) ([]string, error) {
	q := `SELECT type || ' ' || name FROM sqlite_master WHERE type IN ('index', 'trigger') AND tbl_name IN (` + bulkFilledTables + `) ORDER BY 1`
	if db.Dialect.Numbered {
		q = `SELECT 'index ' || indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename IN (` + bulkFilledTables + `)
UNION ALL
SELECT 'foreign key ' || c.conname || ' ' || pg_get_constraintdef(c.oid) FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
	WHERE t.relnamespace = current_schema()::regnamespace AND c.contype = 'f' AND t.relname IN (` + bulkFilledTables + `) ORDER BY 1`
	}
	return db.queryStrings(ctx, q)
}

// queryStrings is the one text column of q's rows.
func (db *DB) queryStrings(ctx context.Context, q string) ([]string, error) {
	var out []string
	err := eachQueried(ctx, db.primary, q, func(r *sql.Rows) error {
		var s string
		if err := r.Scan(&s); err != nil {
			return err
		}
		out = append(out, s)
		return nil
	})
	return out, err
}

// eachQueried runs query on q and fn on each row.
func eachQueried(ctx context.Context, q interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}, query string, fn func(*sql.Rows) error) error {
	rows, err := q.QueryContext(ctx, query)
	return eachRow(rows, err, fn)
}
