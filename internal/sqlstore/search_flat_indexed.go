package sqlstore

import (
	"context"
	"database/sql"
	"strings"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// A flat search's filters that an index of its table serves are sized up
// first on SQLite, as the person search's own filters are
// (search_person_filters.go): SQLite walked every activity in recNo order
// for a target date nobody has (0.75 s at 800,000 activities), not seeing
// the values. Few rows passing (childProbeLimit), the search starts from
// them (alias.rec_no IN (...)); more, the condition is written +(...) and
// the rows are walked in order, each tested. PostgreSQL plans them with
// its statistics: there they stay as they are.

// flatCond is one condition of a flat search, with the key that names it
// in flatTable.Indexed ("" for none), or the FTS5 query of its key's
// trigram index (flatTable.Trigrams) that holds every row it passes.
type flatCond struct {
	key   string
	cond  Expr
	match string
}

// conds is every condition of c's filters and inherited ranges.
func (t *flatTable) conds(d Dialect, c *wayfarer.FlatCriteria) ([]flatCond, error) {
	var out []flatCond
	for _, r := range []struct {
		key, col string
		r        wayfarer.TimeRange
	}{{"createDateTime", t.Created, c.Created}, {"modifiedDateTime", t.Modified, c.Modified}} {
		switch {
		case !r.r.Active():
		case r.col == "":
			out = append(out, flatCond{cond: exprFalse})
		default:
			out = append(out, flatCond{key: r.key, cond: TimeCond(r.col, r.r)})
		}
	}
	for _, f := range c.Filters {
		cond, err := t.filter(d, f)
		if err != nil {
			return nil, err
		}
		fc := flatCond{key: f.Key, cond: cond}
		if f.Num.Cond == wayfarer.NumNotEqual || (f.Str.Active() && !foldIndexed(f.Str)) {
			fc.key = "" // a complement, or a substring: no b-tree starts from it
			if _, ok := t.Trigrams[f.Key]; ok && d.probeTrigrams && f.Str.Cond == wayfarer.StrContains {
				if fc.match = trigramQuery(f.Str); fc.match != "" { // "" when too short
					fc.key = f.Key
				}
			}
		}
		out = append(out, fc)
	}
	return out, nil
}

// foldIndexed tells whether an index of the folded text (lower(col)) starts
// from a text condition: Equal, In, StartingWith (a range) and Blank do,
// their complements and Contains do not.
func foldIndexed(p wayfarer.StringParam) bool {
	pos, neg := p.Cond.Negated()
	return !neg && pos != wayfarer.StrContains
}

// flatForms is the outcome of sizing up: probed (SQLite), and the keys
// that few rows pass.
type flatForms struct {
	probed bool
	few    map[string]bool
}

// where is fc as the search's condition: in the form its probe chose.
func (fs flatForms) where(d Dialect, t *flatTable, agencyID int64, fc flatCond) Expr {
	switch {
	case fc.match != "" && fs.few[fc.key]:
		return t.child(fc).cond(d, agencyID, true)
	case fc.match != "":
		return fc.cond // many: walked in order, as a substring always was
	case !fs.probed || fc.key == "" || !t.Indexed[fc.key]:
		return fc.cond
	case fs.few[fc.key]:
		return t.child(fc).cond(d, agencyID, true)
	}
	return unindexed(fc.cond)
}

// child is fc as a child filter of the table on itself (aliased alias+"f"),
// for its probe and its IN form, as personFilter.child is for persons.
func (t *flatTable) child(fc flatCond) childFilter {
	self := t.Alias + "f"
	from := strings.Fields(t.From)[0] + " " + self
	f := childFilter{key: fc.key, from: from, agency: self + ".agency_id",
		person: self + ".rec_no", outer: t.Alias + ".rec_no",
		conds: []Expr{{SQL: replaceAlias(fc.cond.SQL, t.Alias, self), Args: fc.cond.Args}}}
	if fc.match != "" {
		table := t.Trigrams[fc.key]
		rows := table + " ct JOIN " + from + " ON " + self + ".rec_no = ct.rowid"
		f.sizeMatch, f.match = fc.match, trigramIndex{table: table, rows: rows}
	}
	return f
}

// flatForms sizes up the indexed conditions of a flat search, on the
// engines that need it (Dialect.probeChildren).
func (db *DB) flatForms(ctx context.Context, handle *sql.DB, t *flatTable, agencyID int64, conds []flatCond) (flatForms, error) {
	fs := flatForms{probed: db.Dialect.probeChildren, few: map[string]bool{}}
	if !fs.probed {
		return fs, nil
	}
	for _, fc := range conds {
		if fc.match == "" && (fc.key == "" || !t.Indexed[fc.key]) {
			continue
		}
		few, err := db.fewChildren(ctx, handle, t.child(fc), agencyID, db.childLimit())
		if err != nil {
			return fs, err
		}
		fs.few[fc.key] = few
	}
	return fs, nil
}
