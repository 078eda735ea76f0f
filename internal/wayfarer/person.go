package wayfarer

// The person record of contract 1.8.2 in its wire shape. Every data field is
// an Opt so that a save can tell an absent key (leave alone) from null
// (clear) and from a value.
//
// Struct tags beyond json drive the generic rules in person_fields.go:
//
//	max:"N"       longest value in characters (a longer one is a 400 naming the field)
//	wf:"ro"       read-only lookup: filled on load, ignored on save, never diffed
//	wf:"id"       identifier: matched, never diffed as a field
//	wf:"number"   a card number field: exempt from the card-number-in-text scan
//	wf:"in"       accepted on input only to be refused (cvvCode), never diffed
//	              or stored; loaded as null
//	wf:"file"     file bytes (attachment fileData): written when the new side
//	              holds them; a null never clears them (every load shows
//	              null) and they are never checked for staleness
//	wf:"unsupported" a field of the reference that Wayfarer does not serve
//	              yet: read, refused (408) by the decoder unless null or
//	              empty, never diffed or stored. Serving it starts by
//	              deleting the tag.

// Activity status of a person.
const (
	ActiveStatusInactive = 0
	ActiveStatusActive   = 1
	ActiveStatusPending  = 2
)

// Card types. The type of an existing card never changes.
const (
	CardTypeCreditDebit    = 1
	CardTypeLoyalty        = 2
	CardTypeTravelDocument = 3
)

// Communication types.
const (
	CommPhone       = 1
	CommEmail       = 2
	CommSocialMedia = 3
	CommWeb         = 4
)

// Action item triggers.
const (
	TriggerFixedDate  = 1
	TriggerCreateDate = 2
	TriggerBirthday   = 3
)

// Person is a traveler with the child tables of contract 1.8.2.
type Person struct {
	RecNo                        Opt[int64]     `json:"recNo,omitzero" wf:"id"`
	FirstName                    Opt[string]    `json:"firstName,omitzero" max:"64"`
	MiddleName                   Opt[string]    `json:"middleName,omitzero" max:"64"`
	LastName                     Opt[string]    `json:"lastName,omitzero" max:"64"`
	CourtesyTitle                Opt[string]    `json:"courtesyTitle,omitzero" max:"64"`
	Salutation                   Opt[string]    `json:"salutation,omitzero" max:"64"`
	BirthdayDay                  Opt[int]       `json:"birthdayDay,omitzero"`
	BirthdayMonth                Opt[int]       `json:"birthdayMonth,omitzero"`
	BirthdayYear                 Opt[int]       `json:"birthdayYear,omitzero"`
	BirthdayNote                 Opt[string]    `json:"birthdayNote,omitzero" max:"256"`
	Citizenship                  Opt[string]    `json:"citizenship,omitzero" max:"2"`
	RedressNumber                Opt[string]    `json:"redressNumber,omitzero" max:"32"`
	KnownTravelerNumber          Opt[string]    `json:"knownTravelerNumber,omitzero" max:"32"`
	Gender                       Opt[string]    `json:"gender,omitzero" max:"1"`
	UniqueID                     Opt[string]    `json:"uniqueId,omitzero" max:"64"`
	BranchRecNo                  Opt[int64]     `json:"branch_recNo,omitzero"`
	BranchName                   Opt[string]    `json:"branchName,omitzero" wf:"ro"`
	AdvisorProfileRecNo          Opt[int64]     `json:"advisorProfile_recNo,omitzero"`
	AdvisorName                  Opt[string]    `json:"advisorName,omitzero" wf:"ro"`
	Remarks                      Opt[string]    `json:"remarks,omitzero" max:"256"`
	EmergencyContactName         Opt[string]    `json:"emergencyContactName,omitzero" max:"64"`
	EmergencyContactRelationship Opt[string]    `json:"emergencyContactRelationship,omitzero" max:"64"`
	EmergencyContactPhone        Opt[string]    `json:"emergencyContactPhone,omitzero" max:"64"`
	EmergencyContactEmail        Opt[string]    `json:"emergencyContactEmail,omitzero" max:"64"`
	ActiveStatus                 Opt[int]       `json:"activeStatus,omitzero"`
	Age                          Opt[int]       `json:"age,omitzero" wf:"ro"`
	CreateDateTime               Opt[Timestamp] `json:"createDateTime,omitzero" wf:"ro"`

	// Child tables. A nil slice is an absent key (or null): those children
	// are left alone; an empty slice removes every row the old side lists.
	PersonCommunicationLink []CommunicationLink `json:"personCommunicationLink,omitzero"`
	PersonCardLink          []CardLink          `json:"personCardLink,omitzero"`
	PersonMarketing         []PersonMarketing   `json:"personMarketing,omitzero"`
	PersonAttachmentLink    []AttachmentLink    `json:"personAttachmentLink,omitzero"`
	PersonTag               []PersonTag         `json:"personTag,omitzero"`
	PersonActionItemLink    []ActionItemLink    `json:"personActionItemLink,omitzero"`

	// Version is the stored version of the person and its child rows,
	// filled by the store on load (VersionTag); 0 for a person not loaded.
	Version int64 `json:"-"`
}

