package sqlstore

import (
	"context"
	"database/sql/driver"
	"fmt"
	"strconv"
	"strings"

	"github.com/pressly/goose/v3"
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
}

var (
	SQLite   = Dialect{Name: "sqlite", Goose: goose.DialectSQLite3}
	Postgres = Dialect{Name: "postgres", Goose: goose.DialectPostgres, Numbered: true, ForUpdate: " FOR UPDATE"}
)

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

// Exclusive runs fn while no other process runs an Exclusive of the same
// name on this database: on PostgreSQL under a session advisory lock, so
// instances that start together do one-off work (e.g. demo data) one after
// another. SQLite has one process per file in practice: fn just runs.
func (db *DB) Exclusive(ctx context.Context, name string, fn func(context.Context) error) error {
	if !db.Dialect.Numbered {
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
