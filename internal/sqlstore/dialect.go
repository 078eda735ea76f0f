package sqlstore

import (
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
