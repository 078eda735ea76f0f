package contract

// The look-ups' request bodies (docs/lookups.md): searches of branches,
// profiles and app users, each embedding the inherited SearchBase.

// BranchSearchRequest is the body of POST /branchSearch.
type BranchSearchRequest struct {
	SearchBase
	Name         *StringSearchParam `json:"name,omitempty"`
	ActiveStatus []int16            `json:"activeStatus,omitempty"`
	ArcBspNo     *NumSearchParam    `json:"arcBspNo,omitempty"`
}

// ShortSet is a short<short> parameter: a JSON array of numbers. A single
// number is read as an array of one: the devportal's profileSearch example
// and the Java client send profileType as one number.
type ShortSet []int16

// StatusSet is an activeStatus parameter: a ShortSet (Inactive 0, Active
// 1, Pending 2), or a boolean, as the devportal's profileSearch example
// sends it: true is Active (1), false Inactive (0).
type StatusSet []int16

// ProfileSearchRequest is the body of POST /profileSearch: the parameters
// Wayfarer serves over advisor and client profiles (docs/lookups.md). The
// server knows the reference's other parameters and refuses them (408)
// when they hold anything.
type ProfileSearchRequest struct {
	SearchBase
	Tags              []*TagsSearchParams `json:"tags,omitempty"`
	ProfileType       ShortSet            `json:"profileType,omitempty"`
	ProfileName       *StringSearchParam  `json:"profileName,omitempty"`
	ActiveStatus      StatusSet           `json:"activeStatus,omitempty"`
	ClientBranchRecNo *NumSearchParam     `json:"clientBranchRecNo,omitempty"`
	PersonRecNo       *NumSearchParam     `json:"personRecNo,omitempty"`
	PersonFirstName   *StringSearchParam  `json:"personFirstName,omitempty"`
	PersonLastName    *StringSearchParam  `json:"personLastName,omitempty"`
}

// EnumSearchParam filters an enumeration (the devportal's
// EnumSearchParam<T>, whose shape it does not publish): read as a
// NumSearchParam, {"value":[1,2],"compareCondition":1}.
type EnumSearchParam = NumSearchParam

// AppUserSearchRequest is the body of POST /appUserSearch.
type AppUserSearchRequest struct {
	SearchBase
	ID                  *StringSearchParam `json:"id,omitempty"`
	BranchRecNo         *NumSearchParam    `json:"branchRecNo,omitempty"`
	UserType            *EnumSearchParam   `json:"userType,omitempty"`
	Name                *StringSearchParam `json:"name,omitempty"`
	Email               *StringSearchParam `json:"email,omitempty"`
	Enabled             *bool              `json:"enabled,omitempty"`
	AdvisorProfileRecNo *int64             `json:"advisorProfileRecNo,omitempty"`
}