// CommunicationLink connects a person with one communication (phone, email...).
type CommunicationLink struct {
	PersonRecNo        Opt[int64]     `json:"person_recNo,omitzero" wf:"id"`
	CommunicationRecNo Opt[int64]     `json:"communication_recNo,omitzero" wf:"id"`
	Communication      *Communication `json:"communication,omitzero"`
}

// Communication is a phone number, email address, social media handle or web address.
type Communication struct {
	RecNo           Opt[int64]  `json:"recNo,omitzero" wf:"id"`
	Type            Opt[int]    `json:"type,omitzero"`
	SubType         Opt[string] `json:"subType,omitzero" max:"32"`
	Value           Opt[string] `json:"value,omitzero" max:"256"`
	CountryDomain   Opt[string] `json:"countryDomain,omitzero" max:"64"`
	CityArea        Opt[string] `json:"cityArea,omitzero" max:"4"`
	UserSpecific    Opt[string] `json:"userSpecific,omitzero" max:"64"`
	Description     Opt[string] `json:"description,omitzero" max:"64"`
	IsPrimary       Opt[bool]   `json:"isPrimary,omitzero"`
	PermitMarketing Opt[bool]   `json:"permitMarketing,omitzero"`
	// Deprecated by the reference in favour of contactOption: kept as its
	// own value, returned as stored, never derived from contactOption.
	IsBillingContact Opt[bool] `json:"isBillingContact,omitzero"`
	ContactOption    Opt[int]  `json:"contactOption,omitzero"`
}

// CardLink connects a person with a card (contract §2.6).
type CardLink struct {
	PersonRecNo Opt[int64] `json:"person_recNo,omitzero" wf:"id"`
	CardRecNo   Opt[int64] `json:"card_recNo,omitzero" wf:"id"`
	Card        *Card      `json:"card,omitzero"`
}

// Card is a credit/debit card, loyalty card or travel document (contract §2.7).
type Card struct {
	RecNo Opt[int64] `json:"recNo,omitzero" wf:"id"`
	// Deprecated: the link carries the relationship; checked when given,
	// and shown only by the pre-1.8.2 shape.
	PersonRecNo        Opt[int64]  `json:"person_recNo,omitzero" wf:"id"`
	Type               Opt[int]    `json:"type,omitzero"`
	CardNumber         Opt[string] `json:"cardNumber,omitzero" max:"64" wf:"number"`
	IssueDate          Opt[Date]   `json:"issueDate,omitzero"`
	ExpirationDate     Opt[Date]   `json:"expirationDate,omitzero"`
	IssuingCity        Opt[string] `json:"issuingCity,omitzero" max:"64"`
	IssuingCountry     Opt[string] `json:"issuingCountry,omitzero" max:"2"`
	IssuingCountryName Opt[string] `json:"issuingCountryName,omitzero" max:"64"`
	Description        Opt[string] `json:"description,omitzero" max:"512"`
	CardNumberToken    Opt[string] `json:"cardNumberToken,omitzero" max:"64" wf:"number"`
	Code               Opt[string] `json:"code,omitzero" max:"8"`
	NameOnCard         Opt[string] `json:"nameOnCard,omitzero" max:"64"`
	// Deprecated: accepted on input only to be refused when non-empty;
	// never stored, and null on every loaded card.
	CVVCode Opt[string] `json:"cvvCode,omitzero" wf:"in"`
	SubType Opt[int]    `json:"subType,omitzero"`

	// Sealed is the encrypted number of a credit/debit card: filled by the
	// store on load, and by the service for the store to write on save.
	Sealed *SealedNumber `json:"-"`
}

