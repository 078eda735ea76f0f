package client

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// Column is a column of the person search (contract §2.3).
type Column string

const (
	ColRecNo                            Column = "recNo"
	ColTagRecNo                         Column = "tagRecNo"
	ColTagName                          Column = "tagName"
	ColTagValue                         Column = "tagValue"
	ColTags                             Column = "tags"
	ColSummaryCount                     Column = "summaryCount"
	ColCreateDateTime                   Column = "createDateTime"
	ColLastModifiedDateTime             Column = "lastModifiedDateTime"
	ColName                             Column = "name"
	ColUniqueID                         Column = "uniqueId"
	ColFirstName                        Column = "firstName"
	ColMiddleName                       Column = "middleName"
	ColLastName                         Column = "lastName"
	ColPrimaryPhone                     Column = "primaryPhone"
	ColPrimaryPhoneMarketingPermission  Column = "primaryPhoneMarketingPermission"
	ColPrimaryEmail                     Column = "primaryEmail"
	ColPrimaryEmailMarketingPermission  Column = "primaryEmailMarketingPermission"
	ColBirthdayDay                      Column = "birthdayDay"
	ColBirthdayMonth                    Column = "birthdayMonth"
	ColBirthdayYear                     Column = "birthdayYear"
	ColBirthdayNote                     Column = "birthdayNote"
	ColRemarks                          Column = "remarks"
	ColCardType                         Column = "cardType"
	ColCardSubType                      Column = "cardSubType"
	ColCardNumber                       Column = "cardNumber"
	ColCardExpDate                      Column = "cardExpDate"
	ColCardDescription                  Column = "cardDescription"
	ColCardRecNo                        Column = "cardRecNo"
	ColNameOnCard                       Column = "nameOnCard"
	ColBranchRecNo                      Column = "branchRecNo"
	ColBranchRecName                    Column = "branchRecName"
	ColAdvisorProfileRecNo              Column = "advisorProfileRecNo"
	ColAdvisorProfileName               Column = "advisorProfileName"
	ColActiveStatus                     Column = "activeStatus"
	ColActionRecNo                      Column = "actionRecNo"
	ColActionItemTriggerIndex           Column = "actionItemTriggerIndex"
	ColActionItemDate                   Column = "actionItemDate"
	ColActionItemTriggerFixedDate       Column = "actionItemTriggerFixedDate"
	ColActionItemDescription            Column = "actionItemDescription"
	ColActionItemCompleted              Column = "actionItemCompleted"
	ColActionItemAssignedToAppUserRecNo Column = "actionItemAssignedToAppUserRecNo"
	ColActionItemAssignedToAppUserID    Column = "actionItemAssignedToAppUserId"
	ColAssociatedProfileNames           Column = "associatedProfileNames"
)

var columns = []Column{
	ColRecNo, ColTagRecNo, ColTagName, ColTagValue, ColTags, ColSummaryCount, ColCreateDateTime,
	ColLastModifiedDateTime, ColName, ColUniqueID, ColFirstName, ColMiddleName, ColLastName,
	ColPrimaryPhone, ColPrimaryPhoneMarketingPermission, ColPrimaryEmail, ColPrimaryEmailMarketingPermission,
	ColBirthdayDay, ColBirthdayMonth, ColBirthdayYear, ColBirthdayNote, ColRemarks, ColCardType,
	ColCardSubType, ColCardNumber, ColCardExpDate, ColCardDescription, ColCardRecNo, ColNameOnCard,
	ColBranchRecNo, ColBranchRecName, ColAdvisorProfileRecNo, ColAdvisorProfileName, ColActiveStatus,
	ColActionRecNo, ColActionItemTriggerIndex, ColActionItemDate, ColActionItemTriggerFixedDate,
	ColActionItemDescription, ColActionItemCompleted, ColActionItemAssignedToAppUserRecNo,
	ColActionItemAssignedToAppUserID, ColAssociatedProfileNames,
}

// Columns lists every search column in contract order.
func Columns() []Column { return slices.Clone(columns) }

// ParseColumn finds a column by name, ignoring case.
func ParseColumn(name string) (Column, error) {
	for _, c := range columns {
		if strings.EqualFold(string(c), strings.TrimSpace(name)) {
			return c, nil
		}
	}
	return "", fmt.Errorf("unknown search column %q", name)
}

// Condition is a compareCondition. String parameters take all of them;
// number parameters take Equal, NotEqual, Blank and NotBlank. With several
// values the positive conditions match any value, the negative ones none.
type Condition int

