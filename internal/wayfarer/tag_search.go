package wayfarer

// POST /tagSearch through the search kit (search_kit.go): the devportal's
// TagSearch columns and parameters. Tags are agency-wide: the reach is the
// agency (docs/tags.md).

// TagSearchCatalog is the devportal's TagSearch columns. Without
// includeCols a search answers recNo, name, description, activeStatus,
// requirement and areaFlags (the devportal names no default set).
var TagSearchCatalog = NewSearchCatalog("tag", MethodTagSearch, []Area{AreaTag}, []SearchColumn{
	{Name: "recNo", Type: ColLong, Default: true},
	{Name: "summaryCount", Type: ColInt},
	{Name: "createDateTime", Type: ColDateTimeOffset},
	{Name: "lastModifiedDateTime", Type: ColDateTimeOffset},
	{Name: "name", Type: ColString, Size: 64, Default: true},
	// referenced: some person holds the tag.
	{Name: "referenced", Type: ColBool},
	{Name: "activeStatus", Type: ColBool, Default: true},
	{Name: "valueFreeFlow", Type: ColBool},
	{Name: "valueRequired", Type: ColBool},
	{Name: "valueList", Type: ColString, Size: 4000},
	{Name: "description", Type: ColString, Size: 64, Default: true},
	{Name: "areaFlags", Type: ColInt, Default: true},
	{Name: "requirement", Type: ColShort, Default: true},
	// availableForUseIn: areaFlags by name ("Client, Traveler"; "All" for 0).
	{Name: "availableForUseIn", Type: ColString},
}, "recNo", "name", "description", "activeStatus", "requirement", "areaFlags")

// TagAreaNames are the names of the tag area flags, in bit order.
var TagAreaNames = []string{"Client", "Traveler", "Supplier", "Advisor", "Trip", "Reservation", "Payment", "Activity",
	"AdvisorAdjustment", "Destination", "Branch", "OtherProfile"}
