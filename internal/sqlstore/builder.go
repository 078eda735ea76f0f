package sqlstore

import "strings"

// Expr is a fragment of SQL with the arguments of its ? placeholders, in
// text order. Fragments compose by concatenation, so the arguments of a
// composed query always line up with its placeholders, whatever order the
// parts were built in. Input reaches SQL only as arguments: the text of an
// Expr is written by this package from constants, never from a request.
type Expr struct {
	SQL  string
	Args []any
}

// E makes an Expr; sql holds one ? per arg.
func E(sql string, args ...any) Expr { return Expr{SQL: sql, Args: args} }

// IsZero reports an empty fragment.
func (e Expr) IsZero() bool { return e.SQL == "" }

var (
	exprTrue  = E("1 = 1")
	exprFalse = E("1 = 0")
)

// join concatenates the non-empty fragments with sep.
func join(sep string, es []Expr) Expr {
	var b strings.Builder
	var args []any
	n := 0
	for _, e := range es {
		if e.IsZero() {
			continue
		}
		if n > 0 {
			b.WriteString(sep)
		}
		n++
		b.WriteString(e.SQL)
		args = append(args, e.Args...)
	}
	return Expr{SQL: b.String(), Args: args}
}

// And joins conditions with AND; none is true.
func And(es ...Expr) Expr { return connect(" AND ", exprTrue, es) }

// Or joins conditions with OR; none is false.
func Or(es ...Expr) Expr { return connect(" OR ", exprFalse, es) }

func connect(op string, none Expr, es []Expr) Expr {
	es = nonZero(es)
	switch len(es) {
	case 0:
		return none
	case 1:
		return es[0]
	}
	e := chain(op, es)
	e.SQL = "(" + e.SQL + ")"
	return e
}

// chainLimit is the most terms the builder joins with one operator in a
// flat chain. SQLite parses a chain of n terms into a tree n levels deep
// and refuses trees deeper than 1000 (SQLITE_MAX_EXPR_DEPTH): a filter
// of 999 values, or of 999 tags, failed with "Expression tree is too
// large". Longer chains are nested in balanced halves, so n terms add
// about log2(n/chainLimit) levels, not n. Parentheses make no nodes of
// their own, and both engines flatten nested ANDs and ORs when planning,
// so the plans are those of the flat chain; chains up to the limit, those
// of everyday searches, keep their text as it was.
const chainLimit = 16

// chain joins non-empty terms with op, as a balanced tree beyond chainLimit.
func chain(op string, es []Expr) Expr {
	if len(es) <= chainLimit {
		return join(op, es)
	}
	l, r := chain(op, es[:len(es)/2]), chain(op, es[len(es)/2:])
	args := make([]any, 0, len(l.Args)+len(r.Args))
	return Expr{SQL: "(" + l.SQL + ")" + op + "(" + r.SQL + ")", Args: append(append(args, l.Args...), r.Args...)}
}

func nonZero(es []Expr) []Expr {
	out := make([]Expr, 0, len(es))
	for _, e := range es {
		if !e.IsZero() {
			out = append(out, e)
		}
	}
	return out
}

// Not negates a condition. Beware SQL's three values: NOT of a NULL is
// NULL; callers that want null rows to pass must say so.
func Not(e Expr) Expr { return Expr{SQL: "NOT (" + e.SQL + ")", Args: e.Args} }

// Wrap returns prefix + e + suffix, e.g. Wrap("EXISTS (", sub, ")").
func Wrap(prefix string, e Expr, suffix string) Expr {
	return Expr{SQL: prefix + e.SQL + suffix, Args: e.Args}
}

// In is "col IN (?, ...)" over vals; an empty list is false.
func In[T any](col string, vals []T) Expr {
	if len(vals) == 0 {
		return exprFalse
	}
	args := make([]any, len(vals))
	for i, v := range vals {
		args[i] = v
	}
	if len(vals) == 1 {
		return Expr{SQL: col + " = ?", Args: args}
	}
	return Expr{SQL: col + " IN (" + placeholders(len(vals)) + ")", Args: args}
}