const (
	Equal           Condition = 1
	NotEqual        Condition = 2
	Blank           Condition = 3 // null or empty; takes no value
	NotBlank        Condition = 4 // takes no value
	StartingWith    Condition = 5
	Contains        Condition = 6
	In              Condition = 7 // a value may also hold a comma-separated list
	NotIn           Condition = 8
	NotStartingWith Condition = 9
	NotContaining   Condition = 10
)

var conditionNames = map[Condition]string{
	Equal: "equal", NotEqual: "not-equal", Blank: "blank", NotBlank: "not-blank", StartingWith: "starts",
	Contains: "contains", In: "in", NotIn: "not-in", NotStartingWith: "not-starts", NotContaining: "not-contains",
}

func (c Condition) String() string {
	if n, ok := conditionNames[c]; ok {
		return n
	}
	return fmt.Sprintf("condition(%d)", int(c))
}

// ParseCondition reads a condition's name as String writes it ("starts",
// "contains", "equal", "not-in", ...).
func ParseCondition(s string) (Condition, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	for c, n := range conditionNames {
		if n == s {
			return c, nil
		}
	}
	names := slices.Sorted(maps.Values(conditionNames))
	return 0, fmt.Errorf("unknown condition %q (one of %s)", s, strings.Join(names, ", "))
}

func (c Condition) needsValues() bool { return c != Blank && c != NotBlank }

// Query is a person search built step by step:
//
//	q := client.Search().LastName(client.StartingWith, "Abl").Columns(client.ColRecNo, client.ColName).Page(0, 50)
//
// A mistake (a condition a parameter does not take, a missing value) is
// kept and returned when the query runs.
type Query struct {
	req   contract.PersonSearchRequest
	extra map[string]any // Param: parameters without a method of their own
	err   error
}

// Search starts a query. Without Columns the server's default columns are
// returned.
func Search() *Query { return &Query{} }

func (q *Query) fail(format string, args ...any) *Query {
	if q.err == nil {
		q.err = fmt.Errorf("client: search: "+format, args...)
	}
	return q
}

func (q *Query) str(field **contract.StringSearchParam, name string, cond Condition, values []string) *Query {
	switch {
	case cond < Equal || cond > NotContaining:
		return q.fail("%s: unknown condition %d", name, int(cond))
	case cond.needsValues() && len(values) == 0:
		return q.fail("%s: condition %s needs a value", name, cond)
	}
	*field = contract.NewStringSearchParam(int(cond), values...)
	return q
}

func (q *Query) num(field **contract.NumSearchParam, name string, cond Condition, values []int64) *Query {
	switch {
	case cond < Equal || cond > NotBlank:
		return q.fail("%s: a number parameter takes equal, not-equal, blank or not-blank, not %s", name, cond)
	case cond.needsValues() && len(values) == 0:
		return q.fail("%s: condition %s needs a value", name, cond)
	}
	*field = contract.NewNumSearchParam(int(cond), values...)
	return q
}

// FirstName, MiddleName and LastName filter by name.
func (q *Query) FirstName(cond Condition, values ...string) *Query {
	return q.str(&q.req.FirstName, "firstName", cond, values)
}
func (q *Query) MiddleName(cond Condition, values ...string) *Query {
	return q.str(&q.req.MiddleName, "middleName", cond, values)
}
func (q *Query) LastName(cond Condition, values ...string) *Query {
	return q.str(&q.req.LastName, "lastName", cond, values)
}

// UniqueID finds the person with this unique id.
func (q *Query) UniqueID(id string) *Query { q.req.UniqueID = &id; return q }

// CommValue filters by the value of any communication (phone, email, ...).
func (q *Query) CommValue(cond Condition, values ...string) *Query {
	return q.str(&q.req.CommValue, "commValue", cond, values)
}

// Email and Phone filter by an email address or phone number of the
// person. Both use commValue, so a query holds one of them.
func (q *Query) Email(cond Condition, values ...string) *Query {
	return q.comm(CommEmail, cond, values)
}
func (q *Query) Phone(cond Condition, values ...string) *Query {
	return q.comm(CommPhone, cond, values)
}

func (q *Query) comm(t CommType, cond Condition, values []string) *Query {
	if prev := q.req.CommType; len(prev) > 0 && (len(prev) != 1 || prev[0] != int16(t)) {
		return q.fail("email and phone criteria cannot be combined: both filter commValue")
	}
	q.req.CommType = []int16{int16(t)}
	return q.str(&q.req.CommValue, "commValue", cond, values)
}

