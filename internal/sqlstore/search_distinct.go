package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// A distinct person search groups every row it matches on its columns and
// orders the groups by the first person that produced them, then by their
// values (pagedQuery): at a million persons, `{"distinct":true,
// "includeCols":["name"]}` grouped them all before its first page (1.2 s on
// a fast machine, past the 5 s limit on a slow one; 4 ms so). Its early
// pages are in the first rows of the search's own order, so the search
// first walks its rows in order (at most distinctWalkRows), dropping
// repeats and putting each person's new rows in the order of their values;
// only a page the walk does not reach, or a count (summaryCount), groups
// them all. Both give the same rows in the same order
// (TestSearchMatchesModel and TestSearchDistinctOrder run each).

// producerKey is one value whose order is the order of keys, the keys that
// name a row's record (a person: folded last and first name, recNo): MIN of
// it over a group is the group's first record. keys are texts (nulls
// first) and, last, the record's unique integer recNo; one key is itself.
// Each text is marked (\x01 null, \x02 a value) and ended by \x01, below
// every character a stored text holds (control characters are refused,
// docs/api.md), and the recNo is zero-padded to 19 digits, so comparing
// by code point compares key by key. Chosen over the record's rank
// (DENSE_RANK() OVER the order): SQLite then read the persons in name
// order and sorted the rows twice (2.9 s against 1.4 s for every person's
// name at a million persons).
func producerKey(d Dialect, keys []string) string {
	if len(keys) == 1 {
		return keys[0]
	}
	chr := func(n string) string { return d.chr + "(" + n + ")" }
	var parts []string
	for _, k := range keys[:len(keys)-1] {
		parts = append(parts, "COALESCE("+chr("2")+" || ("+k+"), "+chr("1")+")", chr("1"))
	}
	parts = append(parts, fmt.Sprintf(d.padID, keys[len(keys)-1]))
	return "(" + strings.Join(parts, " || ") + ")" + d.codePoints
}

// distinctWalkRows is the most rows a distinct search walks before it
// groups them all instead.
const distinctWalkRows = 10000

// distinctWalk answers a page of distinct person search c from a walk of
// its rows (walkDistinct), or nil when the walk cannot tell it.
func (db *DB) distinctWalk(ctx context.Context, handle *sql.DB, sc wayfarer.Scope, c *wayfarer.SearchCriteria, opt searchOptions) (*wayfarer.SearchResult, error) {
	walk := *c
	opt.keys, opt.after = true, nil
	plain := func(b wayfarer.BaseCriteria) searchQuery {
		walk.BaseCriteria = b
		return db.buildSearch(sc, &walk, opt)
	}
	domain := db.distinctDomainOf(sc.AgencyID, c.Columns, personDomainColumns,
		domainRules{joined: personSearchJoins(db.Dialect, c), scoped: scopedIDs(sc), skipLookup: c.SkipLookup})
	return db.walkDistinct(ctx, handle, "person search", &c.BaseCriteria, len(searchOrder(db.Dialect, c)), personKeys-1, plain, domain)
}

// walkDistinct answers a page of distinct search c from a walk of its rows
// in order, or nil when the walk cannot tell the page: a count is asked,
// the page lies past what the walk reads (the budget, distinctWalkRows), or
// the rows walked hold too few distinct rows for it. plain(b) is the
// search's statement with b for c (not distinct, its first b.RowCount
// rows), with its nKeys order keys after the columns, of which the
// record-th names the row's record (a person search's person); record -1:
// each row is its own (a flat search, whose order keys are unique), and
// plain reads no keys. domain, where not nil, lists the rows c's columns
// can hold: rows that hold them all hold every distinct row
// (search_distinct_domain.go).
func (db *DB) walkDistinct(ctx context.Context, handle *sql.DB, what string, c *wayfarer.BaseCriteria, nKeys, record int, plain func(b wayfarer.BaseCriteria) searchQuery, domain distinctDomain) (*wayfarer.SearchResult, error) {
	budget := int64(distinctWalkRows)
	if n := db.distinctRows.Load(); n != nil {
		budget = *n
	}
	limit := pageLimit(c)
	if c.HasColumn("summaryCount") {
		return nil, nil
	}
	need := int64(math.MaxInt64) // the whole answer
	if limit != nil {
		need = c.StartingRow + *limit
	}
	// A page past the budget cannot be told from the walk, unless the
	// column's values are listed (domain): once the walk has met each of
	// them it holds every distinct row, however many were asked. So the
	// natural way to ask which values there are, a distinct search
	// without rowCount, is walked too: `{"distinct":true,
	// "includeCols":["cardType"]}` grouped every row first, 3.6 s at a
	// million persons.
	byDomain := need > budget
	if byDomain && domain == nil {
		return nil, nil
	}
	page := *c
	page.Distinct, page.StartingRow, page.TopRows = false, 0, 0
	// A first try reads a few times the page; the next ones twice the rows
	// that the distinct rows found so far project, up to the budget. A
	// walk that must meet the domain's values tries a tenth of the budget
	// first (the values of a column of few are met early), then all of it.
	found := int64(-1)
	var values [][]any // domain's, once listed
	var err error
	first := budget / 10
	if !byDomain {
		first = 4*need + 100
	}
	for n := max(min(first, budget), 1); ; {
		res := &wayfarer.SearchResult{Columns: c.Columns, Total: -1}
		var records []any // each row's recNo, as a continuation holds it
		sr := newSearchRows(c.Columns, nKeys, res)
		if record >= 0 {
			sr.eachKeys = func(keys []any) { records = append(records, normalizeKey(keys[record])) }
		}
		// c asks no count, which is all readSearch reads of it here.
		page.RowCount = n
		if err = db.readSearch(ctx, handle, what, plain(page), c, sr); err != nil {
			return nil, err
		}
		db.distinctRead.Add(int64(len(res.Rows)))
		all := int64(len(res.Rows)) < n
		if !all && domain != nil {
			if values == nil {
				if values, err = domain(ctx, handle); err != nil {
					return nil, err
				}
				if values == nil {
					domain = nil // more values than it lists
				}
			}
			all = values != nil && coversDomain(res.Rows, values)
		}
		rows, ok := distinctRows(res.Rows, records, all, need)
		if ok {
			db.distinctWalked.Add(1)
			res.Rows = rows[min(c.StartingRow, int64(len(rows))):]
			return res, nil
		}
		// Few distinct rows among the first, or no more than the last try
		// found (a column most rows share): the budget would not hold the
		// page either, and reading it would only add to the grouped
		// statement's time.
		more := int64(len(rows))
		if n == budget || more == found || !byDomain && more*budget < 2*need*n {
			return nil, nil
		}
		found = more
		if byDomain {
			n = budget
		} else {
			n = min(budget, max(2*n, 2*need*n/max(found, 1)))
		}
	}
}

