package client

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// ActiveStatus of a person.
type ActiveStatus int

const (
	StatusInactive ActiveStatus = 0
	StatusActive   ActiveStatus = 1
	StatusPending  ActiveStatus = 2
)

func (s ActiveStatus) String() string {
	switch s {
	case StatusInactive:
		return "inactive"
	case StatusActive:
		return "active"
	case StatusPending:
		return "pending"
	}
	return fmt.Sprintf("status(%d)", int(s))
}

// CommType is the type of a communication.
type CommType int

const (
	CommPhone       CommType = 1
	CommEmail       CommType = 2
	CommSocialMedia CommType = 3
	CommWeb         CommType = 4
)

// TriggerIndex says from what an action item's date is derived.
type TriggerIndex int

const (
	TriggerFixedDate  TriggerIndex = 1
	TriggerCreateDate TriggerIndex = 2
	TriggerBirthday   TriggerIndex = 3
)

// Person is a traveler in the 1.8.2 load/save shape. A nil pointer is a
// null (a save sends it as null, clearing the field); child slices are what
// the person has: an element left out of a save is removed.
//
// The record number and the read-only lookups are set by the server and
// only readable here.
type Person struct {
	FirstName                    *string       `json:"firstName"`
	MiddleName                   *string       `json:"middleName"`
	LastName                     *string       `json:"lastName"`
	CourtesyTitle                *string       `json:"courtesyTitle"`
	Salutation                   *string       `json:"salutation"`
	BirthdayDay                  *int          `json:"birthdayDay"`
	BirthdayMonth                *int          `json:"birthdayMonth"`
	BirthdayYear                 *int          `json:"birthdayYear"`
	BirthdayNote                 *string       `json:"birthdayNote"`
	Citizenship                  *string       `json:"citizenship"` // two letters
	RedressNumber                *string       `json:"redressNumber"`
	KnownTravelerNumber          *string       `json:"knownTravelerNumber"`
	Gender                       *string       `json:"gender"` // one letter
	UniqueID                     *string       `json:"uniqueId"`
	BranchRecNo                  *int64        `json:"branch_recNo"`
	AdvisorProfileRecNo          *int64        `json:"advisorProfile_recNo"`
	Remarks                      *string       `json:"remarks"`
	EmergencyContactName         *string       `json:"emergencyContactName"`
	EmergencyContactRelationship *string       `json:"emergencyContactRelationship"`
	EmergencyContactPhone        *string       `json:"emergencyContactPhone"`
	EmergencyContactEmail        *string       `json:"emergencyContactEmail"`
	ActiveStatus                 *ActiveStatus `json:"activeStatus"` // required by the server

	Communications []CommunicationLink `json:"personCommunicationLink"`
	Cards          []CardLink          `json:"personCardLink"`
	Marketing      []Marketing         `json:"personMarketing"`
	Tags           []Tag               `json:"personTag"`
	ActionItems    []ActionItemLink    `json:"personActionItemLink"`

	recNo       *int64
	branchName  *string
	advisorName *string
	age         *int
	created     *time.Time
	decrypted   bool // loaded with clear card numbers: never the base of a save
}

// RecNo is the person's record number; 0 for a person not saved yet.
func (p *Person) RecNo() int64 { return deref(p.recNo) }

// BranchName is the name of the person's branch, as loaded.
func (p *Person) BranchName() string { return deref(p.branchName) }

// AdvisorName is the name of the person's advisor, as loaded.
func (p *Person) AdvisorName() string { return deref(p.advisorName) }

// Age is the person's age in years, when the birthday is fully known.
func (p *Person) Age() (int, bool) {
	if p.age == nil {
		return 0, false
	}
	return *p.age, true
}

// Created is the server's creation time (zero when unknown). The time of
// the last change is a search column (ColLastModifiedDateTime), not part
// of the loaded person.
func (p *Person) Created() time.Time { return derefTime(p.created) }

// Name is "Last/First", as the search's name column shows it.
func (p *Person) Name() string { return deref(p.LastName) + "/" + deref(p.FirstName) }