// RecNo filters by record number.
func (q *Query) RecNo(cond Condition, recNos ...int64) *Query {
	return q.num(&q.req.RecNo, "recNo", cond, recNos)
}

// AdvisorProfile filters by the person's advisor profile.
func (q *Query) AdvisorProfile(cond Condition, recNos ...int64) *Query {
	return q.num(&q.req.AdvisorProfileRecNo, "AdvisorProfileRecNo", cond, recNos)
}

// BirthdayMonth filters by birthday month (1-12).
func (q *Query) BirthdayMonth(cond Condition, months ...int64) *Query {
	return q.num(&q.req.BirthdayMonth, "birthdayMonth", cond, months)
}

// ActiveStatus keeps persons with any of the statuses.
func (q *Query) ActiveStatus(statuses ...ActiveStatus) *Query {
	q.req.ActiveStatus = nil
	for _, s := range statuses {
		q.req.ActiveStatus = append(q.req.ActiveStatus, int16(s))
	}
	return q
}

// CardType keeps persons with a card of any of the types.
func (q *Query) CardType(types ...CardType) *Query {
	q.req.CardType = nil
	for _, t := range types {
		q.req.CardType = append(q.req.CardType, int16(t))
	}
	return q
}

// Tag keeps persons having a tag of the tag definition recNo; with a
// condition, only tags whose value passes it.
func (q *Query) Tag(recNo int64, cond Condition, values ...string) *Query {
	t := &contract.TagsSearchParams{RecNo: &recNo}
	if cond != 0 && q.str(&t.Value, "tags.value", cond, values).err != nil {
		return q
	}
	q.req.Tags = append(q.req.Tags, t)
	return q
}

// CreatedBetween and ModifiedBetween bound the person's timestamps, both
// ends included; a zero time is an open end.
func (q *Query) CreatedBetween(from, to time.Time) *Query {
	q.req.CreateDateTimeFrom, q.req.CreateDateTimeTo = dateTimeBound(from), dateTimeBound(to)
	return q
}
func (q *Query) ModifiedBetween(from, to time.Time) *Query {
	q.req.ModifiedDateTimeFrom, q.req.ModifiedDateTimeTo = dateTimeBound(from), dateTimeBound(to)
	return q
}

func dateTimeBound(t time.Time) *contract.DateTimeUTCSearchParam {
	if t.IsZero() {
		return nil
	}
	s := t.UTC().Format(time.RFC3339Nano)
	return &contract.DateTimeUTCSearchParam{DateTime: &s}
}

// CardExpiringBetween keeps persons with a card expiring in the range, both
// ends included; a zero Date is an open end.
func (q *Query) CardExpiringBetween(from, to Date) *Query {
	q.req.CardExpirationDateFrom, q.req.CardExpirationDateTo = dateBound(from), dateBound(to)
	return q
}

func dateBound(d Date) *contract.DateSearchParam {
	if d == (Date{}) {
		return nil
	}
	s := d.String()
	return &contract.DateSearchParam{Date: &s}
}

// Param sets any other search parameter of contract §2.4 as its JSON value;
// it takes precedence over what the other methods set under that name.
func (q *Query) Param(name string, value any) *Query {
	if q.extra == nil {
		q.extra = map[string]any{}
	}
	q.extra[name] = value
	return q
}

// Columns chooses the columns of the rows.
func (q *Query) Columns(cols ...Column) *Query {
	for _, c := range cols {
		if _, err := ParseColumn(string(c)); err != nil {
			return q.fail("%v", err)
		}
		if !slices.Contains(q.req.IncludeCols, string(c)) {
			q.req.IncludeCols = append(q.req.IncludeCols, string(c))
		}
	}
	return q
}

// WithCount asks for the number of matching rows (Page.Total).
func (q *Query) WithCount() *Query { return q.Columns(ColSummaryCount) }

// Page asks for rowCount rows from startingRow (0-based).
func (q *Query) Page(startingRow, rowCount int64) *Query {
	if startingRow < 0 || rowCount < 0 {
		return q.fail("page bounds must not be negative")
	}
	q.req.StartingRow, q.req.RowCount = &startingRow, &rowCount
	return q
}

// Top caps the whole result at n rows.
func (q *Query) Top(n int64) *Query {
	if n < 0 {
		return q.fail("top must not be negative")
	}
	q.req.TopRows = &n
	return q
}

