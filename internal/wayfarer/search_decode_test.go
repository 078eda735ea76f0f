package wayfarer

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

func mustDecode(t *testing.T, body string) *SearchCriteria {
	t.Helper()
	c, err := DecodeSearchCriteria([]byte(body))
	if err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return c
}

func colNames(cols []SearchColumn) []string {
	var out []string
	for _, c := range cols {
		out = append(out, c.Name)
	}
	return out
}

func TestSearchColumnCatalog(t *testing.T) {
	if len(SearchColumns) != 43 {
		t.Errorf("catalog has %d columns, contract §2.3 has 43", len(SearchColumns))
	}
	seen := map[string]bool{}
	for _, c := range SearchColumns {
		if seen[strings.ToLower(c.Name)] {
			t.Errorf("duplicate column %s", c.Name)
		}
		seen[strings.ToLower(c.Name)] = true
	}
	want := map[string]int{"name": 256, "tagValue": 1024, "cardDescription": 512, "cardNumber": 64, "uniqueId": 64,
		"firstName": 64, "middleName": 64, "lastName": 64, "tagName": 64, "branchRecName": 64, "advisorProfileName": 256}
	for n, size := range want {
		c, ok := LookupSearchColumn(n)
		if !ok || c.Size != size {
			t.Errorf("%s: size %d, want %d", n, c.Size, size)
		}
	}
	for _, n := range DefaultSearchColumns {
		if _, ok := LookupSearchColumn(n); !ok {
			t.Errorf("default column %s not in catalog", n)
		}
	}
	if c, _ := LookupSearchColumn("CARDNUMBER"); c.Name != "cardNumber" || c.Group != GroupCard {
		t.Errorf("case-insensitive lookup: %+v", c)
	}
}

func TestDecodeEmptyAndDefaults(t *testing.T) {
	for _, body := range []string{"", "  ", "{}", "null", `{"includeCols":null}`, `{"includeCols":[]}`} {
		c := mustDecode(t, body)
		if !c.DefaultCols || !reflect.DeepEqual(colNames(c.Columns), DefaultSearchColumns) {
			t.Errorf("%q: columns %v", body, colNames(c.Columns))
		}
		if c.LastName.Active() || c.RecNo.Active() || c.StartingRow != 0 || c.RowCount != 0 {
			t.Errorf("%q: unexpected filters %+v", body, c)
		}
	}
}

func TestDecodeIncludeCols(t *testing.T) {
	c := mustDecode(t, `{"includeCols":["name","RECNO","cardNumber","name","summaryCount"]}`)
	if got := colNames(c.Columns); !reflect.DeepEqual(got, []string{"name", "recNo", "cardNumber", "summaryCount"}) {
		t.Errorf("columns %v", got)
	}
	if c.DefaultCols || !c.ShowsGroup(GroupCard) || c.ShowsGroup(GroupTag) || !c.HasColumn("summaryCount") {
		t.Errorf("groups wrong")
	}
	// every catalog column is accepted
	var all []string
	for _, col := range SearchColumns {
		all = append(all, `"`+col.Name+`"`)
	}
	c = mustDecode(t, `{"includeCols":[`+strings.Join(all, ",")+`]}`)
	if len(c.Columns) != len(SearchColumns) {
		t.Errorf("all columns: %d", len(c.Columns))
	}
}

func wantError(t *testing.T, body string, code int, contains ...string) {
	t.Helper()
	_, err := DecodeSearchCriteria([]byte(body))
	e := AsError(err)
	if e == nil {
		t.Fatalf("%s: want error %d, got %v", body, code, err)
	}
	if e.Code != code || e.Kind != KindInvalid || e.Method != MethodParam {
		t.Errorf("%s: got %d/%v/%s %q, want %d/Invalid/Param", body, e.Code, e.Kind, e.Method, e.Message, code)
	}
	for _, s := range contains {
		if !strings.Contains(e.Message, s) {
			t.Errorf("%s: message %q lacks %q", body, e.Message, s)
		}
	}
}

func TestDecodeInvalidColumn(t *testing.T) {
	wantError(t, `{"includeCols":["recNo","BOGUS"]}`, contract.CodeInvalidColumn, "Invalid column: BOGUS")
	_, err := DecodeSearchCriteria([]byte(`{"includeCols":["BOGUS"]}`))
	if AsError(err).Message != "Invalid column: BOGUS" {
		t.Errorf("message %q", AsError(err).Message)
	}
	wantError(t, `{"includeCols":"recNo,name"}`, contract.CodeDeserialization, "Path 'includeCols'")
	wantError(t, `{"includeCols":["recNo",5]}`, contract.CodeDeserialization, "Path 'includeCols[1]'")
}