// InExpr is like In with an expression around each placeholder, e.g.
// "lower(?)".
func InExpr[T any](col, around string, vals []T) Expr {
	if len(vals) == 0 {
		return exprFalse
	}
	args := make([]any, len(vals))
	parts := make([]string, len(vals))
	for i, v := range vals {
		args[i] = v
		parts[i] = around
	}
	if len(vals) == 1 {
		return Expr{SQL: col + " = " + around, Args: args}
	}
	return Expr{SQL: col + " IN (" + strings.Join(parts, ", ") + ")", Args: args}
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// EscapeLike escapes the LIKE wildcards % and _ and the escape character
// itself, for a pattern used with ESCAPE '\'.
func EscapeLike(s string) string {
	if !strings.ContainsAny(s, `%_\`) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r == '%' || r == '_' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// maxCodePoint sorts after every other character in code-point order.
const maxCodePoint = "\U0010FFFF"

// FoldEquals is a case-insensitive equality with any of vals.
func FoldEquals(d Dialect, col string, vals []string) Expr {
	return InExpr(d.Fold(col), "lower(?)", vals)
}

// FoldPrefix is a case-insensitive "starts with" written as a range, so an
// index on Fold(col) serves it. The upper bound is the prefix followed by
// the highest code point; only a value holding U+10FFFF (a noncharacter)
// right after the prefix would be missed.
func FoldPrefix(d Dialect, col, prefix string) Expr {
	if prefix == "" {
		return E(col + " IS NOT NULL")
	}
	f := d.Fold(col)
	return E(f+" >= lower(?) AND "+f+" < lower(?)", prefix, prefix+maxCodePoint)
}

// FoldContains is a case-insensitive substring test. LIKE does not depend
// on the collation, so it tests lower(col) itself, the expression a
// PostgreSQL trigram index holds; or the column holding it where the
// dialect has one (foldKeys), which SQLite's name index holds: a search
// walking that index tests each entry without reading the person's row
// ("son" in last names at a million persons: 429 ms reading the rows, 46
// not). A column of Dialect.likeAsIs is tested as it is: the same rows,
// without a folded copy of each value.
func FoldContains(d Dialect, col, sub string) Expr {
	pattern := "%" + EscapeLike(sub) + "%"
	if k, ok := d.foldKeys[col]; ok {
		return E(k+` LIKE lower(?) ESCAPE '\'`, pattern)
	}
	if d.likeAsIs[col] {
		return E(col+` LIKE ? ESCAPE '\'`, pattern)
	}
	return E(`lower(`+col+`) LIKE lower(?) ESCAPE '\'`, pattern)
}

// Select is a SELECT statement assembled from fragments.
type Select struct {
	Distinct bool
	Columns  []Expr
	From     Expr
	Joins    []Expr
	Where    []Expr // joined with AND
	GroupBy  []Expr
	OrderBy  []Expr
	Limit    *int64
	Offset   int64
}

// Build renders the statement for d and returns it with its arguments.
func (s *Select) Build(d Dialect) (string, []any) {
	e := s.Expr()
	return d.Rebind(e.SQL), e.Args
}

// Expr renders the statement as a fragment (with ? placeholders), e.g. to
// nest it as a subquery.
func (s *Select) Expr() Expr {
	parts := []Expr{E("SELECT")}
	if s.Distinct {
		parts = append(parts, E("DISTINCT"))
	}
	parts = append(parts, join(", ", s.Columns), E("FROM"), s.From)
	parts = append(parts, s.Joins...)
	if w := nonZero(s.Where); len(w) > 0 {
		parts = append(parts, E("WHERE"), chain(" AND ", w))
	}
	if len(s.GroupBy) > 0 {
		parts = append(parts, E("GROUP BY"), join(", ", s.GroupBy))
	}
	if len(s.OrderBy) > 0 {
		parts = append(parts, E("ORDER BY"), join(", ", s.OrderBy))
	}
	if s.Limit != nil || s.Offset > 0 {
		limit := int64(1<<63 - 1) // SQLite cannot OFFSET without a LIMIT
		if s.Limit != nil {
			limit = *s.Limit
		}
		parts = append(parts, E("LIMIT ?", limit))
		if s.Offset > 0 {
			parts = append(parts, E("OFFSET ?", s.Offset))
		}
	}
	return join(" ", parts)
}
