package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
)

// TestSavePipeline: a save's transaction begun by its reads' pipeline and
// adopted by database/sql commits what it wrote, with a COMMIT of its own
// or the one sent with the last write; rolled back or failed at any step,
// it leaves nothing written and no transaction open on the connection,
// which the next save then uses as any other.
func TestSavePipeline(t *testing.T) {
	url := os.Getenv("WAYFARER_TEST_POSTGRES_URL")
	if url == "" {
		t.Skip("WAYFARER_TEST_POSTGRES_URL not set")
	}
	db, err := OpenHandle(url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // every case on the connection the one before left
	ctx := context.Background()
	table := fmt.Sprintf("save_pipeline_%d", os.Getpid())
	if _, err := db.ExecContext(ctx, `CREATE TABLE `+table+` (id int PRIMARY KEY, v int NOT NULL CHECK (v >= 0))`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = db.ExecContext(context.Background(), `DROP TABLE `+table) })
	if _, err := db.ExecContext(ctx, `INSERT INTO `+table+` VALUES (1, 0)`); err != nil {
		t.Fatal(err)
	}
	read := func(got *int) []sqlstore.ReadStep {
		return []sqlstore.ReadStep{{SQL: `SELECT v FROM ` + table + ` WHERE id = $1 FOR UPDATE`, Args: []any{1},
			Row: func(r sqlstore.RowScanner) error { return r.Scan(got) }}}
	}
	set := func(v int) sqlstore.ReadStep {
		return sqlstore.ReadStep{SQL: `UPDATE ` + table + ` SET v = $1 WHERE id = 1`, Args: []any{v}}
	}
	stored := func() int {
		t.Helper()
		var v int
		if err := db.QueryRowContext(ctx, `SELECT v FROM `+table+` WHERE id = 1`).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	// save begins with the reads and adopts; fn writes; then commit or
	// rollback as fn says. It reports the connection's transaction status
	// after.
	save := func(steps []sqlstore.ReadStep, fn func(c *sql.Conn, tx *sql.Tx) error) (status byte, beginErr, fnErr error) {
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		defer func() {
			_ = onConn(c, func(pc *conn) error { status = pc.Conn().PgConn().TxStatus(); return nil })
		}()
		if beginErr = saveBegin(ctx, c, sql.TxOptions{}, steps); beginErr != nil {
			return 0, beginErr, nil
		}
		tx, err := c.BeginTx(sqlstore.AdoptOpenTx(ctx), nil)
		if err != nil {
			t.Fatal(err)
		}
		if fnErr = fn(c, tx); fnErr != nil {
			if err := tx.Rollback(); err != nil {
				t.Fatal(err)
			}
			return 0, nil, fnErr
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		return 0, nil, nil
	}
	check := func(name string, want int, wantBegin, wantFn bool, status byte, beginErr, fnErr error) {
		t.Helper()
		if (beginErr != nil) != wantBegin || (fnErr != nil) != wantFn {
			t.Errorf("%s: begin %v, fn %v", name, beginErr, fnErr)
		}
		if status != 'I' {
			t.Errorf("%s: transaction status %q after, want idle", name, status)
		}
		if got := stored(); got != want {
			t.Errorf("%s: stored %d, want %d", name, got, want)
		}
	}

	var got int
	st, b, f := save(read(&got), func(_ *sql.Conn, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE `+table+` SET v = $1 WHERE id = 1`, got+1)
		return err
	})
	check("write, then COMMIT", 1, false, false, st, b, f)

	st, b, f = save(read(&got), func(c *sql.Conn, _ *sql.Tx) error { return saveCommit(ctx, c, []sqlstore.ReadStep{set(got + 1)}) })
	check("write with the COMMIT", 2, false, false, st, b, f)
	if got != 1 {
		t.Errorf("read %d inside the second save, want 1", got)
	}

	st, b, f = save(read(&got), func(_ *sql.Conn, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE `+table+` SET v = 99 WHERE id = 1`); err != nil {
			return err
		}
		return fmt.Errorf("the save's own refusal")
	})
	check("rolled back after a write", 2, false, true, st, b, f)

	st, b, f = save(read(&got), func(c *sql.Conn, _ *sql.Tx) error { return saveCommit(ctx, c, []sqlstore.ReadStep{set(-1)}) })
	check("last write refused by the database", 2, false, true, st, b, f)

	st, b, f = save(append(read(&got), sqlstore.ReadStep{SQL: `SELECT * FROM no_such_table_here`}), func(*sql.Conn, *sql.Tx) error {
		t.Error("fn ran after a failed read")
		return nil
	})
	check("a read fails", 2, true, false, st, b, f)

	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.BeginTx(sqlstore.AdoptOpenTx(ctx), nil); err == nil {
		t.Error("adopted a transaction nobody began")
	}
	c.Close()
	check("nothing to adopt", 2, false, false, 'I', nil, nil)
}
