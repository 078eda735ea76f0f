package wayfarer

import (
	"context"
	"fmt"
	"strings"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// The search kit: what every search of the reference shares, for searches
// over one flat table (branches, profiles, app users, tags, activities).
// A new search is
//
//   - a SearchCatalog (its columns, their JSON types and sizes, which are
//     default, its permission areas and method name), in the core;
//   - a converter in internal/wire that reads the inherited parameters with
//     converter.base and each own parameter into a SearchFilter keyed by a
//     column (or a filter-only key) of the catalog;
//   - a table description in internal/sqlstore (flatTable: the table, the
//     SQL of each column and filter key, the scope hook, the order);
//   - a route through internal/http's serveFlatSearch.
//
// Results are SearchResults, written by the person search's encoders (JSON
// rows holding only the asked columns, CSV for reportFormat), and an empty
// page is 204 with no body. See docs/architecture.md.

// SearchCatalog is the columns one search offers, in the reference's order.
type SearchCatalog struct {
	// Name keys the search's table description in the store ("branch").
	Name string
	// Method names the search in errors ("branchSearch").
	Method string
	// Areas are the permission areas of the search: Select in any of them
	// lets a user search; the store's scope hook applies each area's reach.
	Areas   []Area
	Columns []SearchColumn
	// Defaults are the columns of a search without includeCols, in their
	// order; NewSearchCatalog fills them from the columns marked Default.
	Defaults []string
	index    map[string]SearchColumn
}

// NewSearchCatalog builds a catalog; its default columns are those marked
// Default, in catalog order, unless defaults names them.
func NewSearchCatalog(name, method string, areas []Area, cols []SearchColumn, defaults ...string) *SearchCatalog {
	c := &SearchCatalog{Name: name, Method: method, Areas: areas, Columns: cols, Defaults: defaults,
		index: make(map[string]SearchColumn, len(cols))}
	for _, col := range cols {
		c.index[strings.ToLower(col.Name)] = col
		if col.Default && len(defaults) == 0 {
			c.Defaults = append(c.Defaults, col.Name)
		}
	}
	return c
}

// Lookup finds a column by name, case-insensitively.
func (c *SearchCatalog) Lookup(name string) (SearchColumn, bool) {
	col, ok := c.index[strings.ToLower(name)]
	return col, ok
}

// Resolve reads includeCols (names case-insensitive, repeats counted once);
// without names, the default columns (dflt true). An unknown name is the
// reference's 400/405 "Invalid column: NAME", byte for byte.
func (c *SearchCatalog) Resolve(names []string) (cols []SearchColumn, dflt bool, err error) {
	seen := map[string]bool{}
	for _, name := range names {
		col, found := c.Lookup(strings.TrimSpace(name))
		if !found {
			if ContainsCardNumber(name) {
				name = "(withheld: looks like a card number)" // the reference echoes the name; never a card number
			}
			return nil, false, Errorf(KindInvalid, contract.CodeInvalidColumn, MethodParam, "Invalid column: %s", name)
		}
		if !seen[col.Name] {
			seen[col.Name] = true
			cols = append(cols, col)
		}
	}
	if len(cols) > 0 {
		return cols, false, nil
	}
	for _, n := range c.Defaults {
		col, _ := c.Lookup(n)
		cols = append(cols, col)
	}
	return cols, true, nil
}

// BaseCriteria are the parameters every reference search inherits
// (devportal: "[inherited]"), decoded.
type BaseCriteria struct {
	// Columns are the resolved includeCols (or the default set), without
	// duplicates, in request order.
	Columns     []SearchColumn
	DefaultCols bool

	RecNo          NumParam
	ReadOnlyIntent bool
	Distinct       bool
	StartingRow    int64
	RowCount       int64 // 0: no page limit
	TopRows        int64 // 0: no cap
	Created        TimeRange
	Modified       TimeRange

	BaseURL             string
	ReportFormat        bool
	ReportName          string
	QueryOptimizerFlags []int64
}

// HasColumn reports whether the column is requested.
func (b *BaseCriteria) HasColumn(name string) bool {
	for _, col := range b.Columns {
		if col.Name == name {
			return true
		}
	}
	return false
}

// SearchFilter is one parameter of a flat search, decoded: the catalog
// column (or filter-only key) it tests, and the one test it holds.
type SearchFilter struct {
	// Key is what the store's table description knows it by: a column
	// name of the catalog, or a key of its filter-only parameters.
	Key string
	// Path is the parameter as the contract spells it, for errors and logs.
	Path string
	Str  StringParam
	Num  NumParam
	In   []int64 // a short<short> list: the value is any of them
	Bool *bool
	Time TimeRange // a DateTimeUTCSearchParam range (…DateTimeFrom/To)
	Date DateRange // a DateSearchParam range (…DateFrom/To)
	// Size is the longest text value, in characters (0: no bound).
	Size int
}

// Active reports whether the filter tests anything.
func (f SearchFilter) Active() bool {
	return f.Str.Active() || f.Num.Active() || len(f.In) > 0 || f.Bool != nil || f.Time.Active() || f.Date.Active()
}

// FlatCriteria is a decoded flat search: the inherited parameters and the
// search's own filters, every active one applied (AND).
type FlatCriteria struct {
	BaseCriteria
	Filters []SearchFilter
}

// Add keeps an active filter; inactive ones (absent, Ignore) are dropped.
func (c *FlatCriteria) Add(f SearchFilter) {
	if f.Active() {
		c.Filters = append(c.Filters, f)
	}
}

// Filter returns the active filter of a key, if any.
func (c *FlatCriteria) Filter(key string) (SearchFilter, bool) {
	for _, f := range c.Filters {
		if f.Key == key {
			return f, true
		}
	}
	return SearchFilter{}, false
}

// SearchReach is a session's reach in an area, and whether it may search
// there at all (Select). The store's scope hooks call it per area.
type SearchReach func(Area) (Scope, bool)

// ReachOf is the reach of a session.
func ReachOf(sess *Session) SearchReach {
	return func(a Area) (Scope, bool) { return sess.Scope(a), sess.Can(a, PermSelect) }
}

// FlatSearchStore runs flat searches. Implementations filter by the
// agency and apply the reach in SQL, and never return a row outside it.
type FlatSearchStore interface {
	SearchFlat(ctx context.Context, cat *SearchCatalog, reach SearchReach, c *FlatCriteria) (*SearchResult, error)
}

// FlatSearchService is the use case of every flat search.
type FlatSearchService struct {
	Store FlatSearchStore
	// MaxRows bounds the rows of one answer, as SearchService.MaxRows.
	MaxRows int64
}

// Authorize checks that sess may search cat (Select in one of its areas),
// and for a CSV report also export (Export there). A handler calls it
// before it reads the parameters.
func (s *FlatSearchService) Authorize(sess *Session, cat *SearchCatalog, report bool) error {
	var exportErr error
	for _, a := range cat.Areas {
		if !sess.Can(a, PermSelect) {
			continue
		}
		if !report || sess.Can(a, PermExport) {
			return nil
		}
		// A CSV report takes the list out of the application: an export.
		exportErr = sess.Require(a, PermExport, cat.Method)
	}
	if exportErr != nil {
		return exportErr
	}
	return sess.Require(cat.Areas[0], PermSelect, cat.Method)
}

// Search runs a flat search with its permissions and limits checked.
func (s *FlatSearchService) Search(ctx context.Context, sess *Session, cat *SearchCatalog, c *FlatCriteria) (*SearchResult, error) {
	if err := s.Authorize(sess, cat, c.ReportFormat); err != nil {
		return nil, err
	}
	if err := CheckFlatLimits(c); err != nil {
		return nil, err
	}
	res, err := boundedSearch(&c.BaseCriteria, s.MaxRows, func() (*SearchResult, error) {
		return s.Store.SearchFlat(ctx, cat, ReachOf(sess), c)
	})
	return res, rewordTimeout(err, cat.Method, "The search took longer than the %s limit; narrow it")
}

// boundedSearch runs a search under maxRows (0: no bound): a rowCount
// above it is refused; without a page size (or with a topRows beyond the
// bound) it asks for one row more than the bound, and if that row comes
// the answer would be too long. run sees the criteria with that rowCount.
func boundedSearch(c *BaseCriteria, maxRows int64, run func() (*SearchResult, error)) (*SearchResult, error) {
	if maxRows <= 0 {
		return run()
	}
	if c.RowCount > maxRows {
		return nil, searchValueError("rowCount", "rowCount %d is more than the %d rows a search answers at most; ask for pages of at most %d",
			c.RowCount, maxRows, maxRows)
	}
	unbounded := c.RowCount == 0 && (c.TopRows <= 0 || c.TopRows-c.StartingRow > maxRows)
	if unbounded {
		c.RowCount = maxRows + 1
		defer func() { c.RowCount = 0 }()
	}
	res, err := run()
	if err != nil {
		return nil, err
	}
	if unbounded && int64(len(res.Rows)) > maxRows {
		return nil, searchValueError("rowCount", "the search answers more than %d rows, the most one answer holds; "+
			"ask for pages with rowCount (at most %d) and startingRow, or narrow the search", maxRows, maxRows)
	}
	return res, nil
}

// CheckFlatLimits refuses a flat search larger than the search limits
// (search_limits.go) with a 407 naming the parameter and the limit.
func CheckFlatLimits(c *FlatCriteria) error {
	var fs []filterValues
	for _, f := range c.Filters {
		switch {
		case len(f.Str.Values) > 0:
			fs = append(fs, filterValues{path: f.Path + ".value", param: f.Path, n: len(f.Str.Values), texts: f.Str.Values, size: f.Size})
		case len(f.Num.Values) > 0:
			fs = append(fs, filterValues{path: f.Path + ".value", param: f.Path, n: len(f.Num.Values)})
		case len(f.In) > 0:
			fs = append(fs, filterValues{path: f.Path, param: f.Path, n: len(f.In)})
		}
	}
	if len(c.RecNo.Values) > 0 {
		fs = append(fs, filterValues{path: "recNo.value", param: "recNo", n: len(c.RecNo.Values)})
	}
	if len(c.QueryOptimizerFlags) > 0 {
		fs = append(fs, filterValues{path: "queryOptimizerFlags", param: "queryOptimizerFlags", n: len(c.QueryOptimizerFlags)})
	}
	if err := checkFilterValues(fs); err != nil {
		return err
	}
	return checkBaseLimits(&c.BaseCriteria)
}

// Shape describes a flat search for a log line, as SearchCriteria.Shape:
// the parameters, their conditions and value counts, never a value.
func (c *FlatCriteria) Shape() string {
	var parts []string
	add := func(format string, args ...any) { parts = append(parts, fmt.Sprintf(format, args...)) }
	if c.RecNo.Active() {
		add("recNo:%s/%d", c.RecNo.Cond, len(c.RecNo.Values))
	}
	for _, f := range c.Filters {
		switch {
		case f.Str.Active():
			add("%s:%s/%d", f.Path, f.Str.Cond, len(f.Str.Values))
		case f.Num.Active():
			add("%s:%s/%d", f.Path, f.Num.Cond, len(f.Num.Values))
		case len(f.In) > 0:
			add("%s/%d", f.Path, len(f.In))
		default:
			add("%s", f.Path)
		}
	}
	add("columns:%d", len(c.Columns))
	for _, flag := range []struct {
		name string
		set  bool
	}{{"createDateTime", c.Created.Active()}, {"modifiedDateTime", c.Modified.Active()},
		{"summaryCount", c.HasColumn("summaryCount")}, {"distinct", c.Distinct}, {"startingRow", c.StartingRow > 0},
		{"rowCount", c.RowCount > 0}, {"topRows", c.TopRows > 0}, {"readOnlyIntent", c.ReadOnlyIntent}, {"reportFormat", c.ReportFormat}} {
		if flag.set {
			parts = append(parts, flag.name)
		}
	}
	return strings.Join(parts, " ")
}
