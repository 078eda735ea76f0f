package wayfarer

// The activity record of the devportal's Activity page: a task,
// appointment, note or promo of an app user, optionally linked to one
// person, with tags. Struct tags as on Person (person.go). Fields the
// reference has and Wayfarer does not serve yet are wf:"unsupported": the
// decoder refuses them (408) unless null or empty.

// Activity types.
const (
	ActivityTask        = 1
	ActivityAppointment = 2
	ActivityNote        = 3
	ActivityPromo       = 4
)

// Activity priorities.
const (
	PriorityLow    = 1
	PriorityMedium = 2
	PriorityHigh   = 3
)

// Activity is one activity (docs/activities.md).
type Activity struct {
	RecNo              Opt[int64]     `json:"recNo,omitzero" wf:"id"`
	AppUserRecNo       Opt[int64]     `json:"appUser_recNo,omitzero"`
	AppUserID          Opt[string]    `json:"appUserId,omitzero" wf:"ro"`
	Type               Opt[int]       `json:"type,omitzero"`
	SubType            Opt[int]       `json:"subType,omitzero"`
	Priority           Opt[int]       `json:"priority,omitzero"`
	TargetDateTime     Opt[Timestamp] `json:"targetDateTime,omitzero"`
	TargetDate         Opt[Date]      `json:"targetDate,omitzero"`
	Duration           Opt[int]       `json:"duration,omitzero"`
	CompletionDateTime Opt[Timestamp] `json:"completionDateTime,omitzero"`
	AlertDateTime      Opt[Timestamp] `json:"alertDateTime,omitzero"`
	AlertOffset        Opt[int]       `json:"alertOffset,omitzero"`
	Subject            Opt[string]    `json:"subject,omitzero" max:"64"`
	Remarks            Opt[string]    `json:"remarks,omitzero" max:"4000"`
	Private            Opt[bool]      `json:"private,omitzero"`

	// Not served yet: promos' codes and links, affiliations, and the links
	// to client and supplier profiles and trips (Wayfarer has none of
	// these records for activities), and the change history.
	PromoID                     Opt[string] `json:"promoId,omitzero" wf:"unsupported"`
	PromoLink                   Opt[string] `json:"promoLink,omitzero" wf:"unsupported"`
	AffiliationRecNo            Opt[int64]  `json:"affiliation_recNo,omitzero" wf:"unsupported"`
	AffiliationNameLookup       Opt[string] `json:"affiliationName_lookup,omitzero" wf:"unsupported"`
	ActivityClientProfileLink   any         `json:"activityClientProfileLink,omitzero" wf:"unsupported"`
	ActivitySupplierProfileLink any         `json:"activitySupplierProfileLink,omitzero" wf:"unsupported"`
	ActivityTripLink            any         `json:"activityTripLink,omitzero" wf:"unsupported"`
	ActivityHistory             []any       `json:"activityHistory,omitzero" wf:"unsupported"`

	// ActivityPersonLink is the one person the activity is about (a
	// singleton in the devportal). nil (absent or null) leaves the link
	// alone on a save; a person_recNo of null removes it.
	ActivityPersonLink *ActivityPersonLink `json:"activityPersonLink,omitzero"`
	// ActivityTag: a nil slice leaves the tags alone; an empty one removes
	// every tag the old side lists.
	ActivityTag []ActivityTag `json:"activityTag,omitzero"`
}

// ActivityPersonLink links an activity to a person, with the person's
// name, primary phone and primary email looked up on load.
type ActivityPersonLink struct {
	ActivityRecNo Opt[int64]  `json:"activity_recNo,omitzero" wf:"id"`
	PersonRecNo   Opt[int64]  `json:"person_recNo,omitzero"`
	PersonName    Opt[string] `json:"personName_lookup,omitzero" wf:"ro"`
	PersonPhone   Opt[string] `json:"personPhone_lookup,omitzero" wf:"ro"`
	PersonEmail   Opt[string] `json:"personEmail_lookup,omitzero" wf:"ro"`
}

// ActivityTag is a tag with a value on an activity.
type ActivityTag struct {
	RecNo         Opt[int64]  `json:"recNo,omitzero" wf:"id"`
	ActivityRecNo Opt[int64]  `json:"activity_recNo,omitzero" wf:"id"`
	TagRecNo      Opt[int64]  `json:"tag_recNo,omitzero"`
	Name          Opt[string] `json:"name,omitzero" wf:"ro"`
	Value         Opt[string] `json:"value,omitzero" max:"1024"`
}

// linkedPerson is the person the link names: nil for no link or a null
// person_recNo.
func (a *Activity) linkedPerson() *int64 {
	if a == nil || a.ActivityPersonLink == nil {
		return nil
	}
	return a.ActivityPersonLink.PersonRecNo.Ptr()
}

// cloneActivity deep-copies a save side.
func cloneActivity(a *Activity) *Activity {
	if a == nil {
		return nil
	}
	c := *a
	if a.ActivityPersonLink != nil {
		l := *a.ActivityPersonLink
		c.ActivityPersonLink = &l
	}
	if a.ActivityTag != nil {
		c.ActivityTag = append([]ActivityTag{}, a.ActivityTag...)
	}
	return &c
}
