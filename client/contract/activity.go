package contract

// Activity types and priorities (devportal Activity).
const (
	ActivityTypeTask        = 1
	ActivityTypeAppointment = 2
	ActivityTypeNote        = 3
	ActivityTypePromo       = 4

	ActivityPriorityLow    = 1
	ActivityPriorityMedium = 2
	ActivityPriorityHigh   = 3
)

// ActivitySearchRequest is the body of POST /activitySearch (the
// devportal's ActivitySearch), and the personActivitySearchParams member of
// a person search, where only the filters (with recNo and the
// createDateTime/modifiedDateTime bounds) apply. type is the devportal's
// EnumSearchParam<Type>, which has NumSearchParam's shape:
// {"value":[1,2],"compareCondition":1}. The server also knows
// clientProfileRecNo, supplierProfileRecNo, tripRecNo, promoId and
// includeColsExtended, which it refuses (408) until it serves them.
type ActivitySearchRequest struct {
	SearchBase
	Tags []*TagsSearchParams `json:"tags,omitempty"`

	AppUserRecNo       *NumSearchParam         `json:"appUserRecNo,omitempty"`
	Type               *NumSearchParam         `json:"type,omitempty"`
	TargetDateFrom     *DateSearchParam        `json:"targetDateFrom,omitempty"`
	TargetDateTo       *DateSearchParam        `json:"targetDateTo,omitempty"`
	TargetDateTimeFrom *DateTimeUTCSearchParam `json:"targetDateTimeFrom,omitempty"`
	TargetDateTimeTo   *DateTimeUTCSearchParam `json:"targetDateTimeTo,omitempty"`
	Completed          *bool                   `json:"completed,omitempty"`
	PersonRecNo        *NumSearchParam         `json:"personRecNo,omitempty"`
	Subject            *StringSearchParam      `json:"subject,omitempty"`
}
