package sqlstore

import (
	"fmt"
	"strings"
	"testing"
)

// maxNesting is the deepest parenthesis nesting of a statement's text.
func maxNesting(sql string) int {
	depth, deepest := 0, 0
	for _, r := range sql {
		switch r {
		case '(':
			depth++
			deepest = max(deepest, depth)
		case ')':
			depth--
		}
	}
	return deepest
}

// Long AND and OR chains are balanced trees: SQLite refuses expression
// trees deeper than 1000, and a chain of n terms is n deep. The arguments
// keep the order of their placeholders.
func TestLongChainsAreBalanced(t *testing.T) {
	for _, n := range []int{1, 2, chainLimit, chainLimit + 1, 999, 5000} {
		for _, op := range []struct {
			name string
			f    func(...Expr) Expr
		}{{"AND", And}, {"OR", Or}} {
			es := make([]Expr, n)
			for i := range es {
				es[i] = E(fmt.Sprintf("c%d = ?", i), i)
			}
			e := op.f(es...)
			if got := strings.Count(e.SQL, " "+op.name+" "); got != n-1 {
				t.Errorf("%s of %d: %d operators", op.name, n, got)
			}
			for i, a := range e.Args {
				if a != i {
					t.Fatalf("%s of %d: argument %d is %v", op.name, n, i, a)
				}
			}
			if n <= chainLimit && strings.Contains(e.SQL, "((") {
				t.Errorf("%s of %d is nested: %s", op.name, n, e.SQL)
			}
			// The text is nested about log2(n) deep; each level is one tree
			// level and the chains in the leaves at most chainLimit.
			if d := maxNesting(e.SQL); d > 16 {
				t.Errorf("%s of %d is nested %d deep", op.name, n, d)
			}
		}
	}
	s := Select{Columns: []Expr{E("1")}, From: E("t")}
	for i := range 2000 {
		s.Where = append(s.Where, E("c = ?", i))
	}
	if q, _ := s.Build(SQLite); maxNesting(q) > 16 {
		t.Errorf("WHERE of 2000 terms nested %d deep", maxNesting(q))
	}
}

// A substring test compares SQLite's communication values as stored (its
// LIKE folds ASCII case as its lower() does), and keeps lower() where only
// an index of lower() holds the column, and on PostgreSQL, whose trigram
// indexes hold lower(value) and whose LIKE ignores no case.
func TestFoldContainsForms(t *testing.T) {
	for _, tc := range []struct {
		d        Dialect
		col, sql string
	}{
		{SQLite, "cm.value", `cm.value LIKE ? ESCAPE '\'`},
		{SQLite, "cm.user_specific", `cm.user_specific LIKE ? ESCAPE '\'`},
		{SQLite, "pt.value", `lower(pt.value) LIKE lower(?) ESCAPE '\'`},
		{SQLite, "p.last_name", `p.last_name_key LIKE lower(?) ESCAPE '\'`},
		{Postgres, "cm.value", `lower(cm.value) LIKE lower(?) ESCAPE '\'`},
	} {
		e := FoldContains(tc.d, tc.col, "a%b")
		if e.SQL != tc.sql || len(e.Args) != 1 || e.Args[0] != `%a\%b%` {
			t.Errorf("%s %s: %s %v, want %s", tc.d.Name, tc.col, e.SQL, e.Args, tc.sql)
		}
	}
}
