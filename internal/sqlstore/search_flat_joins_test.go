package sqlstore

import (
	"strings"
	"testing"
)

// TestUsedJoins: a flat search keeps the lookups its statement refers to,
// and those their own joins need; a count without them skips them all.
func TestUsedJoins(t *testing.T) {
	// u (app user), l (a link), pn (the link's person): pn needs l.
	joins := []string{
		"LEFT JOIN app_user u ON u.agency_id = a.agency_id AND u.rec_no = a.app_user_id",
		"LEFT JOIN activity_person_link l ON l.agency_id = a.agency_id AND l.activity_id = a.rec_no",
		"LEFT JOIN person pn ON pn.agency_id = l.agency_id AND pn.rec_no = l.person_id",
	}
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
		{[]string{replaceAlias(personNameExpr, "p", "pn")}, "l,pn"},
		{[]string{"pn.rec_no = ?", "(u.user_name) = ?"}, "u,l,pn"},
		{[]string{"apl.person_id = ?", "EXISTS (SELECT 1 FROM activity_person_link pl WHERE pl.agency_id = a.agency_id)"}, ""},
	} {
		if got := text(usedJoins(joins, tc.texts)); got != tc.want {
			t.Errorf("%q: joins %s, want %s", tc.texts, got, tc.want)
		}
	}
}