func TestDecodeShapeErrors(t *testing.T) {
	cases := []struct{ body, path string }{
		{`{"lastName":"Abl"}`, "lastName"},
		{`{"lastName":["Abl"]}`, "lastName"},
		{`{"lastName":{"value":"Abl","compareCondition":5}}`, "lastName.value"},
		{`{"lastName":{"value":[1],"compareCondition":5}}`, "lastName.value[0]"},
		{`{"lastName":{"value":["Abl"],"compareCondition":"5"}}`, "lastName.compareCondition"},
		{`{"lastName":{"value":["Abl"],"compareCondition":5.5}}`, "lastName.compareCondition"},
		{`{"recNo":5}`, "recNo"},
		{`{"recNo":{"value":5}}`, "recNo.value"},
		{`{"recNo":{"value":["5"]}}`, "recNo.value[0]"},
		{`{"recNo":{"value":[1.5]}}`, "recNo.value[0]"},
		{`{"recNo":{"value":[null]}}`, "recNo.value[0]"},
		{`{"commType":2}`, "commType"},
		{`{"cardType":[1,"2"]}`, "cardType[1]"},
		{`{"activeStatus":[70000]}`, "activeStatus[0]"},
		{`{"UniqueId":5}`, "UniqueId"},
		{`{"skipLookup":"true"}`, "skipLookup"},
		{`{"distinct":1}`, "distinct"},
		{`{"startingRow":"10"}`, "startingRow"},
		{`{"rowCount":1.5}`, "rowCount"},
		{`{"topRows":[1]}`, "topRows"},
		{`{"cardExpirationDateFrom":"12/31/2001"}`, "cardExpirationDateFrom"},
		{`{"cardExpirationDateFrom":{"date":"31.12.2001"}}`, "cardExpirationDateFrom.date"},
		{`{"actionItemDateTo":{"date":20011231}}`, "actionItemDateTo.date"},
		{`{"createDateTimeFrom":"2001-12-31"}`, "createDateTimeFrom"},
		{`{"modifiedDateTimeTo":{"dateTime":"yesterday"}}`, "modifiedDateTimeTo.dateTime"},
		{`{"marketing":{"marketingElementRecNo":1}}`, "marketing"},
		{`{"marketing":[{"marketingElementRecNo":"x"}]}`, "marketing[0].marketingElementRecNo"},
		{`{"marketing":[{"marketingElementId":"A","checked":"yes"}]}`, "marketing[0].checked"},
		{`{"tags":[{"tagName":5}]}`, "tags[0].tagName"},
		{`{"tags":[{"tagName":"VIP","value":"gold"}]}`, "tags[0].value"},
		{`{"tags":[{"tagName":"VIP","value":{"value":"gold"}}]}`, "tags[0].value.value"},
		{`{"emailPermitMarketing":"no"}`, "emailPermitMarketing"},
		{`{"actionItemCompleted":0}`, "actionItemCompleted"},
		{`{"queryOptimizerFlags":1}`, "queryOptimizerFlags"},
		{`{"priority":"high"}`, "priority"},
		{`{"baseUrl":1}`, "baseUrl"},
		{`{"birthdayMonthFrom":"1"}`, "birthdayMonthFrom"},
		{`{"includeColsExtended":"x"}`, "includeColsExtended"},
		{`{"personActivitySearchParams":[1]}`, "personActivitySearchParams"},
		{`[]`, ""},
		{`"x"`, ""},
		{`{"lastName":`, "lastName"},
		{`{"a":1}{}`, ""},
		{`{"LASTNAME":"Abl"}`, "LASTNAME"},
	}
	for _, tc := range cases {
		wantError(t, tc.body, contract.CodeDeserialization, "Error deserializing Json", "Path '"+tc.path+"'")
	}
}

func TestDecodeNoEcho(t *testing.T) {
	// A card number typed into the wrong field must not come back in the error.
	_, err := DecodeSearchCriteria([]byte(`{"activeStatus":[4111111111111111]}`))
	if e := AsError(err); e == nil || strings.Contains(e.Message, "4111") {
		t.Errorf("error %v", err)
	}
}