// distinctRows is the first need distinct rows of rows (in the search's
// order; records[i] is row i's record, a person, or records is nil: each
// row is its own), each record's new rows in the order of their values; ok
// is false when rows, which hold every row of the search only when all is
// set, are too few to tell them: the last record's rows may go on past
// them.
func distinctRows(rows []wayfarer.SearchRow, records []any, all bool, need int64) (_ []wayfarer.SearchRow, ok bool) {
	var out []wayfarer.SearchRow
	seen := map[string]bool{}
	var key []byte
	for i := 0; i < len(rows); {
		j := i + 1
		for records != nil && j < len(rows) && records[j] == records[i] {
			j++
		}
		if records != nil && j == len(rows) && !all {
			break // the record's rows may go on
		}
		start := len(out)
		for _, r := range rows[i:j] {
			key = key[:0]
			for _, v := range r {
				key = appendValueKey(key, v)
			}
			if !seen[string(key)] {
				seen[string(key)] = true
				out = append(out, r)
			}
		}
		slices.SortStableFunc(out[start:], compareRows)
		if int64(len(out)) >= need {
			return out[:need], true
		}
		i = j
	}
	return out, all
}

// appendValueKey appends v (a search value: nil, string, int64, bool or
// time.Time, searchValue) to a key that two values share only when they
// are equal.
func appendValueKey(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, 'n')
	case string:
		b = strconv.AppendInt(append(b, 's'), int64(len(x)), 10)
		return append(append(b, ':'), x...)
	case int64:
		return append(strconv.AppendInt(append(b, 'i'), x, 10), ';')
	case bool:
		return strconv.AppendBool(append(b, 'b'), x)
	case time.Time:
		return append(strconv.AppendInt(append(b, 't'), x.UnixNano(), 10), ';')
	}
	return fmt.Appendf(b, "?%T:%v;", v, v) // none other comes from searchValue
}

// compareRows orders rows by their values, column by column, as the
// grouped statement does: nulls first, text by code point.
func compareRows(x, y wayfarer.SearchRow) int {
	for i := range x {
		if r := compareValues(x[i], y[i]); r != 0 {
			return r
		}
	}
	return 0
}

func compareValues(x, y any) int {
	switch {
	case x == nil && y == nil:
		return 0
	case x == nil:
		return -1
	case y == nil:
		return 1
	}
	switch a := x.(type) {
	case string:
		if b, ok := y.(string); ok {
			return cmp.Compare(a, b)
		}
	case int64:
		if b, ok := y.(int64); ok {
			return cmp.Compare(a, b)
		}
	case bool:
		if b, ok := y.(bool); ok {
			switch {
			case a == b:
				return 0
			case !a:
				return -1
			}
			return 1
		}
	case time.Time:
		if b, ok := y.(time.Time); ok {
			return a.Compare(b)
		}
	}
	// A column's values share one type (searchValue); this keeps any other
	// pair in a fixed order without stopping the request.
	return cmp.Compare(fmt.Sprintf("%T:%v", x, x), fmt.Sprintf("%T:%v", y, y))
}
