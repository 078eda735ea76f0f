package wayfarer

// Profiles: POST /profileSearch over the profile kinds Wayfarer keeps,
// advisor profiles (area AdvisorProfile) and client profiles (area
// ClientProfile), through the search kit (docs/lookups.md).
//
// A user sees the profiles of the kinds it may select, each within its
// reach in that kind's area: OnlyBranch keeps the profiles of the user's
// branch; OnlySelf keeps the user's own advisors, and the client profiles
// linked to a person one of them advises.

// Profile types as the reference numbers them (profileType): Wayfarer
// keeps clients and advisors; suppliers and others match nothing.
const (
	WireProfileClient   = 1
	WireProfileSupplier = 2
	WireProfileAdvisor  = 3
	WireProfileOther    = 4
)

// ProfileSearchCatalog is the devportal's ProfileSearch columns. Columns of
// fields Wayfarer does not keep are accepted and hold null, left out of
// rows.
var ProfileSearchCatalog = NewSearchCatalog("profile", MethodProfileSearch, []Area{AreaAdvisorProfile, AreaClientProfile}, []SearchColumn{
	{Name: "recNo", Type: ColLong, Default: true},
	{Name: "tagRecNo", Type: ColLong},
	{Name: "tagName", Type: ColString, Size: 64},
	{Name: "tagValue", Type: ColString, Size: 1024},
	{Name: "tags", Type: ColString},
	{Name: "summaryCount", Type: ColInt},
	{Name: "createDateTime", Type: ColDateTimeOffset},
	{Name: "lastModifiedDateTime", Type: ColDateTimeOffset},
	{Name: "name", Type: ColString, Size: 256, Default: true},
	{Name: "uniqueId", Type: ColString, Size: 64},
	{Name: "profileType", Type: ColShort, Default: true},
	{Name: "clientType", Type: ColShort},
	{Name: "supplierType", Type: ColShort},
	{Name: "primaryPersonRecNo", Type: ColLong},
	{Name: "primaryPersonName", Type: ColString, Size: 256},
	{Name: "primaryPersonFirstName", Type: ColString, Size: 64},
	{Name: "primaryPersonLastName", Type: ColString, Size: 64},
	{Name: "primaryPersonEmail", Type: ColString, Size: 256},
	{Name: "primaryPersonPhone", Type: ColString, Size: 256},
	{Name: "clientAnniversaryDay", Type: ColShort},
	{Name: "clientAnniversaryMonth", Type: ColShort},
	{Name: "clientAnniversaryYear", Type: ColShort},
	{Name: "clientAnniversaryNote", Type: ColString, Size: 256},
	{Name: "clientAdvisorProfileRecNo", Type: ColLong},
	{Name: "clientAdvisorName", Type: ColString, Size: 256},
	{Name: "clientBranchRecNo", Type: ColLong},
	{Name: "clientBranchName", Type: ColString, Size: 64},
	{Name: "remarks", Type: ColString, Size: 256},
	{Name: "activeStatus", Type: ColShort, Default: true},
	{Name: "primaryEmail", Type: ColString, Size: 256},
	{Name: "primaryEmailPermitMarketing", Type: ColBool},
	{Name: "primaryPhone", Type: ColString, Size: 256},
	{Name: "primaryPhonePermitMarketing", Type: ColBool},
	{Name: "preferredSupplier", Type: ColBool},
	{Name: "supplierTravelCategoryFlags", Type: ColInt},
	{Name: "street1", Type: ColString, Size: 128},
	{Name: "street2", Type: ColString, Size: 128},
	{Name: "city", Type: ColString, Size: 64},
	{Name: "stateProvince", Type: ColString, Size: 32},
	{Name: "zipPostalCode", Type: ColString, Size: 16},
	{Name: "country", Type: ColString, Size: 4},
	{Name: "mailingStreet1", Type: ColString, Size: 128},
	{Name: "mailingStreet2", Type: ColString, Size: 128},
	{Name: "mailingCity", Type: ColString, Size: 64},
	{Name: "mailingStateProvince", Type: ColString, Size: 32},
	{Name: "mailingZipPostalCode", Type: ColString, Size: 16},
	{Name: "mailingCountry", Type: ColString, Size: 4},
	{Name: "addressPermitMarketing", Type: ColBool},
	{Name: "supplierVendorId", Type: ColString, Size: 10},
	{Name: "supplierCommissionRate", Type: ColShort},
	{Name: "clientInformalSalutation", Type: ColString, Size: 128},
	{Name: "clientFormalSalutation", Type: ColString, Size: 128},
	{Name: "firstId", Type: ColString, Size: 32},
	{Name: "profileCommType", Type: ColShort},
	{Name: "profileCommValue", Type: ColString, Size: 256},
	{Name: "profileCommIsBillingContact", Type: ColBool},
	{Name: "profileCommContactOption", Type: ColShort},
	{Name: "actionRecNo", Type: ColLong},
	{Name: "actionItemTriggerIndex", Type: ColShort},
	{Name: "actionItemDate", Type: ColDate},
	{Name: "actionItemTriggerFixedDate", Type: ColDate},
	{Name: "actionItemDescription", Type: ColString},
	{Name: "actionItemCompleted", Type: ColDateTimeOffset},
	{Name: "actionItemAssignedToAppUserRecNo", Type: ColLong},
	{Name: "actionItemAssignedToAppUserId", Type: ColString, Size: 64},
	{Name: "imageCount", Type: ColShort},
	{Name: "supplierAirlineNo", Type: ColShort},
})