func TestDecodeValueErrors(t *testing.T) {
	long := strings.Repeat("x", 65)
	cases := []struct {
		body, contains string
	}{
		{`{"lastName":{"value":["` + long + `"],"compareCondition":1}}`, "lastName.value[0]"},
		{`{"firstName":{"value":["ok","` + long + `"],"compareCondition":1}}`, "firstName.value[1]"},
		{`{"middleName":{"value":["` + long + `"],"compareCondition":6}}`, "middleName.value[0]"},
		{`{"UniqueId":"` + long + `"}`, "UniqueId"},
		{`{"commValue":{"value":["` + strings.Repeat("x", 257) + `"],"compareCondition":6}}`, "commValue"},
		{`{"commValueCountryDomain":{"value":["` + long + `"],"compareCondition":1}}`, "commValueCountryDomain"},
		{`{"commValueCityArea":{"value":["12345"],"compareCondition":1}}`, "commValueCityArea"},
		{`{"commValueUserSpecific":{"value":["` + long + `"],"compareCondition":1}}`, "commValueUserSpecific"},
		{`{"tags":[{"tagName":"` + long + `"}]}`, "tags[0].tagName"},
		{`{"tags":[{"tagName":"a","value":{"value":["` + strings.Repeat("v", 1025) + `"],"compareCondition":1}}]}`, "tags[0].value.value[0]"},
		{`{"lastName":{"value":["a"],"compareCondition":11}}`, "lastName.compareCondition"},
		{`{"lastName":{"value":["a"],"compareCondition":-1}}`, "lastName.compareCondition"},
		{`{"lastName":{"value":[],"compareCondition":5}}`, "needs at least one value"},
		{`{"lastName":{"compareCondition":1}}`, "needs at least one value"},
		{`{"lastName":{"value":[" , "],"compareCondition":7}}`, "lastName.value[0]"},
		{`{"recNo":{"value":[1],"compareCondition":5}}`, "recNo.compareCondition"},
		{`{"recNo":{"compareCondition":2}}`, "needs at least one value"},
		{`{"startingRow":-1}`, "startingRow"},
		{`{"rowCount":-5}`, "rowCount"},
		{`{"topRows":-1}`, "topRows"},
		{`{"birthdayMonthFrom":13}`, "birthdayMonthFrom"},
		{`{"birthdayMonthTo":-1}`, "birthdayMonthTo"},
		{`{"birthdayDayFrom":32}`, "birthdayDayFrom"},
		{`{"birthdayDayTo":40}`, "birthdayDayTo"},
		{`{"marketing":[{"checked":true}]}`, "marketing[0]"},
		{`{"tags":[{"checked":false}]}`, "tags[0]"},
	}
	for _, tc := range cases {
		wantError(t, tc.body, contract.CodeInvalidValue, tc.contains)
	}
	// multi-byte characters count as one
	mustDecode(t, `{"lastName":{"value":["`+strings.Repeat("é", 64)+`"],"compareCondition":1}}`)
	// In splits before checking: a long comma list of short names is fine
	mustDecode(t, `{"lastName":{"value":["`+strings.Repeat("abcdefghij,", 20)+`abcdefghij"],"compareCondition":7}}`)
	// ... and names the element holding the item, not the item's rank
	wantError(t, `{"lastName":{"value":["a,b","c,`+long+`"],"compareCondition":7}}`, contract.CodeInvalidValue, "Path 'lastName.value[1]'")
}

func TestDecodeNotSupported(t *testing.T) {
	wantError(t, `{"includeColsExtended":[{"name":"x"}]}`, contract.CodeNotSupported, "includeColsExtended")
	wantError(t, `{"personActivitySearchParams":{"completed":true}}`, contract.CodeNotSupported, "personActivitySearchParams")
	for _, body := range []string{`{"includeColsExtended":null}`, `{"includeColsExtended":[]}`,
		`{"personActivitySearchParams":null}`, `{"personActivitySearchParams":{}}`} {
		mustDecode(t, body)
	}
}

func TestDecodeStringParam(t *testing.T) {
	c := mustDecode(t, `{"lastName":{"value":["Abl"],"compareCondition":5},
		"FIRSTNAME":{"VALUE":["a, b ,c"],"CompareCondition":7},
		"middleName":{"value":["x","y"]},
		"commValue":{"value":["@ex"],"compareCondition":6},
		"commValueCountryDomain":{"compareCondition":3},
		"commValueCityArea":{"value":[],"compareCondition":0},
		"commValueUserSpecific":{"value":["q,r"],"compareCondition":8}}`)
	check := func(name string, got StringParam, cond StringCondition, vals ...string) {
		t.Helper()
		if got.Cond != cond || !reflect.DeepEqual(got.Values, vals) {
			t.Errorf("%s: %+v, want %v %q", name, got, cond, vals)
		}
	}
	check("lastName", c.LastName, StrStartingWith, "Abl")
	check("firstName", c.FirstName, StrIn, "a", "b", "c")
	check("middleName", c.MiddleName, StrEqual, "x", "y") // missing condition means Equal
	check("commValue", c.CommValue, StrContains, "@ex")
	check("commValueCountryDomain", c.CommValueCountryDomain, StrBlank)
	check("commValueCityArea", c.CommValueCityArea, StrIgnore)
	check("commValueUserSpecific", c.CommValueUserSpecific, StrNotIn, "q", "r")
	// Equal does not split
	c = mustDecode(t, `{"lastName":{"value":["a,b"],"compareCondition":1}}`)
	check("equal", c.LastName, StrEqual, "a,b")
	// null param is absent, explicit 0 ignores values (null elements: TestDecodeNonStringElements)
	c = mustDecode(t, `{"lastName":{"value":["x"],"compareCondition":2},"firstName":null,"middleName":{"value":["x"],"compareCondition":0}}`)
	check("NotEqual", c.LastName, StrNotEqual, "x")
	if c.FirstName.Active() || c.MiddleName.Active() {
		t.Error("null or Ignore param active")
	}
	// the last of duplicate names wins
	c = mustDecode(t, `{"lastName":{"value":["a"],"compareCondition":1},"LastName":{"value":["b"],"compareCondition":6}}`)
	check("dup", c.LastName, StrContains, "b")
}

// stringParamFields are the parameters of type StringSearchParam, with the
// path their value array has, and a body builder for a StringSearchParam
// object (members) at that place. Tags hold one nested and one flat.
var stringParamFields = []struct {
	valuePath string
	body      func(members string) string
}{
	{"firstName.value", func(m string) string { return `{"firstName":{` + m + `}}` }},
	{"middleName.value", func(m string) string { return `{"middleName":{` + m + `}}` }},
	{"lastName.value", func(m string) string { return `{"lastName":{` + m + `}}` }},
	{"commValue.value", func(m string) string { return `{"commValue":{` + m + `}}` }},
	{"commValueCountryDomain.value", func(m string) string { return `{"commValueCountryDomain":{` + m + `}}` }},
	{"commValueCityArea.value", func(m string) string { return `{"commValueCityArea":{` + m + `}}` }},
	{"commValueUserSpecific.value", func(m string) string { return `{"commValueUserSpecific":{` + m + `}}` }},
	{"tags[0].value.value", func(m string) string { return `{"tags":[{"tagName":"VIP","value":{` + m + `}}]}` }},
	{"tags[0].value", func(m string) string { return `{"tags":[{"tagName":"VIP",` + m + `}]}` }},
}

