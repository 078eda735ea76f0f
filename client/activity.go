package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// Activity is an activity (a task, appointment, note or promo of an app
// user, optionally about one person) as the server shows it. A nil field is
// null: in a save it is left as stored (this SDK does not clear fields).
// AppUserID and the person link's lookups are read-only.
type Activity struct {
	RecNo              *int64              `json:"recNo,omitempty"`
	AppUserRecNo       *int64              `json:"appUser_recNo,omitempty"`
	AppUserID          *string             `json:"appUserId,omitempty"`
	Type               *int                `json:"type,omitempty"`
	SubType            *int                `json:"subType,omitempty"`
	Priority           *int                `json:"priority,omitempty"`
	TargetDateTime     *time.Time          `json:"targetDateTime,omitempty"`
	TargetDate         *Date               `json:"targetDate,omitempty"`
	Duration           *int                `json:"duration,omitempty"`
	CompletionDateTime *time.Time          `json:"completionDateTime,omitempty"`
	AlertDateTime      *time.Time          `json:"alertDateTime,omitempty"`
	AlertOffset        *int                `json:"alertOffset,omitempty"`
	Subject            *string             `json:"subject,omitempty"`
	Remarks            *string             `json:"remarks,omitempty"`
	Private            *bool               `json:"private,omitempty"`
	PersonLink         *ActivityPersonLink `json:"activityPersonLink,omitempty"`
	Tags               []ActivityTag       `json:"activityTag,omitempty"`
}

// ActivityPersonLink is the person an activity is about.
type ActivityPersonLink struct {
	PersonRecNo *int64  `json:"person_recNo,omitempty"`
	PersonName  *string `json:"personName_lookup,omitempty"`
	PersonPhone *string `json:"personPhone_lookup,omitempty"`
	PersonEmail *string `json:"personEmail_lookup,omitempty"`
}

// ActivityTag is a tag with a value on an activity.
type ActivityTag struct {
	RecNo    *int64  `json:"recNo,omitempty"`
	TagRecNo *int64  `json:"tag_recNo,omitempty"`
	Name     *string `json:"name,omitempty"`
	Value    *string `json:"value,omitempty"`
}

// NewActivity starts a new activity of a type (contract.ActivityType...)
// and priority (contract.ActivityPriority...), about a person (0: none).
func NewActivity(typ, priority int, subject string, personRecNo int64) *Activity {
	a := &Activity{Type: &typ, Priority: &priority, Subject: &subject}
	if personRecNo > 0 {
		a.PersonLink = &ActivityPersonLink{PersonRecNo: &personRecNo}
	}
	return a
}

// Clone is a deep copy, for an old/new save.
func (a *Activity) Clone() *Activity {
	b, _ := json.Marshal(a)
	var c Activity
	_ = json.Unmarshal(b, &c)
	return &c
}

// LoadActivity loads an activity (GET /activity/{recNo}); one that does
// not exist or is out of reach is an error for which IsNotFound is true.
func (c *Client) LoadActivity(ctx context.Context, recNo int64) (*Activity, error) {
	var as []*Activity
	a, err := c.call(ctx, http.MethodGet, "/activity/"+strconv.FormatInt(recNo, 10), nil, &as)
	if err != nil {
		return nil, err
	}
	if a.noContent() {
		return nil, &recordNotFound{"activity", recNo}
	}
	return oneActivity(as)
}

// CreateActivity creates an activity (POST /activity/refresh) and returns
// it as saved. Without AppUserRecNo it is the caller's.
func (c *Client) CreateActivity(ctx context.Context, a *Activity) (*Activity, error) {
	if a == nil || a.RecNo != nil {
		return nil, fmt.Errorf("client: a new activity has no recNo")
	}
	body, err := json.Marshal(a)
	if err != nil {
		return nil, err
	}
	return c.saveActivity(ctx, body)
}

// UpdateActivity loads an activity, lets edit change a copy and saves the
// difference as an old/new dataset. A save refused because someone else
// changed what it changes meanwhile is an error for which IsConflict is true.
func (c *Client) UpdateActivity(ctx context.Context, recNo int64, edit func(a *Activity) error) (*Activity, error) {
	old, err := c.LoadActivity(ctx, recNo)
	if err != nil {
		return nil, err
	}
	n := old.Clone()
	if err := edit(n); err != nil {
		return nil, err
	}
	return c.SaveActivity(ctx, old, n)
}

// SaveActivity sends old (as loaded) and n (the edited copy) as an
// old/new dataset; old nil is a create.
func (c *Client) SaveActivity(ctx context.Context, old, n *Activity) (*Activity, error) {
	if old == nil {
		return c.CreateActivity(ctx, n)
	}
	type dataset struct {
		OldData []*Activity `json:"oldData"`
		NewData []*Activity `json:"newData"`
	}
	body, err := json.Marshal(struct {
		OldNewDataset dataset `json:"oldNewDataset"`
	}{dataset{OldData: []*Activity{old}, NewData: []*Activity{n}}})
	if err != nil {
		return nil, err
	}
	return c.saveActivity(ctx, body)
}