// Card returns the link of the card with the given record number, or nil.
// Edit the card through the returned pointer: its identifiers stay.
func (p *Person) Card(cardRecNo int64) *CardLink {
	for i := range p.Cards {
		if l := &p.Cards[i]; l.cardRecNo != nil && *l.cardRecNo == cardRecNo {
			return l
		}
	}
	return nil
}

// AddCard adds a new card to the person and returns its link.
func (p *Person) AddCard(c Card) *CardLink {
	p.Cards = append(p.Cards, NewCardLink(p.RecNo(), c))
	return &p.Cards[len(p.Cards)-1]
}

// RemoveCard drops the link of the card with the given record number; the
// save removes the card. It reports whether the person had that card.
func (p *Person) RemoveCard(cardRecNo int64) bool {
	for i, l := range p.Cards {
		if l.cardRecNo != nil && *l.cardRecNo == cardRecNo {
			p.Cards = append(p.Cards[:i:i], p.Cards[i+1:]...)
			return true
		}
	}
	return false
}

// PrimaryEmail and PrimaryPhone return the primary communication's value.
func (p *Person) PrimaryEmail() string { return p.primary(CommEmail) }
func (p *Person) PrimaryPhone() string { return p.primary(CommPhone) }

func (p *Person) primary(t CommType) string {
	for _, l := range p.Communications {
		c := l.Communication
		if c.Type != nil && *c.Type == t && c.IsPrimary != nil && *c.IsPrimary {
			return deref(c.Value)
		}
	}
	return ""
}

// Clone returns a deep copy.
func (p *Person) Clone() *Person {
	b, err := json.Marshal(p)
	if err != nil {
		panic("client: cloning a person: " + err.Error()) // every field marshals
	}
	var q Person
	if err := json.Unmarshal(b, &q); err != nil {
		panic("client: cloning a person: " + err.Error())
	}
	q.decrypted = p.decrypted
	return &q
}

type personAlias Person

// personWire adds the fields only the server sets.
type personWire struct {
	RecNo *int64 `json:"recNo"`
	*personAlias
	BranchName     *string    `json:"branchName"`
	AdvisorName    *string    `json:"advisorName"`
	Age            *int       `json:"age"`
	CreateDateTime *time.Time `json:"createDateTime"`
}

// MarshalJSON writes the 1.8.2 shape. Child arrays are always arrays, so a
// save never leaves children alone by accident.
func (p Person) MarshalJSON() ([]byte, error) {
	a := personAlias(p)
	a.Communications = nonNil(a.Communications)
	a.Cards = nonNil(a.Cards)
	a.Marketing = nonNil(a.Marketing)
	a.Tags = nonNil(a.Tags)
	a.ActionItems = nonNil(a.ActionItems)
	return json.Marshal(personWire{
		RecNo: p.recNo, personAlias: &a,
		BranchName: p.branchName, AdvisorName: p.advisorName, Age: p.age,
		CreateDateTime: p.created,
	})
}

func (p *Person) UnmarshalJSON(b []byte) error {
	*p = Person{}
	w := personWire{personAlias: (*personAlias)(p)}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	p.recNo, p.branchName, p.advisorName, p.age = w.RecNo, w.BranchName, w.AdvisorName, w.Age
	p.created = w.CreateDateTime
	return nil
}

// CommunicationLink connects a person with a phone number, email address,
// social media handle or web address. Keep the identifiers of a loaded
// link as they are; a new one has them nil.
type CommunicationLink struct {
	PersonRecNo        *int64        `json:"person_recNo"`
	CommunicationRecNo *int64        `json:"communication_recNo"` // equals Communication.RecNo
	Communication      Communication `json:"communication"`
}

