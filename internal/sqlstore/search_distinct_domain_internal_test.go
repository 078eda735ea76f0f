package sqlstore

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// TestDomainColumnsAreTheSearchColumns: each column whose values
// columnDomain lists is the very column the search selects for it, so the
// listed values are the ones its rows hold (a column renamed in one place
// only would list another column's values).
func TestDomainColumnsAreTheSearchColumns(t *testing.T) {
	for _, d := range []Dialect{SQLite, Postgres} {
		for name, dc := range personDomainColumns {
			want := dc.alias + "." + dc.column
			if dc.lookup != nil {
				want = dc.lookup.alias + "." + dc.lookup.column
				// and the search's join of the lookup is on the column
				on := "JOIN " + dc.lookup.table + " " + dc.lookup.alias + " ON " + dc.lookup.alias + ".agency_id = " + dc.alias + ".agency_id AND " +
					dc.lookup.alias + ".rec_no = " + dc.alias + "." + dc.column
				col, _ := wayfarer.LookupSearchColumn(name)
				c := &wayfarer.SearchCriteria{BaseCriteria: wayfarer.BaseCriteria{Columns: []wayfarer.SearchColumn{col}}}
				if joins := fmt.Sprint(searchJoins(d, c, searchOptions{})); !strings.Contains(joins, on) {
					t.Errorf("%s, person search %s: joins %s, lists %s", d.Name, name, joins, on)
				}
			}
			if got := searchColumnSQL(d, name); got != want {
				t.Errorf("%s, person search %s: selects %s, lists %s", d.Name, name, got, want)
			}
		}
	}
	for table, ft := range flatTables {
		for name, dc := range ft.Domains {
			if got, want := ft.Columns[name], dc.alias+"."+dc.column; got != want || dc.alias != ft.Alias {
				t.Errorf("%s %s: selects %s, lists %s", table, name, got, want)
			}
		}
		for name := range ft.Trigrams {
			if _, ok := ft.Columns[name]; !ok {
				t.Errorf("%s: a trigram index of %s, which it has no column for", table, name)
			}
		}
	}
}
