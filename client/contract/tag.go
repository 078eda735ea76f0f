package contract

// Tag definitions and affiliations: the look-ups behind a person's
// personTag and personMarketing rows.

// Tag is a tag definition as GET /tag/{recNo} answers it and POST /tag
// takes it. Pointers are optional members: nil is absent.
type Tag struct {
	RecNo         *int64  `json:"recNo,omitempty"`
	Name          *string `json:"name,omitempty"`          // required, 64 characters at most
	ActiveStatus  *bool   `json:"activeStatus,omitempty"`  // absent on a create: true
	ValueFreeFlow *bool   `json:"valueFreeFlow,omitempty"` // any value, not only valueList's
	ValueRequired *bool   `json:"valueRequired,omitempty"`
	ValueList     *string `json:"valueList,omitempty"`   // allowed values, as the client writes them (4000 characters at most)
	Description   *string `json:"description,omitempty"` // 64 characters at most
	AreaFlags     *int    `json:"areaFlags,omitempty"`   // a sum of TagArea values; 0: all
	Requirement   *int    `json:"requirement,omitempty"` // required: TagOptional, TagRecommended, TagMandatory
	DefaultValue  *string `json:"defaultValue,omitempty"`
}

// Tag requirements.
const (
	TagOptional    = 1
	TagRecommended = 2
	TagMandatory   = 3
)

// Tag area flags (areaFlags is their sum; 0 is all areas).
const (
	TagAreaClient            = 1
	TagAreaTraveler          = 2
	TagAreaSupplier          = 4
	TagAreaAdvisor           = 8
	TagAreaTrip              = 16
	TagAreaReservation       = 32
	TagAreaPayment           = 64
	TagAreaActivity          = 128
	TagAreaAdvisorAdjustment = 256
	TagAreaDestination       = 512
	TagAreaBranch            = 1024
	TagAreaOtherProfile      = 2048
)

// Affiliation is an affiliation with its marketing categories, as GET
// /affiliation/{recNo} answers it.
type Affiliation struct {
	RecNo      *int64              `json:"recNo,omitempty"`
	Name       *string             `json:"name,omitempty"`
	Categories []MarketingCategory `json:"affiliationMarketingCategory"`
}

// MarketingCategory is an affiliationMarketingCategory.
type MarketingCategory struct {
	AffiliationRecNo *int64             `json:"affiliation_recNo,omitempty"`
	RecNo            *int64             `json:"recNo,omitempty"`
	Name             *string            `json:"name,omitempty"`
	ID               *string            `json:"id,omitempty"`
	Elements         []MarketingElement `json:"affiliationMarketingElement"`
}

// MarketingElement is an affiliationMarketingElement: what a person's
// personMarketing marketingElement_recNo points to.
type MarketingElement struct {
	RecNo         *int64  `json:"recNo,omitempty"`
	CategoryRecNo *int64  `json:"affiliationMarketingCategory_recNo,omitempty"`
	Name          *string `json:"name,omitempty"`
	ID            *string `json:"id,omitempty"`
	SortNo        *int    `json:"sortNo,omitempty"`
}

// TagSearchRequest is the body of POST /tagSearch.
type TagSearchRequest struct {
	SearchBase
	Name         *StringSearchParam `json:"name,omitempty"`
	ActiveStatus *bool              `json:"activeStatus,omitempty"`
	// AreaFlags finds tags available in any of the areas given: a flag
	// (Client 1, Traveler 2, ...) matches tags whose areaFlags hold it or
	// are 0 (All); 0 matches tags of areaFlags 0 only.
	AreaFlags []int32 `json:"areaFlags,omitempty"`
}
