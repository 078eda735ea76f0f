package sqlstore

import "testing"

// TestDomainColumnsAreTheSearchColumns: each column whose values
// columnDomain lists is the very column the search selects for it, so the
// listed values are the ones its rows hold (a column renamed in one place
// only would list another column's values).
func TestDomainColumnsAreTheSearchColumns(t *testing.T) {
	for _, d := range []Dialect{SQLite, Postgres} {
		for name, dc := range personDomainColumns {
			if got, want := searchColumnSQL(d, name), dc.alias+"."+dc.column; got != want {
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
