package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
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
// in flatTable.Indexed ("" for none).
type flatCond struct {
	key  string
	cond Expr
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
			out = append(out, flatCond{r.key, TimeCond(r.col, r.r)})
		}
	}
	for _, f := range c.Filters {
		cond, err := t.filter(d, f)
		if err != nil {
			return nil, err
		}
		key := f.Key
		if f.Num.Cond == wayfarer.NumNotEqual || f.Str.Active() {
			key = "" // a complement, or text: no index starts from it
		}
		out = append(out, flatCond{key, cond})
	}
	return out, nil
}

// flatForms is the outcome of sizing up: probed (SQLite), and the keys
// that few rows pass.
type flatForms struct {
	probed bool
	few    map[string]bool
}

// where is fc as the search's condition: in the form its probe chose.
func (fs flatForms) where(t *flatTable, agencyID int64, fc flatCond) Expr {
	switch {
	case !fs.probed || fc.key == "" || !t.Indexed[fc.key]:
		return fc.cond
	case fs.few[fc.key]:
		return Wrap(t.Alias+".rec_no IN (SELECT "+t.Alias+"f.rec_no FROM "+t.table()+" "+t.Alias+"f WHERE ",
			And(E(t.Alias+"f.agency_id = ?", agencyID), t.renamed(fc.cond)), ")")
	}
	return Wrap("+(", fc.cond, ")")
}

// table is the table of From ("activity a": activity).
func (t *flatTable) table() string { return strings.Fields(t.From)[0] }

// renamed is e on the table aliased alias+"f".
func (t *flatTable) renamed(e Expr) Expr {
	return Expr{SQL: replaceAlias(e.SQL, t.Alias, t.Alias+"f"), Args: e.Args}
}

// flatForms sizes up the indexed conditions of a flat search, on the
// engines that need it (Dialect.probeChildren).
func (db *DB) flatForms(ctx context.Context, handle *sql.DB, t *flatTable, cat *wayfarer.SearchCatalog, reach wayfarer.SearchReach, c *wayfarer.FlatCriteria) (flatForms, error) {
	fs := flatForms{probed: db.Dialect.probeChildren, few: map[string]bool{}}
	if !fs.probed || len(t.Indexed) == 0 {
		return fs, nil
	}
	conds, err := t.conds(db.Dialect, c)
	if err != nil {
		return fs, nil // the statement's builder answers it
	}
	sc, _ := reach(cat.Areas[0])
	limit := db.childLimit()
	for _, fc := range conds {
		if fc.key == "" || !t.Indexed[fc.key] {
			continue
		}
		q := join("", []Expr{E("SELECT count(*) FROM (SELECT 1 FROM " + t.From + " WHERE "),
			And(E(t.Alias+".agency_id = ?", sc.AgencyID), fc.cond), E(" LIMIT ?)", limit+1)})
		st, release, err := db.prepared(ctx, handle, q.SQL)
		if err != nil {
			return fs, fmt.Errorf("%s: %s probe: %w", cat.Method, fc.key, err)
		}
		var n int
		err = st.QueryRowContext(ctx, q.Args...).Scan(&n)
		release()
		if err != nil {
			return fs, fmt.Errorf("%s: %s probe: %w", cat.Method, fc.key, err)
		}
		fs.few[fc.key] = n <= limit
	}
	return fs, nil
}