// Distinct leaves out duplicate rows; SkipLookup leaves out looked-up
// names; ReadOnlyIntent lets the server answer from a replica.
func (q *Query) Distinct() *Query       { q.req.Distinct = ptrTrue(); return q }
func (q *Query) SkipLookup() *Query     { q.req.SkipLookup = ptrTrue(); return q }
func (q *Query) ReadOnlyIntent() *Query { q.req.ReadOnlyIntent = ptrTrue(); return q }

func ptrTrue() *bool { t := true; return &t }

// Err is the first mistake made while building the query.
func (q *Query) Err() error { return q.err }

func (q *Query) clone() *Query {
	c := *q
	c.req.IncludeCols = slices.Clone(q.req.IncludeCols)
	c.extra = maps.Clone(q.extra)
	return &c
}

func (q *Query) hasColumn(c Column) bool { return slices.Contains(q.req.IncludeCols, string(c)) }

// MarshalJSON is the personSearch body.
func (q *Query) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(q.req)
	if err != nil || len(q.extra) == 0 {
		return b, err
	}
	m := map[string]any{}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	maps.Copy(m, q.extra)
	return json.Marshal(m)
}

// Row is one result row: the requested columns that are not null.
type Row map[Column]json.RawMessage

// Has reports whether the row holds a non-null value for col.
func (r Row) Has(col Column) bool {
	v, ok := r[col]
	return ok && string(v) != "null"
}

// Int, String, Bool, Time and Date read a value; false when it is null,
// missing or of another type.
func (r Row) Int(col Column) (int64, bool) { return rowValue[int64](r, col) }
func (r Row) String(col Column) (string, bool) {
	return rowValue[string](r, col)
}
func (r Row) Bool(col Column) (bool, bool)      { return rowValue[bool](r, col) }
func (r Row) Time(col Column) (time.Time, bool) { return rowValue[time.Time](r, col) }
func (r Row) Date(col Column) (Date, bool)      { return rowValue[Date](r, col) }

func rowValue[T any](r Row, col Column) (T, bool) {
	var v T
	if !r.Has(col) {
		return v, false
	}
	return v, json.Unmarshal(r[col], &v) == nil
}

// RecNo is the row's person record number (0 without the recNo column).
func (r Row) RecNo() int64 { v, _ := r.Int(ColRecNo); return v }

// Text is a value as plain text: strings unquoted, null as "".
func (r Row) Text(col Column) string {
	if !r.Has(col) {
		return ""
	}
	if s, ok := r.String(col); ok {
		return s
	}
	return string(r[col])
}

// Page is one page of search results.
type Page struct {
	Rows []Row
	// Total is the number of rows the search matches before paging, with
	// WithCount; otherwise -1.
	Total int64
}

// Search runs a query (POST /personSearch) and returns one page.
func (c *Client) Search(ctx context.Context, q *Query) (*Page, error) {
	if q == nil {
		q = Search()
	}
	if q.err != nil {
		return nil, q.err
	}
	rows, err := c.lookupSearch(ctx, "/personSearch", q)
	if err != nil {
		return nil, err
	}
	p := &Page{Rows: rows, Total: -1}
	if q.hasColumn(ColSummaryCount) {
		switch {
		case len(rows) > 0:
			p.Total, _ = rows[0].Int(ColSummaryCount)
		case deref(q.req.StartingRow) == 0:
			p.Total = 0
		}
	}
	return p, nil
}

// DefaultPageSize is the page size of SearchAll when the query sets none.
const DefaultPageSize = 500

// SearchAll runs a query page by page from its starting row and yields every
// row; it stops at the first error, which it yields. The query's page size
// (Page) is used per request, DefaultPageSize without one. Rows changed
// between pages may be seen twice or not at all.
func (c *Client) SearchAll(ctx context.Context, q *Query) iter.Seq2[Row, error] {
	return func(yield func(Row, error) bool) {
		if q == nil {
			q = Search()
		}
		q = q.clone()
		size := deref(q.req.RowCount)
		if size == 0 {
			size = DefaultPageSize
		}
		start := deref(q.req.StartingRow)
		for {
			q.req.StartingRow, q.req.RowCount = &start, &size
			page, err := c.Search(ctx, q)
			if err != nil {
				yield(nil, err)
				return
			}
			for _, r := range page.Rows {
				if !yield(r, nil) {
					return
				}
			}
			if int64(len(page.Rows)) < size {
				return
			}
			start += size
		}
	}
}