func TestDecodeNonStringElements(t *testing.T) {
	// An element of a string array that is not a string is a wrong shape,
	// null included, naming the element.
	for _, elem := range []string{"null", "1", "1.5", "{}", `{"a":"b"}`, "[]", `["recNo"]`, "true", "false"} {
		wantError(t, `{"includeCols":[`+elem+`]}`, contract.CodeDeserialization,
			"Error deserializing Json: expected a string, found ", "Path 'includeCols[0]'.")
		wantError(t, `{"includeCols":["recNo",`+elem+`,"name"]}`, contract.CodeDeserialization, "Path 'includeCols[1]'.")
		for _, f := range stringParamFields {
			// whatever the condition: a wrong shape is never ignored
			for _, cond := range []string{"", `,"compareCondition":0`, `,"compareCondition":1`, `,"compareCondition":3`, `,"compareCondition":7`} {
				wantError(t, f.body(`"value":["a",`+elem+`]`+cond), contract.CodeDeserialization,
					"expected a string, found ", "Path '"+f.valuePath+"[1]'.")
			}
		}
	}
	// the exact wording, as the other shape errors
	_, err := DecodeSearchCriteria([]byte(`{"includeCols":[null]}`))
	if got, want := AsError(err).Message, "Error deserializing Json: expected a string, found null. Path 'includeCols[0]'."; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	_, err = DecodeSearchCriteria([]byte(`{"lastName":{"value":[null],"compareCondition":1}}`))
	if got, want := AsError(err).Message, "Error deserializing Json: expected a string, found null. Path 'lastName.value[0]'."; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	// the arrays themselves may still be null or empty
	for _, body := range []string{`{"includeCols":null}`, `{"includeCols":[]}`, `{"lastName":{"value":null,"compareCondition":3}}`,
		`{"lastName":{"value":[],"compareCondition":4}}`} {
		mustDecode(t, body)
	}
}

func TestDecodeEmptyValues(t *testing.T) {
	const hint = "to find blank values use compareCondition 3 (Blank) or 4 (NotBlank)"
	// Every condition that compares its values refuses an empty one, on
	// every StringSearchParam, naming the element.
	for _, f := range stringParamFields {
		for _, cond := range []string{"1", "2", "5", "6", "7", "8", "9", "10"} {
			wantError(t, f.body(`"value":[""],"compareCondition":`+cond), contract.CodeInvalidValue,
				"Invalid value: the value is empty", "compareCondition "+cond+" (", hint, "Path '"+f.valuePath+"[0]'.")
			wantError(t, f.body(`"value":["a",""],"compareCondition":`+cond), contract.CodeInvalidValue, hint, "Path '"+f.valuePath+"[1]'.")
		}
		// no condition with values is Equal
		wantError(t, f.body(`"value":[""]`), contract.CodeInvalidValue, "compareCondition 1 (Equal)", hint, "Path '"+f.valuePath+"[0]'.")
		// Ignore, Blank and NotBlank do not use their values, whatever they hold
		for _, cond := range []StringCondition{StrIgnore, StrBlank, StrNotBlank} {
			for _, vals := range []string{`""`, `" "`, `"a,,b"`, `"",""`, `"` + strings.Repeat("x", 2000) + `"`} {
				body := f.body(fmt.Sprintf(`"value":[%s],"compareCondition":%d`, vals, cond))
				c := mustDecode(t, body)
				var p StringParam
				switch {
				case strings.HasPrefix(f.valuePath, "tags"):
					p = c.Tags[0].Value
				case strings.HasPrefix(f.valuePath, "firstName"):
					p = c.FirstName
				case strings.HasPrefix(f.valuePath, "middleName"):
					p = c.MiddleName
				case strings.HasPrefix(f.valuePath, "lastName"):
					p = c.LastName
				case strings.HasPrefix(f.valuePath, "commValue."):
					p = c.CommValue
				case strings.HasPrefix(f.valuePath, "commValueCountryDomain"):
					p = c.CommValueCountryDomain
				case strings.HasPrefix(f.valuePath, "commValueCityArea"):
					p = c.CommValueCityArea
				case strings.HasPrefix(f.valuePath, "commValueUserSpecific"):
					p = c.CommValueUserSpecific
				}
				if p.Cond != cond || p.Values != nil {
					t.Errorf("%s: %+v, want %v without values", body, p, cond)
				}
			}
		}
	}
	// In and NotIn: an empty item of a comma-separated list, once trimmed
	lists := []struct{ vals, contains string }{
		{`"a,,b"`, "item 2 of 3 of the comma-separated list is empty (items are trimmed)"},
		{`"a, ,b"`, "item 2 of 3 "},
		{`"a,b,"`, "item 3 of 3 "},
		{`",a"`, "item 1 of 2 "},
		{`" , "`, "item 1 of 2 "},
		{`","`, "item 1 of 2 "},
		{`" "`, "the value is empty or only spaces (In and NotIn trim their items)"},
		{`"\t"`, "the value is empty or only spaces"},
		{`""`, "the value is empty or only spaces"},
	}
	for _, l := range lists {
		wantError(t, `{"lastName":{"value":["x",`+l.vals+`],"compareCondition":7}}`, contract.CodeInvalidValue,
			l.contains, "compareCondition 7 (In)", hint, "Path 'lastName.value[1]'.")
		wantError(t, `{"commValue":{"value":[`+l.vals+`],"compareCondition":8}}`, contract.CodeInvalidValue,
			l.contains, "compareCondition 8 (NotIn)", hint, "Path 'commValue.value[0]'.")
	}
	// the whole description, once
	_, err := DecodeSearchCriteria([]byte(`{"lastName":{"value":[""],"compareCondition":5}}`))
	want := "Invalid value: the value is empty, and compareCondition 5 (StartingWith) needs a value to compare; " +
		"to find blank values use compareCondition 3 (Blank) or 4 (NotBlank). Path 'lastName.value[0]'."
	if got := AsError(err).Message; got != want {
		t.Errorf("message\n got %q\nwant %q", got, want)
	}
}