// SealedNumber is a card number encrypted by a CardSealer.
type SealedNumber struct {
	KeyID  string
	Cipher []byte
}

// PersonMarketing marks a person for a marketing element, optionally under an affiliation.
type PersonMarketing struct {
	PersonRecNo           Opt[int64] `json:"person_recNo,omitzero" wf:"id"`
	MarketingElementRecNo Opt[int64] `json:"marketingElement_recNo,omitzero" wf:"id"`
	AffiliationRecNo      Opt[int64] `json:"affiliation_recNo,omitzero" wf:"id"`
}

// PersonTag is a tag with a value on a person.
type PersonTag struct {
	RecNo       Opt[int64]  `json:"recNo,omitzero" wf:"id"`
	PersonRecNo Opt[int64]  `json:"person_recNo,omitzero" wf:"id"`
	TagRecNo    Opt[int64]  `json:"tag_recNo,omitzero"`
	Name        Opt[string] `json:"name,omitzero" wf:"ro"`
	Value       Opt[string] `json:"value,omitzero" max:"1024"`
}

// ActionItemLink connects a person with one of its action items.
type ActionItemLink struct {
	PersonRecNo      Opt[int64]        `json:"person_recNo,omitzero" wf:"id"`
	ActionItemRecNo  Opt[int64]        `json:"actionItem_recNo,omitzero" wf:"id"`
	PersonActionItem *PersonActionItem `json:"personActionItem,omitzero"`
}

// PersonActionItem is a reminder on a person, due on a date derived from its trigger.
// CompletedByAppUserRecNo is server-set: the app user whose save marked the
// item completed (StampCompletedBy); a client's value is ignored on save.
// CompletedByAppUserID is its read-only lookup (the user's name). Type is
// deprecated by the reference ("not needed"): stored and returned as given.
// DocumentTemplate names a document template of the reference, a resource
// Wayfarer does not have: stored as given, not checked (docs/persons.md).
type PersonActionItem struct {
	RecNo                   Opt[int64]     `json:"recNo,omitzero" wf:"id"`
	Type                    Opt[int]       `json:"type,omitzero"`
	Description             Opt[string]    `json:"description,omitzero" max:"256"`
	TriggerIndex            Opt[int]       `json:"triggerIndex,omitzero"`
	TriggerDaysOffset       Opt[int]       `json:"triggerDaysOffset,omitzero"`
	TriggerFixedDate        Opt[Date]      `json:"triggerFixedDate,omitzero"`
	AppUserRecNo            Opt[int64]     `json:"appUser_recNo,omitzero"`
	AppUserID               Opt[string]    `json:"appUserId,omitzero" wf:"ro"`
	Completed               Opt[Timestamp] `json:"completed,omitzero"`
	CompletedByAppUserRecNo Opt[int64]     `json:"completedBy_appUserRecNo,omitzero"`
	CompletedByAppUserID    Opt[string]    `json:"completedBy_appUserId,omitzero" wf:"ro"`
	Notes                   Opt[string]    `json:"notes,omitzero" max:"2000"`
	DocumentTemplate        Opt[int64]     `json:"documentTemplate_recNo,omitzero"`
}
