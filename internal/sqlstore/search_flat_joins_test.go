package sqlstore

import (
	"strings"
	"testing"
)

// TestUsedJoins: a flat search keeps the lookups its statement refers to,
// and those their own joins need; a count without them skips them all.
func TestUsedJoins(t *testing.T) {
	joins := activityTable.Joins // u (app user), l (link), pn (the link's person)
	text := func(es []Expr) string {
		var out []string
		for _, e := range es {
			out = append(out, joinAlias(e.SQL))
		}
		return strings.Join(out, ",")
	}
	for _, tc := range []struct {
		texts []string
		want  string
	}{
		{nil, ""},
		{[]string{"a.rec_no AS s0", "a.subject AS s1"}, ""},
		{[]string{"u.user_name AS s0"}, "u"},
		{[]string{activityTable.Columns["personName"]}, "l,pn"},
		{[]string{"pn.rec_no = ?", "(u.user_name) = ?"}, "u,l,pn"},
		{[]string{"apl.person_id = ?", "EXISTS (SELECT 1 FROM activity_person_link pl WHERE pl.agency_id = a.agency_id)"}, ""},
	} {
		if got := text(usedJoins(joins, tc.texts)); got != tc.want {
			t.Errorf("%q: joins %s, want %s", tc.texts, got, tc.want)
		}
	}
}
