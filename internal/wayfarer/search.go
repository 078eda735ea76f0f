package wayfarer

import (
	"context"
)

// ColumnType is the wire type of a search column (contract §2.3).
type ColumnType int

const (
	ColLong ColumnType = iota
	ColInt
	ColShort
	ColString
	ColBool
	ColDate           // "2006-01-02"
	ColDateTimeOffset // RFC 3339, UTC
)

// ColumnGroup is the record group a column comes from. Columns of the card,
// tag and action-item groups are joined: asking for one gives a row per
// person and child.
type ColumnGroup int

const (
	GroupPerson ColumnGroup = iota
	GroupCard
	GroupTag
	GroupActionItem
)

// SearchColumn is one column of the person search (contract §2.3).
type SearchColumn struct {
	Name   string
	Type   ColumnType
	Size   int // maximum length of a string column; 0 when none is given
	Group  ColumnGroup
	Lookup bool // a name looked up in another table; skipLookup leaves it out
	// Default: a search without includeCols answers the column (flat
	// searches; the person search lists its defaults in their own order).
	Default bool
	// Extended is the definition of an includeColsExtended column; nil
	// for the catalog's columns.
	Extended *ExtendedColumn
}

// SearchColumns is the column catalog in contract order.
var SearchColumns = []SearchColumn{
	{Name: "recNo", Type: ColLong},
	{Name: "tagRecNo", Type: ColLong, Group: GroupTag},
	{Name: "tagName", Type: ColString, Size: 64, Group: GroupTag},
	{Name: "tagValue", Type: ColString, Size: 1024, Group: GroupTag},
	{Name: "tags", Type: ColString},
	{Name: "summaryCount", Type: ColInt},
	{Name: "createDateTime", Type: ColDateTimeOffset},
	{Name: "lastModifiedDateTime", Type: ColDateTimeOffset},
	{Name: "name", Type: ColString, Size: 256},
	{Name: "uniqueId", Type: ColString, Size: 64},
	{Name: "firstName", Type: ColString, Size: 64},
	{Name: "middleName", Type: ColString, Size: 64},
	{Name: "lastName", Type: ColString, Size: 64},
	{Name: "primaryPhone", Type: ColString, Size: 256},
	{Name: "primaryPhoneMarketingPermission", Type: ColBool},
	{Name: "primaryEmail", Type: ColString, Size: 256},
	{Name: "primaryEmailMarketingPermission", Type: ColBool},
	{Name: "birthdayDay", Type: ColShort},
	{Name: "birthdayMonth", Type: ColShort},
	{Name: "birthdayYear", Type: ColShort},
	{Name: "birthdayNote", Type: ColString, Size: 256},
	{Name: "remarks", Type: ColString, Size: 256},
	{Name: "cardType", Type: ColShort, Group: GroupCard},
	{Name: "cardSubType", Type: ColShort, Group: GroupCard},
	{Name: "cardNumber", Type: ColString, Size: 64, Group: GroupCard},
	{Name: "cardExpDate", Type: ColDate, Group: GroupCard},
	{Name: "cardDescription", Type: ColString, Size: 512, Group: GroupCard},
	{Name: "cardRecNo", Type: ColLong, Group: GroupCard},
	{Name: "nameOnCard", Type: ColString, Size: 64, Group: GroupCard},
	{Name: "branchRecNo", Type: ColLong},
	{Name: "branchRecName", Type: ColString, Size: 64, Lookup: true},
	{Name: "advisorProfileRecNo", Type: ColLong},
	{Name: "advisorProfileName", Type: ColString, Size: 256, Lookup: true},
	{Name: "activeStatus", Type: ColShort},
	{Name: "actionRecNo", Type: ColLong, Group: GroupActionItem},
	{Name: "actionItemTriggerIndex", Type: ColShort, Group: GroupActionItem},
	{Name: "actionItemDate", Type: ColDate, Group: GroupActionItem},
	{Name: "actionItemTriggerFixedDate", Type: ColDate, Group: GroupActionItem},
	{Name: "actionItemDescription", Type: ColString, Group: GroupActionItem},
	{Name: "actionItemCompleted", Type: ColDateTimeOffset, Group: GroupActionItem},
	{Name: "actionItemAssignedToAppUserRecNo", Type: ColLong, Group: GroupActionItem},
	{Name: "actionItemAssignedToAppUserId", Type: ColString, Size: 64, Group: GroupActionItem, Lookup: true},
	{Name: "associatedProfileNames", Type: ColString},
}

