package contract

// Search parameter shapes (contract §2.4 and the reference's devportal).
// Pointers are optional members: nil is absent or null. Elements of value
// arrays are pointers because clients (Jackson) send null elements, which
// the server skips.

// StringSearchParam filters a text field: {"value":["Abl"],"compareCondition":5}.
type StringSearchParam struct {
	Value            []*string `json:"value,omitempty"`
	CompareCondition *int      `json:"compareCondition,omitempty"`
}

// NumSearchParam filters a number field: {"value":[1825,1],"compareCondition":1}.
type NumSearchParam struct {
	Value            []*int64 `json:"value,omitempty"`
	CompareCondition *int     `json:"compareCondition,omitempty"`
}

// DateSearchParam bounds a date: {"date":"12/31/2001"} or {"date":"2001-12-31"}.
type DateSearchParam struct {
	Date *string `json:"date,omitempty"`
}

// DateTimeUTCSearchParam bounds an instant: {"dateTime":"2001-12-31T10:00:00Z"},
// or a whole day as a DateSearchParam.
type DateTimeUTCSearchParam struct {
	DateTime *string `json:"dateTime,omitempty"`
	Date     *string `json:"date,omitempty"`
}

// TagsSearchParams is an entry of the tags parameter: the person has
// (Checked true or absent) or has not a tag of definition RecNo whose value
// passes Value. TagRecNo is Wayfarer's earlier name for RecNo, still read;
// TagName and Checked are Wayfarer's additions.
type TagsSearchParams struct {
	RecNo    *int64             `json:"recNo,omitempty"`
	TagRecNo *int64             `json:"tagRecNo,omitempty"`
	TagName  *string            `json:"tagName,omitempty"`
	Value    *StringSearchParam `json:"value,omitempty"`
	Checked  *bool              `json:"checked,omitempty"`
}

// MarketingSearchParam is an entry of the marketing parameter: the person
// has (Checked true or absent) or has not a marketing mark matching every
// member given.
type MarketingSearchParam struct {
	Affiliation           *int16  `json:"affiliation,omitempty"`
	MarketingElementRecNo *int64  `json:"marketingElementRecNo,omitempty"`
	MarketingElementID    *string `json:"marketingElementId,omitempty"`
	Checked               *bool   `json:"checked,omitempty"`
}

// ExtendedColumn is an entry of includeColsExtended, Wayfarer's design
// (the reference does not publish one): {"type":"tag","recNo":12} adds the
// column "tag:12" holding the person's value of tag 12;
// {"type":"marketing","recNo":7} adds "marketing:7", true when the person
// is marked for marketing element 7.
type ExtendedColumn struct {
	Type  *string `json:"type,omitempty"`
	RecNo *int64  `json:"recNo,omitempty"`
}

// NewExtendedColumn builds an includeColsExtended entry.
func NewExtendedColumn(typ string, recNo int64) *ExtendedColumn {
	return &ExtendedColumn{Type: &typ, RecNo: &recNo}
}

// SearchBase holds the parameters every search of the reference inherits
// (the devportal's "[inherited]" rows, and readOnlyIntent): each search
// request embeds it.
type SearchBase struct {
	RecNo                *NumSearchParam         `json:"recNo,omitempty"`
	ReadOnlyIntent       *bool                   `json:"readOnlyIntent,omitempty"`
	StartingRow          *int64                  `json:"startingRow,omitempty"`
	RowCount             *int64                  `json:"rowCount,omitempty"`
	TopRows              *int64                  `json:"topRows,omitempty"`
	Distinct             *bool                   `json:"distinct,omitempty"`
	CreateDateTimeFrom   *DateTimeUTCSearchParam `json:"createDateTimeFrom,omitempty"`
	CreateDateTimeTo     *DateTimeUTCSearchParam `json:"createDateTimeTo,omitempty"`
	ModifiedDateTimeFrom *DateTimeUTCSearchParam `json:"modifiedDateTimeFrom,omitempty"`
	ModifiedDateTimeTo   *DateTimeUTCSearchParam `json:"modifiedDateTimeTo,omitempty"`
	IncludeCols          []string                `json:"includeCols,omitempty"`
	IncludeColsExtended  []*ExtendedColumn       `json:"includeColsExtended,omitempty"`
	BaseURL              *string                 `json:"baseUrl,omitempty"`
	ReportFormat         *bool                   `json:"reportFormat,omitempty"`
	ReportName           *string                 `json:"reportName,omitempty"`
	QueryOptimizerFlags  []int32                 `json:"queryOptimizerFlags,omitempty"`
}