func (c *Client) saveActivity(ctx context.Context, body []byte) (*Activity, error) {
	var as []*Activity
	if _, err := c.call(ctx, http.MethodPost, "/activity/refresh", body, &as); err != nil {
		return nil, err
	}
	return oneActivity(as)
}

func oneActivity(as []*Activity) (*Activity, error) {
	if len(as) != 1 || as[0] == nil {
		return nil, fmt.Errorf("wayfarer activity: expected one activity in the answer, got %d", len(as))
	}
	return as[0], nil
}

// ActivityQuery is an activity search (POST /activitySearch), or the
// activity filter of a person search (Query.HavingActivity), built step by
// step:
//
//	client.Activities().AppUser(2).Types(contract.ActivityTypeTask).Open().Due(from, to)
type ActivityQuery struct {
	req contract.ActivitySearchRequest
	err error
}

// Activities starts an activity query.
func Activities() *ActivityQuery { return &ActivityQuery{} }

func (q *ActivityQuery) fail(format string, args ...any) *ActivityQuery {
	if q.err == nil {
		q.err = fmt.Errorf("client: activity search: "+format, args...)
	}
	return q
}

// AppUser keeps the activities of these app users.
func (q *ActivityQuery) AppUser(recNos ...int64) *ActivityQuery {
	q.req.AppUserRecNo = contract.NewNumSearchParam(int(Equal), recNos...)
	return q
}

// Types keeps activities of these types (contract.ActivityType...).
func (q *ActivityQuery) Types(types ...int) *ActivityQuery {
	vs := make([]int64, len(types))
	for i, t := range types {
		vs[i] = int64(t)
	}
	q.req.Type = contract.NewNumSearchParam(int(Equal), vs...)
	return q
}

// Person keeps the activities about this person.
func (q *ActivityQuery) Person(recNo int64) *ActivityQuery {
	q.req.PersonRecNo = contract.NewNumSearchParam(int(Equal), recNo)
	return q
}

// Subject filters by subject.
func (q *ActivityQuery) Subject(cond Condition, values ...string) *ActivityQuery {
	if cond.needsValues() && len(values) == 0 {
		return q.fail("subject: %s needs a value", cond)
	}
	q.req.Subject = contract.NewStringSearchParam(int(cond), values...)
	return q
}

// Open keeps activities not completed; Completed the completed ones.
func (q *ActivityQuery) Open() *ActivityQuery      { f := false; q.req.Completed = &f; return q }
func (q *ActivityQuery) Completed() *ActivityQuery { t := true; q.req.Completed = &t; return q }

// Due keeps activities whose targetDate lies in [from, to] (a zero Date:
// open bound).
func (q *ActivityQuery) Due(from, to Date) *ActivityQuery {
	if from != (Date{}) {
		s := from.String()
		q.req.TargetDateFrom = &contract.DateSearchParam{Date: &s}
	}
	if to != (Date{}) {
		s := to.String()
		q.req.TargetDateTo = &contract.DateSearchParam{Date: &s}
	}
	return q
}

// Columns chooses the columns of the rows (the devportal's ActivitySearch
// columns: "recNo", "subject", "personName", ...).
func (q *ActivityQuery) Columns(cols ...string) *ActivityQuery {
	q.req.IncludeCols = append(q.req.IncludeCols, cols...)
	return q
}

// Page asks for rowCount rows from startingRow (0-based).
func (q *ActivityQuery) Page(startingRow, rowCount int64) *ActivityQuery {
	if startingRow < 0 || rowCount < 0 {
		return q.fail("page bounds must not be negative")
	}
	q.req.StartingRow, q.req.RowCount = &startingRow, &rowCount
	return q
}

// Err is the first mistake made while building the query.
func (q *ActivityQuery) Err() error { return q.err }

// MarshalJSON is the activitySearch body.
func (q *ActivityQuery) MarshalJSON() ([]byte, error) { return json.Marshal(q.req) }

// SearchActivities runs an activity search and returns one page (rows hold
// the requested columns; Row.RecNo is the activity's).
func (c *Client) SearchActivities(ctx context.Context, q *ActivityQuery) (*Page, error) {
	if q == nil {
		q = Activities()
	}
	if q.err != nil {
		return nil, q.err
	}
	rows, err := c.lookupSearch(ctx, "/activitySearch", q)
	if err != nil {
		return nil, err
	}
	return &Page{Rows: rows, Total: -1}, nil
}

// HavingActivity keeps the persons having at least one activity that a
// passes (personActivitySearchParams); only a's filters count.
func (q *Query) HavingActivity(a *ActivityQuery) *Query {
	if a.err != nil {
		return q.fail("%v", a.err)
	}
	if a.req.IncludeCols != nil || a.req.StartingRow != nil || a.req.RowCount != nil {
		return q.fail("personActivitySearchParams takes filters only, not columns or paging")
	}
	r := a.req
	q.req.PersonActivitySearchParams = &r
	return q
}
