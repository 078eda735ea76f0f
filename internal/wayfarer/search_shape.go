package wayfarer

import (
	"fmt"
	"strings"
)

// Shape describes a search for a log line: the parameters it uses, their
// conditions and how many values each compares, the number of columns and
// whether it pages. Never a value: values hold personal data, and a card
// number typed into the wrong field is still a card number. For example
// "lastName:StartingWith/1 tags:3(values 4) columns:5 rowCount".
func (c *SearchCriteria) Shape() string {
	var parts []string
	add := func(format string, args ...any) { parts = append(parts, fmt.Sprintf(format, args...)) }
	str := func(name string, p StringParam) {
		if p.Active() {
			add("%s:%s/%d", name, p.Cond, len(p.Values))
		}
	}
	num := func(name string, p NumParam) {
		if p.Active() {
			add("%s:%s/%d", name, p.Cond, len(p.Values))
		}
	}
	list := func(name string, vs []int64) {
		if len(vs) > 0 {
			add("%s/%d", name, len(vs))
		}
	}
	flag := func(name string, set bool) {
		if set {
			parts = append(parts, name)
		}
	}
	num("recNo", c.RecNo)
	flag("UniqueId", c.UniqueID != "")
	str("firstName", c.FirstName)
	str("middleName", c.MiddleName)
	str("lastName", c.LastName)
	list("activeStatus", c.ActiveStatus)
	num("AdvisorProfileRecNo", c.AdvisorProfileRecNo)
	num("birthdayMonth", c.BirthdayMonth)
	flag("birthdayRange", c.Birthday.Active())
	flag("createDateTime", c.Created.Active())
	flag("modifiedDateTime", c.Modified.Active())
	flag("emailPermitMarketing", c.EmailPermitMarketing != nil)
	flag("phonePermitMarketing", c.PhonePermitMarketing != nil)
	list("commType", c.CommType)
	str("commValue", c.CommValue)
	str("commValueCountryDomain", c.CommValueCountryDomain)
	str("commValueCityArea", c.CommValueCityArea)
	str("commValueUserSpecific", c.CommValueUserSpecific)
	list("cardType", c.CardType)
	num("cardSubType", c.CardSubType)
	flag("cardExpirationDate", c.CardExpiration.Active())
	flag("actionItemCompleted", c.ActionItemCompleted != nil)
	flag("actionItemDate", c.ActionItemDate.Active())
	num("actionItemAssignedToAppUserRecNo", c.ActionItemAssignedTo)
	num("profileRecNo", c.ProfileRecNo)
	if len(c.Marketing) > 0 {
		add("marketing:%d", len(c.Marketing))
	}
	if len(c.Tags) > 0 {
		values := 0
		for _, t := range c.Tags {
			values += len(t.Value.Values)
		}
		add("tags:%d(values %d)", len(c.Tags), values)
	}
	if c.PersonActivity != nil {
		// Its columns are never used: leave their count out.
		inner := strings.Fields(strings.Replace(" "+c.PersonActivity.Shape()+" ", " columns:0 ", " ", 1))
		add("personActivitySearchParams(%s)", strings.Join(inner, " "))
	}
	add("columns:%d", len(c.Columns))
	for _, g := range []struct {
		name  string
		group ColumnGroup
	}{{"cardRows", GroupCard}, {"tagRows", GroupTag}, {"actionItemRows", GroupActionItem}} {
		flag(g.name, c.ShowsGroup(g.group))
	}
	flag("summaryCount", c.HasColumn("summaryCount"))
	flag("distinct", c.Distinct)
	flag("startingRow", c.StartingRow > 0)
	flag("rowCount", c.RowCount > 0)
	flag("topRows", c.TopRows > 0)
	flag("readOnlyIntent", c.ReadOnlyIntent)
	flag("reportFormat", c.ReportFormat)
	return strings.Join(parts, " ")
}
