package wayfarer

import (
	"context"
	"strings"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// ActivityCriteria is a decoded activitySearch request, and the activity
// parameters of a person search (personActivitySearchParams), whose paging
// and columns are the person search's. All filters combine with AND.
type ActivityCriteria struct {
	Columns     []SearchColumn
	DefaultCols bool
	StartingRow int64
	RowCount    int64 // 0: no page limit
	TopRows     int64 // 0: no cap

	ReportFormat bool
	ReportName   string

	RecNo          NumParam
	AppUserRecNo   NumParam
	Type           NumParam
	PersonRecNo    NumParam
	Subject        StringParam
	TargetDate     DateRange
	TargetDateTime TimeRange
	Created        TimeRange
	Modified       TimeRange
	// Completed: true has a completionDateTime, false has none.
	Completed *bool
	Tags      []TagParam
}

// Filters reports whether any filter is set (as personActivitySearchParams,
// an empty one still asks for persons having some activity in reach).
func (c *ActivityCriteria) Filters() bool {
	return c.RecNo.Active() || c.AppUserRecNo.Active() || c.Type.Active() || c.PersonRecNo.Active() ||
		c.Subject.Active() || c.TargetDate.Active() || c.TargetDateTime.Active() || c.Created.Active() ||
		c.Modified.Active() || c.Completed != nil || len(c.Tags) > 0
}

// HasColumn reports whether the column is requested.
func (c *ActivityCriteria) HasColumn(name string) bool {
	for _, col := range c.Columns {
		if col.Name == name {
			return true
		}
	}
	return false
}

// ActivitySearchColumns are the columns of the devportal's ActivitySearch
// that Wayfarer serves, in its order. Wayfarer links activities to persons
// only: the client profile, supplier profile and trip columns are always
// null (and so left out of the rows).
var ActivitySearchColumns = []SearchColumn{
	{Name: "recNo", Type: ColLong},
	{Name: "tags", Type: ColString},
	{Name: "summaryCount", Type: ColInt},
	{Name: "createDateTime", Type: ColDateTimeOffset},
	{Name: "lastModifiedDateTime", Type: ColDateTimeOffset},
	{Name: "type", Type: ColShort},
	{Name: "appUser_recNo", Type: ColLong},
	{Name: "appUserId", Type: ColString, Size: 64, Lookup: true},
	{Name: "subject", Type: ColString, Size: 64},
	{Name: "priority", Type: ColShort},
	{Name: "targetDateTime", Type: ColDateTimeOffset},
	{Name: "targetDate", Type: ColDate},
	{Name: "completionDateTime", Type: ColDateTimeOffset},
	{Name: "clientProfileRecNo", Type: ColLong},
	{Name: "clientProfileName", Type: ColString, Size: 256, Lookup: true},
	{Name: "supplierProfileRecNo", Type: ColLong},
	{Name: "supplierProfileName", Type: ColString, Size: 256, Lookup: true},
	{Name: "personRecNo", Type: ColLong},
	{Name: "personName", Type: ColString, Size: 256, Lookup: true},
	{Name: "tripRecNo", Type: ColLong},
	{Name: "tripName", Type: ColString, Size: 256, Lookup: true},
	{Name: "remarks", Type: ColString},
}

// unservedActivityColumns are columns of the devportal that Wayfarer does
// not serve yet: a row per tag, and promos. Asking for one is 408.
var unservedActivityColumns = []string{"tagRecNo", "tagName", "tagValue", "promoId"}

// DefaultActivityColumns are the columns of a search without includeCols:
// those the reference's recorded answers hold.
var DefaultActivityColumns = []string{"recNo", "type", "appUser_recNo", "appUserId", "subject", "priority",
	"targetDateTime", "targetDate", "completionDateTime", "clientProfileRecNo", "clientProfileName",
	"supplierProfileRecNo", "supplierProfileName", "personRecNo", "personName", "tripRecNo", "tripName", "remarks"}

// NewActivitySearchColumns resolves includeCols of an activity search as
// NewSearchColumns does for persons.
func NewActivitySearchColumns(names []string) (cols []SearchColumn, dflt bool, err error) {
	find := func(name string) (SearchColumn, bool) {
		for _, c := range ActivitySearchColumns {
			if strings.EqualFold(c.Name, name) {
				return c, true
			}
		}
		return SearchColumn{}, false
	}
	seen := map[string]bool{}
	for _, name := range names {
		name = strings.TrimSpace(name)
		col, found := find(name)
		if !found {
			for _, u := range unservedActivityColumns {
				if strings.EqualFold(u, name) {
					return nil, false, Errorf(KindInvalid, contract.CodeNotSupported, MethodParam, "includeCols: column %s is not yet supported by Wayfarer", u)
				}
			}
			if ContainsCardNumber(name) {
				name = "(withheld: looks like a card number)"
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
	for _, n := range DefaultActivityColumns {
		col, _ := find(n)
		cols = append(cols, col)
	}
	return cols, true, nil
}

// CheckActivitySearchLimits applies the person search's limits
// (search_limits.go) to an activity search's filters.
func CheckActivitySearchLimits(c *ActivityCriteria, path string) error {
	if len(c.Tags) > MaxSearchFilterEntries {
		return searchValueError(joinPath(path, "tags"), "%d tag filters are more than the %d one search takes; narrow the search or split it into several",
			len(c.Tags), MaxSearchFilterEntries)
	}
	total := 0
	count := func(name string, n int) error {
		total += n
		if n > MaxSearchFilterValues {
			return searchValueError(joinPath(path, name), "%d values are more than the %d one filter compares; split the search into several", n, MaxSearchFilterValues)
		}
		return nil
	}
	checks := []error{
		count("recNo.value", len(c.RecNo.Values)), count("appUserRecNo.value", len(c.AppUserRecNo.Values)),
		count("type.value", len(c.Type.Values)), count("personRecNo.value", len(c.PersonRecNo.Values)),
		count("subject.value", len(c.Subject.Values)),
	}
	for i, t := range c.Tags {
		checks = append(checks, count(indexPath("tags", i)+".value.value", len(t.Value.Values)))
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	if total > MaxSearchValues {
		return searchValueError(path, "%d values are more than the %d one search compares; split the search into several", total, MaxSearchValues)
	}
	return nil
}

// Authorize checks that sess may search activities (Select), and for a CSV
// report also export them (Export), before the parameters are read.
func (s *ActivityService) Authorize(sess *Session, report bool) error {
	if err := sess.Require(AreaActivity, PermSelect, MethodActivitySearch); err != nil {
		return err
	}
	if report {
		return sess.Require(AreaActivity, PermExport, MethodActivitySearch)
	}
	return nil
}

// Search runs an activity search within the caller's reach.
func (s *ActivityService) Search(ctx context.Context, sess *Session, c *ActivityCriteria) (*SearchResult, error) {
	if err := s.Authorize(sess, c.ReportFormat); err != nil {
		return nil, err
	}
	if err := CheckActivitySearchLimits(c, ""); err != nil {
		return nil, err
	}
	if s.MaxRows > 0 && c.RowCount > s.MaxRows {
		return nil, searchValueError("rowCount", "rowCount %d is more than the %d rows a search answers at most; ask for pages of at most %d",
			c.RowCount, s.MaxRows, s.MaxRows)
	}
	unbounded := s.MaxRows > 0 && c.RowCount == 0 && (c.TopRows <= 0 || c.TopRows-c.StartingRow > s.MaxRows)
	if unbounded {
		c.RowCount = s.MaxRows + 1
		defer func() { c.RowCount = 0 }()
	}
	res, err := s.Store.SearchActivities(ctx, sess.ActivityScope(), c)
	if err != nil {
		return nil, rewordTimeout(err, MethodActivitySearch, "The search took longer than the %s limit; narrow it")
	}
	if unbounded && int64(len(res.Rows)) > s.MaxRows {
		return nil, searchValueError("rowCount", "the search answers more than %d rows, the most one answer holds; "+
			"ask for pages with rowCount (at most %d) and startingRow, or narrow the search", s.MaxRows, s.MaxRows)
	}
	return res, nil
}
