package wayfarer

// The activity search (devportal ActivitySearch), a search of the search
// kit, and the activity filter of the person search
// (personActivitySearchParams), which takes the same filters.

// ActivitySearchColumns are the columns of the devportal's ActivitySearch
// that Wayfarer serves, in its order. Wayfarer links activities to persons
// only: the client profile, supplier profile and trip columns are always
// null (and so left out of the rows).
var ActivitySearchColumns = []SearchColumn{
	{Name: "recNo", Type: ColLong},
	{Name: "tags", Type: ColString},
	{Name: "summaryCount", Type: ColInt},
	{Name: "createDateTime", Type: ColDateTimeOffset},
	{Name: "lastModifiedDateTime", Type: ColDateTimeOffset},
	{Name: "type", Type: ColShort},
	{Name: "appUser_recNo", Type: ColLong},
	{Name: "appUserId", Type: ColString, Size: 64, Lookup: true},
	{Name: "subject", Type: ColString, Size: 64},
	{Name: "priority", Type: ColShort},
	{Name: "targetDateTime", Type: ColDateTimeOffset},
	{Name: "targetDate", Type: ColDate},
	{Name: "completionDateTime", Type: ColDateTimeOffset},
	{Name: "clientProfileRecNo", Type: ColLong},
	{Name: "clientProfileName", Type: ColString, Size: 256, Lookup: true},
	{Name: "supplierProfileRecNo", Type: ColLong},
	{Name: "supplierProfileName", Type: ColString, Size: 256, Lookup: true},
	{Name: "personRecNo", Type: ColLong},
	{Name: "personName", Type: ColString, Size: 256, Lookup: true},
	{Name: "tripRecNo", Type: ColLong},
	{Name: "tripName", Type: ColString, Size: 256, Lookup: true},
	{Name: "remarks", Type: ColString},
}

// UnservedActivityColumns are columns of the devportal's ActivitySearch
// that Wayfarer does not serve yet (a row per tag, promos): 408, not 405.
var UnservedActivityColumns = []string{"tagRecNo", "tagName", "tagValue", "promoId"}

// ActivitySearchCatalog is POST /activitySearch. Its default columns are
// those the reference's recorded answers hold.
var ActivitySearchCatalog = NewSearchCatalog("activity", MethodActivitySearch, []Area{AreaActivity}, ActivitySearchColumns,
	"recNo", "type", "appUser_recNo", "appUserId", "subject", "priority", "targetDateTime", "targetDate", "completionDateTime",
	"clientProfileRecNo", "clientProfileName", "supplierProfileRecNo", "supplierProfileName", "personRecNo", "personName",
	"tripRecNo", "tripName", "remarks")

// Filter keys of the activity search that are not columns (the others
// are: appUser_recNo, type, subject, targetDate, targetDateTime).
const (
	ActivityFilterCompleted = "completed"   // Bool: completionDateTime set (true) or not
	ActivityFilterPerson    = "personRecNo" // Num on the linked person
	ActivityFilterTag       = "tag"         // Tag: one TagsSearchParams entry
)