// Communication is one phone number, email address and so on.
type Communication struct {
	RecNo           *int64    `json:"recNo"`
	Type            *CommType `json:"type"`
	SubType         *string   `json:"subType"`
	Value           *string   `json:"value"`
	CountryDomain   *string   `json:"countryDomain"`
	CityArea        *string   `json:"cityArea"`
	UserSpecific    *string   `json:"userSpecific"`
	Description     *string   `json:"description"`
	IsPrimary       *bool     `json:"isPrimary"`
	PermitMarketing *bool     `json:"permitMarketing"`
	// Deprecated by the contract in favour of ContactOption; kept as sent.
	IsBillingContact *bool `json:"isBillingContact"`
	ContactOption    *int  `json:"contactOption"` // 1 billing, 2 customer service
}

// NewEmail and NewPhone build a new communication link.
func NewEmail(address string, primary bool) CommunicationLink {
	t := CommEmail
	return CommunicationLink{Communication: Communication{Type: &t, Value: &address, IsPrimary: &primary}}
}

func NewPhone(number string, primary bool) CommunicationLink {
	t := CommPhone
	return CommunicationLink{Communication: Communication{Type: &t, Value: &number, IsPrimary: &primary}}
}

// Marketing marks the person for a marketing element.
type Marketing struct {
	PersonRecNo           *int64 `json:"person_recNo"`
	MarketingElementRecNo *int64 `json:"marketingElement_recNo"`
	AffiliationRecNo      *int64 `json:"affiliation_recNo"`
}

// Tag is a tag with a value on the person. Name is filled on load and
// ignored on save.
type Tag struct {
	RecNo       *int64  `json:"recNo"`
	PersonRecNo *int64  `json:"person_recNo"`
	TagRecNo    *int64  `json:"tag_recNo"`
	Name        *string `json:"name"`
	Value       *string `json:"value"`
}

// ActionItemLink connects the person with one of its reminders.
type ActionItemLink struct {
	PersonRecNo     *int64     `json:"person_recNo"`
	ActionItemRecNo *int64     `json:"actionItem_recNo"` // equals ActionItem.RecNo
	ActionItem      ActionItem `json:"personActionItem"`
}

// ActionItem is a reminder due on a date derived from its trigger.
type ActionItem struct {
	RecNo                   *int64        `json:"recNo"`
	Type                    *int          `json:"type"` // deprecated by the contract; kept as sent
	Description             *string       `json:"description"`
	TriggerIndex            *TriggerIndex `json:"triggerIndex"`
	TriggerDaysOffset       *int          `json:"triggerDaysOffset"`
	TriggerFixedDate        *Date         `json:"triggerFixedDate"`
	AppUserRecNo            *int64        `json:"appUser_recNo"`
	AppUserID               *string       `json:"appUserId"` // filled on load, ignored on save
	Completed               *time.Time    `json:"completed"`
	CompletedByAppUserRecNo *int64        `json:"completedBy_appUserRecNo"`
	CompletedByAppUserID    *string       `json:"completedBy_appUserId"` // filled on load, ignored on save
	Notes                   *string       `json:"notes"`
	DocumentTemplateRecNo   *int64        `json:"documentTemplate_recNo"`
}

// Date is a calendar date, "YYYY-MM-DD" on the wire.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// NewDate returns the date; Date{} is no date.
func NewDate(year int, month time.Month, day int) Date { return Date{year, month, day} }

// ParseDate reads "YYYY-MM-DD" (also "MM/DD/YYYY" and timestamps, keeping
// the date as written).
func ParseDate(s string) (Date, error) {
	s = strings.TrimSpace(s)
	for _, l := range []string{time.DateOnly, "1/2/2006", time.RFC3339Nano, "2006-01-02T15:04:05.999999999"} {
		if t, err := time.Parse(l, s); err == nil {
			return Date{t.Year(), t.Month(), t.Day()}, nil
		}
	}
	return Date{}, fmt.Errorf("invalid date %q: want YYYY-MM-DD", s)
}

func (d Date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day) }

// Time is midnight UTC of the date.
func (d Date) Time() time.Time { return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC) }

func (d Date) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

func (d *Date) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a date must be a string YYYY-MM-DD")
	}
	v, err := ParseDate(s)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

func derefTime(p *time.Time) time.Time { return deref(p) }

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