func TestDecodeWhitespaceValues(t *testing.T) {
	// Values are compared as sent, untrimmed: a value of only spaces is a
	// value (Contains " " finds two-word values). Only In and NotIn trim,
	// their items.
	c := mustDecode(t, `{"lastName":{"value":[" "],"compareCondition":1},"firstName":{"value":["  "],"compareCondition":6},
		"middleName":{"value":[" Ab "],"compareCondition":5},"commValue":{"value":[" a , b "],"compareCondition":7},
		"commValueCityArea":{"value":["\t"],"compareCondition":10},"commValueUserSpecific":{"value":[" x ,y"],"compareCondition":8}}`)
	for _, tc := range []struct {
		name string
		got  StringParam
		want StringParam
	}{
		{"lastName", c.LastName, StringParam{StrEqual, []string{" "}}},
		{"firstName", c.FirstName, StringParam{StrContains, []string{"  "}}},
		{"middleName", c.MiddleName, StringParam{StrStartingWith, []string{" Ab "}}},
		{"commValue", c.CommValue, StringParam{StrIn, []string{"a", "b"}}},
		{"commValueCityArea", c.CommValueCityArea, StringParam{StrNotContaining, []string{"\t"}}},
		{"commValueUserSpecific", c.CommValueUserSpecific, StringParam{StrNotIn, []string{"x", "y"}}},
	} {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.name, tc.got, tc.want)
		}
	}
	// and spaces count towards the column's size
	wantError(t, `{"commValueCityArea":{"value":["12 34"],"compareCondition":1}}`, contract.CodeInvalidValue, "Path 'commValueCityArea.value[0]'.")
	mustDecode(t, `{"commValueCityArea":{"value":[" 12 , 34 "],"compareCondition":7}}`) // In trims first
}

func TestDecodeNumParam(t *testing.T) {
	c := mustDecode(t, `{"recNo":{"value":[1825,1],"compareCondition":1},
		"profileRecNo":{"value":[3]},
		"birthdayMonth":{"value":[1,2],"compareCondition":2},
		"cardSubType":{"compareCondition":3},
		"advisorprofilerecno":{"compareCondition":4},
		"actionItemAssignedToAppUserRecNo":{"value":[9],"compareCondition":0}}`)
	check := func(name string, got NumParam, cond NumCondition, vals ...int64) {
		t.Helper()
		if got.Cond != cond || !reflect.DeepEqual(got.Values, vals) && len(vals)+len(got.Values) > 0 {
			t.Errorf("%s: %+v, want %v %v", name, got, cond, vals)
		}
	}
	check("recNo", c.RecNo, NumEqual, 1825, 1)
	check("profileRecNo", c.ProfileRecNo, NumEqual, 3)
	check("birthdayMonth", c.BirthdayMonth, NumNotEqual, 1, 2)
	check("cardSubType", c.CardSubType, NumBlank)
	check("advisor", c.AdvisorProfileRecNo, NumNotBlank)
	if c.ActionItemAssignedTo.Active() {
		t.Error("condition 0 must ignore")
	}
	c = mustDecode(t, `{"recNo":{"value":[]}}`)
	if c.RecNo.Active() {
		t.Error("no values, no condition: ignore")
	}
}