// DefaultSearchColumns are returned when a search has no includeCols.
var DefaultSearchColumns = []string{"recNo", "name", "firstName", "lastName", "primaryEmail", "primaryPhone", "activeStatus"}

// PersonSearchCatalog is the person search's catalog.
var PersonSearchCatalog = NewSearchCatalog("person", MethodPersonSearch, []Area{AreaPerson}, SearchColumns, DefaultSearchColumns...)

// LookupSearchColumn finds a person search column by name, case-insensitively.
func LookupSearchColumn(name string) (SearchColumn, bool) { return PersonSearchCatalog.Lookup(name) }

// SearchRow holds the values of one result row, aligned with
// SearchResult.Columns. A nil value is a null and is left out of the JSON
// row. Values are int64, string, bool, or time.Time (ColDateTimeOffset);
// ColDate values are strings "2006-01-02".
type SearchRow []any

// SearchResult is a page of the person search.
type SearchResult struct {
	Columns []SearchColumn
	Rows    []SearchRow
	// Total is the number of rows before paging (summaryCount); -1 when
	// summaryCount was not asked for and the count was skipped.
	Total int64
	// Continuation, when not "", starts the next page of the same search
	// (search_continuation.go): the page was full.
	Continuation string
}

// SearchStore runs a person search. Implementations apply the scope in SQL
// and never return a row outside it.
type SearchStore interface {
	SearchPersons(ctx context.Context, scope Scope, c *SearchCriteria) (*SearchResult, error)
}

// SearchService is the person search use case.
type SearchService struct {
	Store SearchStore
	// MaxRows bounds the rows of one answer (0: no bound). A search
	// holds its whole answer in memory before writing it, so without a bound
	// one request for every person of a large agency could take hundreds of
	// megabytes; clients page with rowCount instead.
	MaxRows int64
}

// Authorize checks that sess may search (Select), and for a CSV report
// also export (Export). A handler calls it before it reads the parameters:
// a caller who may not search learns nothing about them.
func (s *SearchService) Authorize(sess *Session, report bool) error {
	if err := sess.Require(AreaPerson, PermSelect, MethodPersonSearch); err != nil {
		return err
	}
	// A CSV report takes the list out of the application: an export.
	if report {
		return sess.Require(AreaPerson, PermExport, MethodPersonSearch)
	}
	return nil
}

// Search runs a search with its permissions checked (Authorize).
func (s *SearchService) Search(ctx context.Context, sess *Session, c *SearchCriteria) (*SearchResult, error) {
	if err := s.Authorize(sess, c.ReportFormat); err != nil {
		return nil, err
	}
	if err := CheckSearchLimits(c); err != nil {
		return nil, err
	}
	if err := checkContinuation(c); err != nil {
		return nil, err
	}
	if c.PersonActivity != nil {
		// The filter tells which persons have which activities: it takes
		// the right to search activities, within the caller's reach there.
		if err := sess.Require(AreaActivity, PermSelect, MethodPersonSearch); err != nil {
			return nil, err
		}
		if err := CheckFlatLimits(c.PersonActivity); err != nil {
			return nil, err
		}
		c.ActivityScope = sess.ActivityReach()
	}
	res, err := boundedSearch(&c.BaseCriteria, s.MaxRows, func() (*SearchResult, error) {
		return s.Store.SearchPersons(ctx, sess.Scope(AreaPerson), c)
	})
	return res, searchTimeout(err)
}

// searchTimeout rewords a query timeout for a search: unlike a save, a
// search that took too long will take as long again, so the client is
// asked to narrow it rather than to try again.
func searchTimeout(err error) error {
	return rewordTimeout(err, MethodPersonSearch, "The search took longer than the %s limit; narrow it")
}
