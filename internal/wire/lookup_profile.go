package wire

import (
	"fmt"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// profileSearchBody is the body of POST /profileSearch: the parameters
// Wayfarer serves, and the reference's others (devportal ProfileSearch),
// refused (408) when they hold anything.
type profileSearchBody struct {
	contract.ProfileSearchRequest
	SearchUnserved
	ProfileUniqueID                        any `json:"profileUniqueId" wf:"unsupported"`
	CommType                               any `json:"commType" wf:"unsupported"`
	CommValue                              any `json:"commValue" wf:"unsupported"`
	CommValueCountryDomain                 any `json:"commValueCountryDomain" wf:"unsupported"`
	CommValueCityArea                      any `json:"commValueCityArea" wf:"unsupported"`
	CommValueUserSpecific                  any `json:"commValueUserSpecific" wf:"unsupported"`
	ClientAnniversaryMonth                 any `json:"clientAnniversaryMonth" wf:"unsupported"`
	ClientAnniversaryMonthFrom             any `json:"clientAnniversaryMonthFrom" wf:"unsupported"`
	ClientAnniversaryMonthTo               any `json:"clientAnniversaryMonthTo" wf:"unsupported"`
	ClientAnniversaryDayFrom               any `json:"clientAnniversaryDayFrom" wf:"unsupported"`
	ClientAnniversaryDayTo                 any `json:"clientAnniversaryDayTo" wf:"unsupported"`
	ClientAdvisorProfileRecNo              any `json:"clientAdvisorProfileRecNo" wf:"unsupported"`
	ClientType                             any `json:"clientType" wf:"unsupported"`
	SupplierType                           any `json:"supplierType" wf:"unsupported"`
	PreferredSupplier                      any `json:"preferredSupplier" wf:"unsupported"`
	Street1                                any `json:"street1" wf:"unsupported"`
	City                                   any `json:"city" wf:"unsupported"`
	StateProvince                          any `json:"stateProvince" wf:"unsupported"`
	ZipPostalCode                          any `json:"zipPostalCode" wf:"unsupported"`
	Country                                any `json:"country" wf:"unsupported"`
	Marketing                              any `json:"marketing" wf:"unsupported"`
	ID                                     any `json:"id" wf:"unsupported"`
	EmailPermitMarketing                   any `json:"emailPermitMarketing" wf:"unsupported"`
	PhonePermitMarketing                   any `json:"phonePermitMarketing" wf:"unsupported"`
	AddressPermitMarketing                 any `json:"addressPermitMarketing" wf:"unsupported"`
	SupplierVendorID                       any `json:"supplierVendorId" wf:"unsupported"`
	SupplierTravelCategoryFlags            any `json:"supplierTravelCategoryFlags" wf:"unsupported"`
	ProfileCommunicationBillingContact     any `json:"profileCommunicationBillingContact" wf:"unsupported"`
	ClientActionItemCompleted              any `json:"clientActionItemCompleted" wf:"unsupported"`
	ClientActionItemDateFrom               any `json:"clientActionItemDateFrom" wf:"unsupported"`
	ClientActionItemDateTo                 any `json:"clientActionItemDateTo" wf:"unsupported"`
	ClientActionItemAssignedToAppUserRecNo any `json:"clientActionItemAssignedToAppUserRecNo" wf:"unsupported"`
	SupplierAirlineNo                      any `json:"supplierAirlineNo" wf:"unsupported"`
	ClientTripSearchParams                 any `json:"clientTripSearchParams" wf:"unsupported"`
	SupplierTripSearchParams               any `json:"supplierTripSearchParams" wf:"unsupported"`
	ClientActivitySearchParams             any `json:"clientActivitySearchParams" wf:"unsupported"`
}

// DecodeProfileSearch reads a profileSearch body.
func DecodeProfileSearch(dec *jsoncodec.Decoder, body []byte) (*wayfarer.FlatCriteria, error) {
	var b profileSearchBody
	if err := DecodeSearchBody(dec, body, &b); err != nil {
		return nil, err
	}
	cat, r, v := wayfarer.ProfileSearchCatalog, &b.ProfileSearchRequest, &converter{}
	c := &wayfarer.FlatCriteria{BaseCriteria: v.base(cat, &r.SearchBase)}
	c.Add(inFilter("profileType", "profileType", r.ProfileType))
	c.Add(v.strFilter(cat, "profileName", "name", r.ProfileName))
	c.Add(inFilter("activeStatus", "activeStatus", r.ActiveStatus))
	c.Add(v.numFilter("clientBranchRecNo", "clientBranchRecNo", r.ClientBranchRecNo))
	c.Add(v.numFilter("personRecNo", "personRecNo", r.PersonRecNo))
	c.Add(v.strFilterSized("personFirstName", "personFirstName", r.PersonFirstName, 64))
	c.Add(v.strFilterSized("personLastName", "personLastName", r.PersonLastName, 64))
	c.Add(v.tags(r.Tags))
	return v.done(c)
}

// tags reads the inherited tags parameter of a resource that keeps no
// tags: each entry checked as the person search checks it (recNo
// required: the reference's 404), as one filter saying whether any entry
// asks for a tag to be present (which no row has).
func (v *converter) tags(ts []*contract.TagsSearchParams) wayfarer.SearchFilter {
	f := wayfarer.SearchFilter{Key: "tags", Path: "tags"}
	for i, t := range ts {
		if t == nil || v.err != nil {
			continue
		}
		path := fmt.Sprintf("tags[%d]", i)
		p, err := wayfarer.NewTagParam(path, t.RecNo, t.TagRecNo, t.TagName, v.str(path+".value", t.Value, 1024), t.Checked)
		v.check(err)
		if f.Bool == nil || p.Checked {
			f.Bool = &p.Checked
		}
	}
	return f
}