func TestDecodeScalarsAndArrays(t *testing.T) {
	c := mustDecode(t, `{"UniqueId":"U-1","skipLookup":true,"readOnlyIntent":true,"distinct":true,
		"startingRow":10,"rowCount":20,"topRows":100,"baseUrl":"https://x","reportFormat":true,"reportName":"r.csv",
		"queryOptimizerFlags":[1],"priority":5,"commType":[1,2],"cardType":[3],"activeStatus":[0,2],
		"emailPermitMarketing":false,"phonePermitMarketing":true,"actionItemCompleted":true,
		"birthdayMonthFrom":12,"birthdayMonthTo":1,"birthdayDayFrom":20,"birthdayDayTo":0,
		"unknownParam":{"whatever":[1,2]}}`)
	if c.UniqueID != "U-1" || !c.SkipLookup || !c.ReadOnlyIntent || !c.Distinct || c.StartingRow != 10 ||
		c.RowCount != 20 || c.TopRows != 100 || c.BaseURL != "https://x" || !c.ReportFormat || c.ReportName != "r.csv" ||
		!reflect.DeepEqual(c.QueryOptimizerFlags, []int64{1}) || c.Priority != 5 {
		t.Errorf("scalars: %+v", c)
	}
	if !reflect.DeepEqual(c.CommType, []int64{1, 2}) || !reflect.DeepEqual(c.CardType, []int64{3}) || !reflect.DeepEqual(c.ActiveStatus, []int64{0, 2}) {
		t.Errorf("arrays: %v %v %v", c.CommType, c.CardType, c.ActiveStatus)
	}
	if c.EmailPermitMarketing == nil || *c.EmailPermitMarketing || c.PhonePermitMarketing == nil || !*c.PhonePermitMarketing ||
		c.ActionItemCompleted == nil || !*c.ActionItemCompleted {
		t.Error("optional bools")
	}
	if c.Birthday != (BirthdayRange{MonthFrom: 12, MonthTo: 1, DayFrom: 20}) {
		t.Errorf("birthday %+v", c.Birthday)
	}
	c = mustDecode(t, `{"activeStatus":[],"emailPermitMarketing":null,"UniqueId":null}`)
	if c.ActiveStatus != nil || c.EmailPermitMarketing != nil || c.UniqueID != "" {
		t.Error("empty array / null")
	}
}

func TestDecodeDates(t *testing.T) {
	c := mustDecode(t, `{"cardExpirationDateFrom":{"date":"12/31/2001"},"cardExpirationDateTo":{"date":"2002-01-31"},
		"actionItemDateFrom":{"date":"1/5/2003"},"actionItemDateTo":{"date":"2003-02-01T00:00:00"}}`)
	if c.CardExpiration != (DateRange{"2001-12-31", "2002-01-31"}) || c.ActionItemDate != (DateRange{"2003-01-05", "2003-02-01"}) {
		t.Errorf("dates %+v %+v", c.CardExpiration, c.ActionItemDate)
	}
	c = mustDecode(t, `{"createDateTimeFrom":{"dateTime":"2024-01-02T03:04:05+02:00"},"createDateTimeTo":{"date":"01/31/2024"},
		"modifiedDateTimeFrom":{"date":"2024-03-01"},"modifiedDateTimeTo":{"dateTime":"2024-03-05T10:00:00"}}`)
	ts := func(s string) time.Time { v, _ := time.Parse(time.RFC3339Nano, s); return v }
	if !c.Created.From.Equal(ts("2024-01-02T01:04:05Z")) || !c.Created.Before.Equal(ts("2024-02-01T00:00:00Z")) {
		t.Errorf("created %v %v", c.Created.From, c.Created.Before)
	}
	if !c.Modified.From.Equal(ts("2024-03-01T00:00:00Z")) || !c.Modified.Before.Equal(ts("2024-03-05T10:00:00.000001Z")) {
		t.Errorf("modified %v %v", c.Modified.From, c.Modified.Before)
	}
	c = mustDecode(t, `{"createDateTimeFrom":{},"cardExpirationDateTo":{"date":null},"modifiedDateTimeTo":null}`)
	if c.Created.Active() || c.CardExpiration.Active() || c.Modified.Active() {
		t.Error("empty date params must be absent")
	}
}

func TestDecodeMarketingAndTags(t *testing.T) {
	c := mustDecode(t, `{"marketing":[{"affiliation":1,"marketingElementRecNo":5,"marketingElementId":"NOEMM","checked":true},
		{"marketingElementId":"X","checked":false},{"marketingElementRecNo":7},null]}`)
	if len(c.Marketing) != 3 || *c.Marketing[0].Affiliation != 1 || *c.Marketing[0].ElementRecNo != 5 ||
		*c.Marketing[0].ElementID != "NOEMM" || !c.Marketing[0].Checked || c.Marketing[1].Checked ||
		c.Marketing[1].ElementRecNo != nil || !c.Marketing[2].Checked {
		t.Errorf("marketing %+v", c.Marketing)
	}
	c = mustDecode(t, `{"tags":[{"tagRecNo":7},{"tagName":"VIP","value":{"value":["gold"],"compareCondition":1},"checked":false},
		{"tagName":"Diet","value":["veg"],"compareCondition":6},{"value":{"value":["x"]}}]}`)
	if len(c.Tags) != 4 || *c.Tags[0].TagRecNo != 7 || !c.Tags[0].Checked || c.Tags[0].Value.Active() {
		t.Fatalf("tags %+v", c.Tags)
	}
	if *c.Tags[1].TagName != "VIP" || c.Tags[1].Checked || c.Tags[1].Value.Cond != StrEqual || c.Tags[1].Value.Values[0] != "gold" {
		t.Errorf("tag 1 %+v", c.Tags[1])
	}
	if c.Tags[2].Value.Cond != StrContains || c.Tags[2].Value.Values[0] != "veg" {
		t.Errorf("flat tag value %+v", c.Tags[2])
	}
	if c.Tags[3].TagName != nil || c.Tags[3].Value.Cond != StrEqual {
		t.Errorf("value-only tag %+v", c.Tags[3])
	}
}