// PersonSearchRequest is the body of POST /personSearch. The server also
// knows personActivitySearchParams, which it refuses (408) until it serves
// it.
type PersonSearchRequest struct {
	SearchBase
	IncludeColsExtended []*ExtendedColumn   `json:"includeColsExtended,omitempty"`
	SkipLookup          *bool               `json:"skipLookup,omitempty"`
	Priority            *int64              `json:"priority,omitempty"`
	Tags                []*TagsSearchParams `json:"tags,omitempty"`

	UniqueID                         *string                 `json:"UniqueId,omitempty"`
	FirstName                        *StringSearchParam      `json:"firstName,omitempty"`
	MiddleName                       *StringSearchParam      `json:"middleName,omitempty"`
	LastName                         *StringSearchParam      `json:"lastName,omitempty"`
	CommType                         []int16                 `json:"commType,omitempty"`
	CommValue                        *StringSearchParam      `json:"commValue,omitempty"`
	CommValueCountryDomain           *StringSearchParam      `json:"commValueCountryDomain,omitempty"`
	CommValueCityArea                *StringSearchParam      `json:"commValueCityArea,omitempty"`
	CommValueUserSpecific            *StringSearchParam      `json:"commValueUserSpecific,omitempty"`
	ProfileRecNo                     *NumSearchParam         `json:"profileRecNo,omitempty"`
	BirthdayMonth                    *NumSearchParam         `json:"birthdayMonth,omitempty"`
	BirthdayMonthFrom                *int64                  `json:"birthdayMonthFrom,omitempty"`
	BirthdayMonthTo                  *int64                  `json:"birthdayMonthTo,omitempty"`
	BirthdayDayFrom                  *int64                  `json:"birthdayDayFrom,omitempty"`
	BirthdayDayTo                    *int64                  `json:"birthdayDayTo,omitempty"`
	Marketing                        []*MarketingSearchParam `json:"marketing,omitempty"`
	EmailPermitMarketing             *bool                   `json:"emailPermitMarketing,omitempty"`
	PhonePermitMarketing             *bool                   `json:"phonePermitMarketing,omitempty"`
	CardType                         []int16                 `json:"cardType,omitempty"`
	CardSubType                      *NumSearchParam         `json:"cardSubType,omitempty"`
	CardExpirationDateFrom           *DateSearchParam        `json:"cardExpirationDateFrom,omitempty"`
	CardExpirationDateTo             *DateSearchParam        `json:"cardExpirationDateTo,omitempty"`
	AdvisorProfileRecNo              *NumSearchParam         `json:"AdvisorProfileRecNo,omitempty"`
	ActiveStatus                     []int16                 `json:"activeStatus,omitempty"`
	ActionItemCompleted              *bool                   `json:"actionItemCompleted,omitempty"`
	ActionItemDateFrom               *DateSearchParam        `json:"actionItemDateFrom,omitempty"`
	ActionItemDateTo                 *DateSearchParam        `json:"actionItemDateTo,omitempty"`
	ActionItemAssignedToAppUserRecNo *NumSearchParam         `json:"actionItemAssignedToAppUserRecNo,omitempty"`
}

// NewStringSearchParam builds a StringSearchParam from plain values.
func NewStringSearchParam(cond int, values ...string) *StringSearchParam {
	p := &StringSearchParam{CompareCondition: &cond}
	for _, v := range values {
		p.Value = append(p.Value, &v)
	}
	return p
}

// NewNumSearchParam builds a NumSearchParam from plain values.
func NewNumSearchParam(cond int, values ...int64) *NumSearchParam {
	p := &NumSearchParam{CompareCondition: &cond}
	for _, v := range values {
		p.Value = append(p.Value, &v)
	}
	return p
}
