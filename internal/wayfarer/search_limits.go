package wayfarer

import (
	"github.com/wayfarerhq/wayfarer/client/contract"

	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Limits on the size of one person search, checked before any SQL runs
// (docs/search.md, "Limits"). Each is generous for real use: an agency
// filters on a handful of tags, not hundreds. They exist because the cost
// of a search grows with them, faster than linearly on PostgreSQL, whose
// planner took 45 s and 913 MB for 200 tag filters; a search beyond them
// is 400, resultCode 407, naming the parameter and the limit.
const (
	// MaxSearchFilterEntries is the most entries of an array of filter
	// objects: tags, marketing.
	MaxSearchFilterEntries = 20
	// MaxSearchFilterValues is the most values one filter compares: the
	// values of a StringSearchParam (each item of an In or NotIn list
	// counts) or of a NumSearchParam, the elements of activeStatus,
	// commType, cardType and queryOptimizerFlags.
	MaxSearchFilterValues = 1000
	// MaxSearchValues is the most values of one search, all filters
	// together.
	MaxSearchValues = 2000
	// MaxSearchReportNameLength bounds reportName, which becomes the file
	// name of a CSV report (a header of the answer).
	MaxSearchReportNameLength = 255
	// MaxSearchBaseURLLength bounds baseUrl, accepted and unused.
	MaxSearchBaseURLLength = 2048
	// MaxSearchBodyBytes is the largest personSearch body, whatever
	// --body-limit allows other calls; a larger one is 413 (resultCode
	// 413), as any body over a limit. The limits above keep a valid search
	// well below it.
	MaxSearchBodyBytes = 1 << 20
)

// searchTextSizes are the longest values, in characters, of the text
// filters: their columns' sizes (contract §2.3 and the person record).
var searchTextSizes = map[string]int{
	"UniqueId": 64, "firstName": 64, "middleName": 64, "lastName": 64,
	"commValue": 256, "commValueCountryDomain": 64, "commValueCityArea": 4, "commValueUserSpecific": 64,
	"tagName": 64, "tagValue": 1024, "marketingElementId": 64,
}

// CheckSearchLimits refuses a search larger than the limits above with a
// 407 naming the parameter and the limit. It looks at the decoded search
// only, so it holds however the body was decoded.
func CheckSearchLimits(c *SearchCriteria) error {
	if err := checkEntries("tags", len(c.Tags), "tag filters"); err != nil {
		return err
	}
	if err := checkEntries("marketing", len(c.Marketing), "marketing filters"); err != nil {
		return err
	}
	if err := checkFilterValues(searchFilterValues(c)); err != nil {
		return err
	}
	return checkBaseLimits(&c.BaseCriteria)
}

// checkFilterValues checks each filter's values (their number, the size of
// each text) and the values of the whole search.
func checkFilterValues(fs []filterValues) error {
	var total searchValueCount
	for _, f := range fs {
		if f.n > MaxSearchFilterValues {
			return searchValueError(f.path, "%d values are more than the %d one filter compares; split the search into several",
				f.n, MaxSearchFilterValues)
		}
		if f.size > 0 {
			for _, v := range f.texts {
				if n := utf8.RuneCountInString(v); n > f.size {
					return searchValueError(f.path, "a value is %d characters long, longer than the column's %d", n, f.size)
				}
			}
		}
		total.add(f)
	}
	if total.n > MaxSearchValues {
		return Errorf(KindInvalid, contract.CodeInvalidValue, MethodParam,
			"Invalid value: the search compares %d values in all (%s), more than the %d one search takes; split it into several.",
			total.n, total.largest(3), MaxSearchValues)
	}
	return nil
}

// checkBaseLimits checks the inherited parameters' own sizes.
func checkBaseLimits(c *BaseCriteria) error {
	if n := utf8.RuneCountInString(c.ReportName); n > MaxSearchReportNameLength {
		return searchValueError("reportName", "the name is %d characters long, longer than the %d a report name takes", n, MaxSearchReportNameLength)
	}
	if n := utf8.RuneCountInString(c.BaseURL); n > MaxSearchBaseURLLength {
		return searchValueError("baseUrl", "the value is %d characters long, longer than the %d it takes", n, MaxSearchBaseURLLength)
	}
	return nil
}

func checkEntries(param string, n int, what string) error {
	if n > MaxSearchFilterEntries {
		return searchValueError(param, "%d %s are more than the %d one search takes; narrow the search or split it into several",
			n, what, MaxSearchFilterEntries)
	}
	return nil
}

// filterValues are the values of one filter: their number, and for text
// filters the texts and their column's size.
type filterValues struct {
	path  string // the parameter, as the contract spells it
	param string // the top-level parameter, for the total's description
	n     int
	texts []string
	size  int
}

// searchFilterValues lists every filter of c that compares values.
func searchFilterValues(c *SearchCriteria) []filterValues {
	var fs []filterValues
	str := func(name string, p StringParam) {
		if len(p.Values) > 0 {
			fs = append(fs, filterValues{path: name + ".value", param: name, n: len(p.Values), texts: p.Values, size: searchTextSizes[name]})
		}
	}
	num := func(name string, p NumParam) {
		if len(p.Values) > 0 {
			fs = append(fs, filterValues{path: name + ".value", param: name, n: len(p.Values)})
		}
	}
	list := func(name string, vs []int64) {
		if len(vs) > 0 {
			fs = append(fs, filterValues{path: name, param: name, n: len(vs)})
		}
	}
	text := func(path, param, sizeOf string, v *string) {
		if v != nil {
			fs = append(fs, filterValues{path: path, param: param, n: 1, texts: []string{*v}, size: searchTextSizes[sizeOf]})
		}
	}
	num("recNo", c.RecNo)
	if c.UniqueID != "" {
		text("UniqueId", "UniqueId", "UniqueId", &c.UniqueID)
	}
	str("firstName", c.FirstName)
	str("middleName", c.MiddleName)
	str("lastName", c.LastName)
	list("activeStatus", c.ActiveStatus)
	num("AdvisorProfileRecNo", c.AdvisorProfileRecNo)
	num("birthdayMonth", c.BirthdayMonth)
	list("commType", c.CommType)
	str("commValue", c.CommValue)
	str("commValueCountryDomain", c.CommValueCountryDomain)
	str("commValueCityArea", c.CommValueCityArea)
	str("commValueUserSpecific", c.CommValueUserSpecific)
	list("cardType", c.CardType)
	num("cardSubType", c.CardSubType)
	num("actionItemAssignedToAppUserRecNo", c.ActionItemAssignedTo)
	num("profileRecNo", c.ProfileRecNo)
	list("queryOptimizerFlags", c.QueryOptimizerFlags)
	for i, m := range c.Marketing {
		text(fmt.Sprintf("marketing[%d].marketingElementId", i), "marketing", "marketingElementId", m.ElementID)
	}
	for i, t := range c.Tags {
		path := fmt.Sprintf("tags[%d]", i)
		text(path+".tagName", "tags", "tagName", t.TagName)
		if len(t.Value.Values) > 0 {
			fs = append(fs, filterValues{path: path + ".value.value", param: "tags", n: len(t.Value.Values), texts: t.Value.Values, size: searchTextSizes["tagValue"]})
		}
	}
	return fs
}

// searchValueCount adds up the values of a search, by parameter.
type searchValueCount struct {
	n       int
	byParam map[string]int
}

func (s *searchValueCount) add(f filterValues) {
	if s.byParam == nil {
		s.byParam = map[string]int{}
	}
	s.n += f.n
	s.byParam[f.param] += f.n
}

// largest names the k parameters holding the most values, e.g.
// "lastName 1000, recNo 1000, tags 40".
func (s *searchValueCount) largest(k int) string {
	names := make([]string, 0, len(s.byParam))
	for p := range s.byParam {
		names = append(names, p)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := s.byParam[names[i]], s.byParam[names[j]]
		return a > b || a == b && names[i] < names[j]
	})
	var parts []string
	for i, p := range names {
		if i == k {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, fmt.Sprintf("%s %d", p, s.byParam[p]))
	}
	return strings.Join(parts, ", ")
}