func TestStringParamMatches(t *testing.T) {
	s := func(v string) *string { return &v }
	cases := []struct {
		p    StringParam
		v    *string
		want bool
	}{
		{StringParam{StrIgnore, nil}, nil, true},
		{StringParam{StrEqual, []string{"abler"}}, s("Abler"), true},
		{StringParam{StrEqual, []string{"abler"}}, s("Ablers"), false},
		{StringParam{StrEqual, []string{"x", "ABLER"}}, s("abler"), true},
		{StringParam{StrEqual, []string{"abler"}}, nil, false},
		{StringParam{StrNotEqual, []string{"abler"}}, s("Abler"), false},
		{StringParam{StrNotEqual, []string{"abler"}}, s("Able"), true},
		{StringParam{StrNotEqual, []string{"abler"}}, nil, true},
		{StringParam{StrBlank, nil}, nil, true},
		{StringParam{StrBlank, nil}, s(""), true},
		{StringParam{StrBlank, nil}, s(" "), false},
		{StringParam{StrNotBlank, nil}, s(""), false},
		{StringParam{StrNotBlank, nil}, s("a"), true},
		{StringParam{StrStartingWith, []string{"ABL"}}, s("Abler"), true},
		{StringParam{StrStartingWith, []string{"bl"}}, s("Abler"), false},
		{StringParam{StrContains, []string{"BLE"}}, s("Abler"), true},
		{StringParam{StrContains, []string{"%"}}, s("Abler"), false},
		{StringParam{StrIn, []string{"a", "abler"}}, s("ABLER"), true},
		{StringParam{StrNotIn, []string{"a", "abler"}}, s("ABLER"), false},
		{StringParam{StrNotStartingWith, []string{"x", "ab"}}, s("Abler"), false},
		{StringParam{StrNotStartingWith, []string{"x"}}, nil, true},
		{StringParam{StrNotContaining, []string{"z"}}, s("Abler"), true},
		{StringParam{StrNotContaining, []string{"bl"}}, s("Abler"), false},
		{StringParam{StrEqual, []string{"émile"}}, s("Émile"), false}, // ASCII folding, as SQLite
	}
	for _, tc := range cases {
		if got := tc.p.Matches(tc.v); got != tc.want {
			v := "<nil>"
			if tc.v != nil {
				v = *tc.v
			}
			t.Errorf("%v %q on %q: %v", tc.p.Cond, tc.p.Values, v, got)
		}
	}
}

func TestNumParamMatches(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	p := NumParam{NumEqual, []int64{1, 2}}
	if !p.Matches(n(2)) || p.Matches(n(3)) || p.Matches(nil) {
		t.Error("Equal")
	}
	p.Cond = NumNotEqual
	if p.Matches(n(2)) || !p.Matches(n(3)) || !p.Matches(nil) {
		t.Error("NotEqual")
	}
	if !(NumParam{Cond: NumBlank}).Matches(nil) || (NumParam{Cond: NumBlank}).Matches(n(0)) {
		t.Error("Blank")
	}
	if (NumParam{Cond: NumNotBlank}).Matches(nil) || !(NumParam{Cond: NumNotBlank}).Matches(n(0)) {
		t.Error("NotBlank")
	}
}

func TestBirthdayRangeMatches(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	cases := []struct {
		r          BirthdayRange
		month, day *int64
		want       bool
	}{
		{BirthdayRange{}, nil, nil, true},
		{BirthdayRange{MonthFrom: 3, MonthTo: 5}, n(4), nil, true},
		{BirthdayRange{MonthFrom: 3, MonthTo: 5}, n(6), n(1), false},
		{BirthdayRange{MonthFrom: 11, MonthTo: 2}, n(12), nil, true},
		{BirthdayRange{MonthFrom: 11, MonthTo: 2}, n(1), nil, true},
		{BirthdayRange{MonthFrom: 11, MonthTo: 2}, n(3), nil, false},
		{BirthdayRange{MonthFrom: 11}, n(12), nil, true},
		{BirthdayRange{MonthTo: 2}, n(3), nil, false},
		{BirthdayRange{DayFrom: 28, DayTo: 3}, n(5), n(30), true},
		{BirthdayRange{DayFrom: 28, DayTo: 3}, n(5), n(2), true},
		{BirthdayRange{DayFrom: 28, DayTo: 3}, n(5), n(10), false},
		{BirthdayRange{DayFrom: 10}, nil, n(10), true},
		{BirthdayRange{MonthFrom: 12, DayFrom: 20, MonthTo: 1, DayTo: 10}, n(12), n(25), true},
		{BirthdayRange{MonthFrom: 12, DayFrom: 20, MonthTo: 1, DayTo: 10}, n(1), n(10), true},
		{BirthdayRange{MonthFrom: 12, DayFrom: 20, MonthTo: 1, DayTo: 10}, n(1), n(11), false},
		{BirthdayRange{MonthFrom: 12, DayFrom: 20, MonthTo: 1, DayTo: 10}, n(12), n(19), false},
		{BirthdayRange{MonthFrom: 12, DayFrom: 20, MonthTo: 1, DayTo: 10}, n(12), nil, false},
		{BirthdayRange{MonthFrom: 3, DayFrom: 15, MonthTo: 4, DayTo: 15}, n(3), n(31), true},
		{BirthdayRange{MonthFrom: 3, DayFrom: 15, MonthTo: 4, DayTo: 15}, n(4), n(16), false},
	}
	for _, tc := range cases {
		if got := tc.r.Matches(tc.month, tc.day); got != tc.want {
			t.Errorf("%+v on %v/%v: %v", tc.r, tc.month, tc.day, got)
		}
	}
}

func TestSearchResultJSONAndCSV(t *testing.T) {
	rec, _ := LookupSearchColumn("recNo")
	name, _ := LookupSearchColumn("name")
	when, _ := LookupSearchColumn("createDateTime")
	perm, _ := LookupSearchColumn("primaryEmailMarketingPermission")
	exp, _ := LookupSearchColumn("cardExpDate")
	r := &SearchResult{Columns: []SearchColumn{name, rec, when, perm, exp}, Rows: []SearchRow{
		{"Abler/Ken", int64(7), time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), true, "2026-12-31"},
		{"O\"Neil/<b>", int64(8), nil, nil, nil},
	}}
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	want := `[{"name":"Abler/Ken","recNo":7,"createDateTime":"2024-01-02T03:04:05Z","primaryEmailMarketingPermission":true,"cardExpDate":"2026-12-31"},{"name":"O\"Neil/\u003cb\u003e","recNo":8}]`
	if b.String() != want {
		t.Errorf("json\n got %s\nwant %s", b.String(), want)
	}
	b.Reset()
	(&SearchResult{}).WriteJSON(&b)
	if b.String() != "[]" {
		t.Errorf("empty: %s", b.String())
	}
	b.Reset()
	r.Rows = append(r.Rows, SearchRow{"=cmd()", int64(9), nil, false, nil})
	if err := r.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	wantCSV := "name,recNo,createDateTime,primaryEmailMarketingPermission,cardExpDate\n" +
		"Abler/Ken,7,2024-01-02T03:04:05Z,true,2026-12-31\n" +
		"\"O\"\"Neil/<b>\",8,,,\n" +
		"'=cmd(),9,,false,\n"
	if b.String() != wantCSV {
		t.Errorf("csv\n got %q\nwant %q", b.String(), wantCSV)
	}
}

func TestSearchParamNamesComplete(t *testing.T) {
	if len(SearchParamNames) != len(srSearchParamsForTest()) {
		t.Errorf("%d names, %d decoders", len(SearchParamNames), len(srSearchParamsForTest()))
	}
	for _, n := range SearchParamNames {
		if _, ok := srSearchParamsForTest()[strings.ToLower(n)]; !ok {
			t.Errorf("no decoder for %s", n)
		}
	}
	// contract §2.4 lists 48 parameters
	if len(SearchParamNames) != 48 {
		t.Errorf("%d parameters, contract §2.4 has 48", len(SearchParamNames))
	}
}

func srSearchParamsForTest() map[string]srParamDecoder { return searchParams }

func TestSearchDecodeLastKeyWins(t *testing.T) {
	c, err := DecodeSearchCriteria([]byte(`{"includeCols":["BOGUS"],"IncludeCols":["recNo"],"lastName":"bad","lastName":{"value":["Abl"],"compareCondition":5}}`))
	if err != nil {
		t.Fatalf("an overridden value was validated: %v", err)
	}
	if len(c.Columns) != 1 || c.Columns[0].Name != "recNo" || c.LastName.Cond != 5 {
		t.Fatalf("criteria %+v", c)
	}
	// the last one is validated
	if _, err := DecodeSearchCriteria([]byte(`{"includeCols":["recNo"],"includeCols":["BOGUS"]}`)); err == nil {
		t.Fatal("the last value must be validated")
	}
}

// Search bodies get the text rules of person saves: invalid UTF-8 is 406 and
// a control character 407, each naming the parameter, never silently
// replaced or passed to the database.
func TestDecodeSearchText(t *testing.T) {
	for _, c := range []struct {
		body, want string
		code       int
	}{
		{"{\"lastName\":{\"value\":[\"Ab\xfflr\"],\"compareCondition\":5}}", "Path 'lastName.value[0]'", contract.CodeDeserialization},
		{`{"lastName":{"value":["Ab\u0000"],"compareCondition":5}}`, "Path 'lastName.value[0]'", contract.CodeInvalidValue},
		{`{"reportName":"a\u001bb"}`, "Path 'reportName'", contract.CodeInvalidValue},
	} {
		_, err := DecodeSearchCriteria([]byte(c.body))
		e := AsError(err)
		if e == nil || e.Code != c.code || !strings.Contains(e.Message, c.want) {
			t.Errorf("%q: %v, want code %d naming %s", c.body, err, c.code, c.want)
		}
	}
	if _, err := DecodeSearchCriteria([]byte("{\"lastName\":{\"value\":[\"Zo\u00eb\\tX\"],\"compareCondition\":5}}")); err != nil {
		t.Errorf("tab and non-ASCII letters are text: %v", err)
	}
}
