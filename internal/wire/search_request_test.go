package wire

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

func mustDecode(t *testing.T, body string) *wayfarer.SearchCriteria {
	t.Helper()
	c, err := DecodePersonSearch(jsoncodec.Strict, []byte(body))
	if err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return c
}

func colNames(cols []wayfarer.SearchColumn) []string {
	var out []string
	for _, c := range cols {
		out = append(out, c.Name)
	}
	return out
}

func TestDecodeEmptyAndDefaults(t *testing.T) {
	for _, body := range []string{"", "  ", "{}", "null", `{"includeCols":null}`, `{"includeCols":[]}`} {
		c := mustDecode(t, body)
		if !c.DefaultCols || !reflect.DeepEqual(colNames(c.Columns), wayfarer.DefaultSearchColumns) {
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
	if c.DefaultCols || !c.ShowsGroup(wayfarer.GroupCard) || c.ShowsGroup(wayfarer.GroupTag) || !c.HasColumn("summaryCount") {
		t.Errorf("groups wrong")
	}
	// every catalog column is accepted
	var all []string
	for _, col := range wayfarer.SearchColumns {
		all = append(all, `"`+col.Name+`"`)
	}
	c = mustDecode(t, `{"includeCols":[`+strings.Join(all, ",")+`]}`)
	if len(c.Columns) != len(wayfarer.SearchColumns) {
		t.Errorf("all columns: %d", len(c.Columns))
	}
}

func wantError(t *testing.T, body string, code int, contains ...string) {
	t.Helper()
	_, err := DecodePersonSearch(jsoncodec.Strict, []byte(body))
	e := wayfarer.AsError(err)
	if e == nil {
		t.Fatalf("%s: want error %d, got %v", body, code, err)
	}
	if e.Code != code || e.Kind != wayfarer.KindInvalid || e.Method != wayfarer.MethodParam {
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
	_, err := DecodePersonSearch(jsoncodec.Strict, []byte(`{"includeCols":["BOGUS"]}`))
	if wayfarer.AsError(err).Message != "Invalid column: BOGUS" {
		t.Errorf("message %q", wayfarer.AsError(err).Message)
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
		{`{"recNo":{"value":[null,"1"]}}`, "recNo.value[1]"}, // a null element is skipped (TestDecodeNullValuesSkipped), a string is not
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
		{`{"tags":[{"recNo":1,"tagName":"VIP","value":"gold"}]}`, "tags[0].value"},
		{`{"tags":[{"recNo":1,"tagName":"VIP","value":{"value":"gold"}}]}`, "tags[0].value.value"},
		{`{"tags":[{"recNo":"1"}]}`, "tags[0].recNo"},
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
		{`{"rowCount":1}{}`, ""},
		{`{"LASTNAME":"Abl"}`, "LASTNAME"},
	}
	for _, tc := range cases {
		if tc.path == "" { // the whole body: no path
			wantError(t, tc.body, contract.CodeDeserialization, "Error deserializing Json")
			continue
		}
		wantError(t, tc.body, contract.CodeDeserialization, "Error deserializing Json", "Path '"+tc.path+"'")
	}
	// one form for a wrong type, whatever the parameter
	for body, want := range map[string]string{
		`{"lastName":"Abl"}`:                    "Error deserializing Json: expected an object, found a string. Path 'lastName'.",
		`{"rowCount":"10"}`:                     "Error deserializing Json: expected a whole number, found a string. Path 'rowCount'.",
		`{"cardType":[1,"2"]}`:                  "Error deserializing Json: expected a whole number from -32768 to 32767, found a string. Path 'cardType[1]'.",
		`{"activeStatus":[70000]}`:              "Error deserializing Json: expected a whole number from -32768 to 32767, found a number. Path 'activeStatus[0]'.",
		`{"distinct":1}`:                        "Error deserializing Json: expected true or false, found a number. Path 'distinct'.",
		`{"queryOptimizerFlags":[true]}`:        "Error deserializing Json: expected a whole number from -2147483648 to 2147483647, found true or false. Path 'queryOptimizerFlags[0]'.",
		`[]`:                                    "Error deserializing Json: expected an object, found an array.",
		`{"cardExpirationDateFrom":{"date":1}}`: "Error deserializing Json: expected a string, found a number. Path 'cardExpirationDateFrom.date'.",
		`{"cardExpirationDateFrom":{"date":"31.12.2001"}}`: "Error deserializing Json: expected a date (YYYY-MM-DD, MM/DD/YYYY or an ISO date-time), " +
			"found a string in another form. Path 'cardExpirationDateFrom.date'.",
		`{"lastName":`: "Error deserializing Json: the body ends before the JSON value does. Path 'lastName', line 1, position 13.",
	} {
		_, err := DecodePersonSearch(jsoncodec.Strict, []byte(body))
		if e := wayfarer.AsError(err); e == nil || e.Message != want {
			t.Errorf("%s:\n got %v\nwant %s", body, err, want)
		}
	}
}

func TestDecodeNoEcho(t *testing.T) {
	// A card number typed into the wrong field must not come back in the error.
	_, err := DecodePersonSearch(jsoncodec.Strict, []byte(`{"activeStatus":[4111111111111111]}`))
	if e := wayfarer.AsError(err); e == nil || strings.Contains(e.Message, "4111") {
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
		{`{"tags":[{"recNo":1,"tagName":"` + long + `"}]}`, "tags[0].tagName"},
		{`{"tags":[{"recNo":1,"tagName":"a","value":{"value":["` + strings.Repeat("v", 1025) + `"],"compareCondition":1}}]}`, "tags[0].value.value[0]"},
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
		{`{"tags":[{"recNo":1,"tagRecNo":2}]}`, "tags[0].tagRecNo"},
	}
	for _, tc := range cases {
		wantError(t, tc.body, contract.CodeInvalidValue, tc.contains)
	}
	// a tags entry without its tag definition: the reference's 404
	for _, body := range []string{`{"tags":[{"checked":false}]}`, `{"tags":[{"tagName":"VIP"}]}`, `{"tags":[{"recNo":null,"value":{"value":["x"]}}]}`, `{"tags":[{"recNo":0}]}`} {
		wantError(t, body, contract.CodeMissingParameter, "Missing or blank required parameter: The RecNo field is required.")
	}
	// multi-byte characters count as one
	mustDecode(t, `{"lastName":{"value":["`+strings.Repeat("é", 64)+`"],"compareCondition":1}}`)
	// In splits before checking: a long comma list of short names is fine
	mustDecode(t, `{"lastName":{"value":["`+strings.Repeat("abcdefghij,", 20)+`abcdefghij"],"compareCondition":7}}`)
	// ... and names the element holding the item, not the item's rank
	wantError(t, `{"lastName":{"value":["a,b","c,`+long+`"],"compareCondition":7}}`, contract.CodeInvalidValue, "Path 'lastName.value[1]'")
}

func TestDecodeNotSupported(t *testing.T) {
	wantError(t, `{"displayTagRecNo":3}`, contract.CodeNotSupported, "displayTagRecNo")
	for _, body := range []string{`{"displayTagRecNo":null}`, `{"includeColsExtended":null}`, `{"includeColsExtended":[]}`,
		`{"personActivitySearchParams":null}`, `{"personActivitySearchParams":{}}`} {
		mustDecode(t, body)
	}
}

func TestDecodeExtendedColumns(t *testing.T) {
	c := mustDecode(t, `{"includeCols":["recNo"],"includeColsExtended":[{"type":"tag","recNo":12},{"type":"Marketing","recNo":7}]}`)
	if len(c.Columns) != 3 || c.Columns[1].Name != "tag:12" || c.Columns[2].Name != "marketing:7" ||
		c.Columns[2].Type != wayfarer.ColBool || c.Columns[1].Extended.Path != "includeColsExtended[0]" {
		t.Fatalf("%+v", c.Columns)
	}
	// Without includeCols: the default columns, then the extended ones.
	if c := mustDecode(t, `{"includeColsExtended":[{"type":"tag","recNo":1}]}`); len(c.Columns) != len(wayfarer.DefaultSearchColumns)+1 {
		t.Fatalf("%+v", c.Columns)
	}
	wantError(t, `{"includeColsExtended":[{"name":"x"}]}`, contract.CodeDeserialization, "includeColsExtended[0].name")
	wantError(t, `{"includeColsExtended":[{"type":"tag","recNo":"1"}]}`, contract.CodeDeserialization, "includeColsExtended[0].recNo")
	wantError(t, `{"includeColsExtended":[{"type":"tag","recNo":1},{"recNo":2}]}`, contract.CodeMissingParameter, "includeColsExtended[1].type")
	wantError(t, `{"includeColsExtended":[{"type":"tag"}]}`, contract.CodeMissingParameter, "includeColsExtended[0].recNo")
	wantError(t, `{"includeColsExtended":[null]}`, contract.CodeMissingParameter, "includeColsExtended[0].type")
	wantError(t, `{"includeColsExtended":[{"type":"tag","recNo":1},{"type":"color","recNo":2}]}`, contract.CodeInvalidValue,
		"Path 'includeColsExtended[1].type'")
	wantError(t, `{"includeColsExtended":[{"type":"tag","recNo":0}]}`, contract.CodeInvalidValue, "Path 'includeColsExtended[0].recNo'")
	wantError(t, `{"includeColsExtended":[{"type":"tag","recNo":3},{"type":"TAG","recNo":3}]}`, contract.CodeInvalidValue, "asked for twice")
	many := strings.TrimSuffix(strings.Repeat(`{"type":"tag","recNo":1},`, wayfarer.MaxExtendedColumns+1), ",")
	wantError(t, `{"includeColsExtended":[`+many+`]}`, contract.CodeInvalidValue, "more than the 20")
}

func TestDecodePersonActivitySearchParams(t *testing.T) {
	c := mustDecode(t, `{"personActivitySearchParams":{"appUserRecNo":{"value":[7]},"type":{"value":[1]},"completed":false,
		"targetDateFrom":{"date":"2026-11-23"},"targetDateTo":{"date":"11/29/2026"},"subject":{"value":["call"],"compareCondition":6},
		"tags":[{"recNo":3}]}}`)
	a := c.PersonActivity
	if a == nil {
		t.Fatal("no activity filter")
	}
	f := func(key string) wayfarer.SearchFilter {
		t.Helper()
		got, ok := a.Filter(key)
		if !ok {
			t.Fatalf("no filter %s in %+v", key, a.Filters)
		}
		return got
	}
	if b := f("completed").Bool; b == nil || *b || f("appUser_recNo").Num.Values[0] != 7 || f("type").Num.Values[0] != 1 ||
		f("targetDate").Date != (wayfarer.DateRange{From: "2026-11-23", To: "2026-11-29"}) || f("subject").Str.Cond != wayfarer.StrContains ||
		f("tag").Tag == nil || f("tag").Path != "personActivitySearchParams.tags[0]" {
		t.Fatalf("%+v", a)
	}
	// Without a filter it is no filter, as before Wayfarer served it.
	for _, body := range []string{`{"personActivitySearchParams":null}`, `{"personActivitySearchParams":{}}`} {
		if c := mustDecode(t, body); c.PersonActivity != nil {
			t.Fatalf("%s: %+v", body, c.PersonActivity)
		}
	}
	// The person search's own paging and columns are not taken there.
	wantError(t, `{"personActivitySearchParams":{"rowCount":5}}`, contract.CodeInvalidValue, "Path 'personActivitySearchParams.rowCount'")
	wantError(t, `{"personActivitySearchParams":{"includeCols":["recNo"]}}`, contract.CodeInvalidValue, "personActivitySearchParams.includeCols")
	// Paths name the member inside it.
	wantError(t, `{"personActivitySearchParams":{"type":{"compareCondition":1}}}`, contract.CodeInvalidValue, "Path 'personActivitySearchParams.type.compareCondition'")
	wantError(t, `{"personActivitySearchParams":{"tags":[{"value":{"value":["x"]}}]}}`, contract.CodeMissingParameter, "RecNo")
	wantError(t, `{"personActivitySearchParams":{"tripRecNo":{"value":[1]}}}`, contract.CodeNotSupported, "personActivitySearchParams.tripRecNo")
}

func TestDecodeStringParam(t *testing.T) {
	c := mustDecode(t, `{"lastName":{"value":["Abl"],"compareCondition":5},
		"FIRSTNAME":{"VALUE":["a, b ,c"],"CompareCondition":7},
		"middleName":{"value":["x","y"]},
		"commValue":{"value":["@ex"],"compareCondition":6},
		"commValueCountryDomain":{"compareCondition":3},
		"commValueCityArea":{"value":[],"compareCondition":0},
		"commValueUserSpecific":{"value":["q,r"],"compareCondition":8}}`)
	check := func(name string, got wayfarer.StringParam, cond wayfarer.StringCondition, vals ...string) {
		t.Helper()
		if got.Cond != cond || !reflect.DeepEqual(got.Values, vals) {
			t.Errorf("%s: %+v, want %v %q", name, got, cond, vals)
		}
	}
	check("lastName", c.LastName, wayfarer.StrStartingWith, "Abl")
	check("firstName", c.FirstName, wayfarer.StrIn, "a", "b", "c")
	check("middleName", c.MiddleName, wayfarer.StrEqual, "x", "y") // missing condition means Equal
	check("commValue", c.CommValue, wayfarer.StrContains, "@ex")
	check("commValueCountryDomain", c.CommValueCountryDomain, wayfarer.StrBlank)
	check("commValueCityArea", c.CommValueCityArea, wayfarer.StrIgnore)
	check("commValueUserSpecific", c.CommValueUserSpecific, wayfarer.StrNotIn, "q", "r")
	// Equal does not split
	c = mustDecode(t, `{"lastName":{"value":["a,b"],"compareCondition":1}}`)
	check("equal", c.LastName, wayfarer.StrEqual, "a,b")
	// null param is absent, explicit 0 ignores values (null elements: TestDecodeNonStringElements)
	c = mustDecode(t, `{"lastName":{"value":["x"],"compareCondition":2},"firstName":null,"middleName":{"value":["x"],"compareCondition":0}}`)
	check("NotEqual", c.LastName, wayfarer.StrNotEqual, "x")
	if c.FirstName.Active() || c.MiddleName.Active() {
		t.Error("null or Ignore param active")
	}
	// a name given twice is refused (TestSearchDecodeDuplicateNames)
	wantError(t, `{"lastName":{"value":["a"],"compareCondition":1},"LastName":{"value":["b"],"compareCondition":6}}`,
		contract.CodeDeserialization, "a member name that appears twice", "Path 'LastName'")
}

// stringParamFields are the parameters of type StringSearchParam, with the
// path their value array has, and a body builder for a StringSearchParam
// object (members) at that place.
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
	{"tags[0].value.value", func(m string) string { return `{"tags":[{"recNo":1,"tagName":"VIP","value":{` + m + `}}]}` }},
}

func TestDecodeNonStringElements(t *testing.T) {
	// An element of a string array that is not a string is a wrong shape,
	// naming the element; null too in includeCols (the values of a
	// StringSearchParam skip it: TestDecodeNullValuesSkipped).
	for _, elem := range []string{"null", "1", "1.5", "{}", `{"a":"b"}`, "[]", `["recNo"]`, "true", "false"} {
		wantError(t, `{"includeCols":[`+elem+`]}`, contract.CodeDeserialization,
			"Error deserializing Json: expected a string, found ", "Path 'includeCols[0]'.")
		wantError(t, `{"includeCols":["recNo",`+elem+`,"name"]}`, contract.CodeDeserialization, "Path 'includeCols[1]'.")
		if elem == "null" {
			continue
		}
		for _, f := range stringParamFields {
			// whatever the condition: a wrong shape is never ignored
			for _, cond := range []string{"", `,"compareCondition":0`, `,"compareCondition":1`, `,"compareCondition":3`, `,"compareCondition":7`} {
				wantError(t, f.body(`"value":["a",`+elem+`]`+cond), contract.CodeDeserialization,
					"expected a string, found ", "Path '"+f.valuePath+"[1]'.")
			}
		}
	}
	// the exact wording, as the other shape errors
	_, err := DecodePersonSearch(jsoncodec.Strict, []byte(`{"includeCols":[null]}`))
	if got, want := wayfarer.AsError(err).Message, "Error deserializing Json: expected a string, found null. Path 'includeCols[0]'."; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	_, err = DecodePersonSearch(jsoncodec.Strict, []byte(`{"lastName":{"value":[true],"compareCondition":1}}`))
	if got, want := wayfarer.AsError(err).Message, "Error deserializing Json: expected a string, found true or false. Path 'lastName.value[0]'."; got != want {
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
		for _, cond := range []wayfarer.StringCondition{wayfarer.StrIgnore, wayfarer.StrBlank, wayfarer.StrNotBlank} {
			for _, vals := range []string{`""`, `" "`, `"a,,b"`, `"",""`, `"` + strings.Repeat("x", 2000) + `"`} {
				body := f.body(fmt.Sprintf(`"value":[%s],"compareCondition":%d`, vals, cond))
				c := mustDecode(t, body)
				var p wayfarer.StringParam
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
	_, err := DecodePersonSearch(jsoncodec.Strict, []byte(`{"lastName":{"value":[""],"compareCondition":5}}`))
	want := "Invalid value: the value is empty, and compareCondition 5 (StartingWith) needs a value to compare; " +
		"to find blank values use compareCondition 3 (Blank) or 4 (NotBlank). Path 'lastName.value[0]'."
	if got := wayfarer.AsError(err).Message; got != want {
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
		got  wayfarer.StringParam
		want wayfarer.StringParam
	}{
		{"lastName", c.LastName, wayfarer.StringParam{Cond: wayfarer.StrEqual, Values: []string{" "}}},
		{"firstName", c.FirstName, wayfarer.StringParam{Cond: wayfarer.StrContains, Values: []string{"  "}}},
		{"middleName", c.MiddleName, wayfarer.StringParam{Cond: wayfarer.StrStartingWith, Values: []string{" Ab "}}},
		{"commValue", c.CommValue, wayfarer.StringParam{Cond: wayfarer.StrIn, Values: []string{"a", "b"}}},
		{"commValueCityArea", c.CommValueCityArea, wayfarer.StringParam{Cond: wayfarer.StrNotContaining, Values: []string{"\t"}}},
		{"commValueUserSpecific", c.CommValueUserSpecific, wayfarer.StringParam{Cond: wayfarer.StrNotIn, Values: []string{"x", "y"}}},
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
	check := func(name string, got wayfarer.NumParam, cond wayfarer.NumCondition, vals ...int64) {
		t.Helper()
		if got.Cond != cond || !reflect.DeepEqual(got.Values, vals) && len(vals)+len(got.Values) > 0 {
			t.Errorf("%s: %+v, want %v %v", name, got, cond, vals)
		}
	}
	check("recNo", c.RecNo, wayfarer.NumEqual, 1825, 1)
	check("profileRecNo", c.ProfileRecNo, wayfarer.NumEqual, 3)
	check("birthdayMonth", c.BirthdayMonth, wayfarer.NumNotEqual, 1, 2)
	check("cardSubType", c.CardSubType, wayfarer.NumBlank)
	check("advisor", c.AdvisorProfileRecNo, wayfarer.NumNotBlank)
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
		"birthdayMonthFrom":12,"birthdayMonthTo":1,"birthdayDayFrom":20,"birthdayDayTo":0}`)
	// a parameter no field table knows is refused (it was ignored before issue 11)
	wantError(t, `{"rowCount":20,"unknownParam":{"whatever":[1,2]}}`, contract.CodeDeserialization, "unknownParam: unknown field")
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
	if c.Birthday != (wayfarer.BirthdayRange{MonthFrom: 12, MonthTo: 1, DayFrom: 20}) {
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
	if c.CardExpiration != (wayfarer.DateRange{From: "2001-12-31", To: "2002-01-31"}) || c.ActionItemDate != (wayfarer.DateRange{From: "2003-01-05", To: "2003-02-01"}) {
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
	// what the Java client sends: Jackson writes the nulls
	c = mustDecode(t, `{"marketing":[{"affiliation":1,"marketingElementRecNo":null,"marketingElementId":"NOEMM","checked":null},
		{"affiliation":2,"marketingElementRecNo":5,"marketingElementId":null,"checked":false}]}`)
	if len(c.Marketing) != 2 || *c.Marketing[0].Affiliation != 1 || c.Marketing[0].ElementRecNo != nil || !c.Marketing[0].Checked ||
		*c.Marketing[1].ElementRecNo != 5 || c.Marketing[1].ElementID != nil || c.Marketing[1].Checked {
		t.Errorf("Java marketing %+v", c.Marketing)
	}
	wantError(t, `{"marketing":[{"affiliation":70000,"marketingElementId":"X"}]}`, contract.CodeDeserialization,
		"expected a whole number from -32768 to 32767", "Path 'marketing[0].affiliation'")

	// tags: {"recNo": <tag definition>, "value": <StringSearchParam>}, as the
	// reference and the Java client have them; tagRecNo is still read
	c = mustDecode(t, `{"tags":[{"tagRecNo":7},{"recNo":8,"tagName":"VIP","value":{"value":["gold"],"compareCondition":1},"checked":false},
		{"recNo":9,"value":{"value":["veg"],"compareCondition":6}},{"recNo":10,"tagRecNo":10,"value":{"value":["x"]}},null]}`)
	if len(c.Tags) != 4 || *c.Tags[0].TagRecNo != 7 || !c.Tags[0].Checked || c.Tags[0].Value.Active() {
		t.Fatalf("tags %+v", c.Tags)
	}
	if *c.Tags[1].TagRecNo != 8 || *c.Tags[1].TagName != "VIP" || c.Tags[1].Checked || c.Tags[1].Value.Cond != wayfarer.StrEqual || c.Tags[1].Value.Values[0] != "gold" {
		t.Errorf("tag 1 %+v", c.Tags[1])
	}
	if c.Tags[2].Value.Cond != wayfarer.StrContains || c.Tags[2].Value.Values[0] != "veg" {
		t.Errorf("tag value %+v", c.Tags[2])
	}
	if *c.Tags[3].TagRecNo != 10 || c.Tags[3].TagName != nil || c.Tags[3].Value.Cond != wayfarer.StrEqual {
		t.Errorf("value-only tag %+v", c.Tags[3])
	}
	// Wayfarer's earlier flat value (beside the other members) is not the
	// reference's shape: refused, not guessed
	wantError(t, `{"tags":[{"recNo":9,"value":["veg"],"compareCondition":6}]}`, contract.CodeDeserialization, "Path 'tags[0].value'")
	wantError(t, `{"tags":[{"recNo":9,"compareCondition":6}]}`, contract.CodeDeserialization,
		"tags[0].compareCondition: unknown field")
}

// Null elements of value arrays are skipped, as the Java client sends them
// (issue 12): [null] with NotBlank is a search; with a condition that
// compares values, nothing is left to compare (407).
func TestDecodeNullValuesSkipped(t *testing.T) {
	for _, body := range []string{`{"lastName":{"value":[null],"compareCondition":4}}`, `{"lastName":{"value":null,"compareCondition":4}}`,
		`{"recNo":{"value":[null],"compareCondition":4}}`, `{"recNo":{"value":null,"compareCondition":4}}`} {
		mustDecode(t, body)
	}
	c := mustDecode(t, `{"lastName":{"value":[null,"Abl",null],"compareCondition":5},"recNo":{"value":[null,7]}}`)
	if c.LastName.Cond != wayfarer.StrStartingWith || !reflect.DeepEqual(c.LastName.Values, []string{"Abl"}) ||
		c.RecNo.Cond != wayfarer.NumEqual || !reflect.DeepEqual(c.RecNo.Values, []int64{7}) {
		t.Errorf("criteria %+v %+v", c.LastName, c.RecNo)
	}
	for _, f := range stringParamFields {
		wantError(t, f.body(`"value":[null],"compareCondition":1`), contract.CodeInvalidValue, "needs at least one value")
		// a null beside an empty value: the empty one is named by its index
		wantError(t, f.body(`"value":[null,""],"compareCondition":1`), contract.CodeInvalidValue, "Path '"+f.valuePath+"[1]'.")
	}
	wantError(t, `{"recNo":{"value":[null],"compareCondition":1}}`, contract.CodeInvalidValue, "needs at least one value")
	// a null where a number array's element is required is a wrong shape
	wantError(t, `{"activeStatus":[null]}`, contract.CodeDeserialization, "expected a whole number from -32768 to 32767, found null", "Path 'activeStatus[0]'")
}

func TestSearchParamNamesComplete(t *testing.T) {
	// contract §2.4 lists 48 parameters; the Java client's base search
	// model adds displayTagRecNo, and Wayfarer continuation.
	if len(SearchParamNames) != 50 {
		t.Errorf("%d parameters, contract §2.4 has 48, the Java client one more and Wayfarer one", len(SearchParamNames))
	}
	// every one is known: none is answered as an unknown field
	for _, n := range SearchParamNames {
		_, err := DecodePersonSearch(jsoncodec.Strict, []byte(`{"`+n+`":null}`))
		if e := wayfarer.AsError(err); e != nil && strings.Contains(e.Message, "unknown field") {
			t.Errorf("%s: %v", n, err)
		}
	}
}

// A name given twice, in any case, is refused rather than one of them
// silently winning (it was the last one before Wayfarer read bodies typed).
func TestSearchDecodeDuplicateNames(t *testing.T) {
	for _, body := range []string{
		`{"includeCols":["BOGUS"],"IncludeCols":["recNo"]}`,
		`{"lastName":{"value":["Abl"]},"lastName":{"value":["Abl"],"compareCondition":5}}`,
		`{"includeCols":["recNo"],"includeCols":["BOGUS"]}`,
		`{"lastName":{"value":["a"],"compareCondition":1,"VALUE":["b"]}}`,
	} {
		wantError(t, body, contract.CodeDeserialization, "a member name that appears twice", "line 1, position")
	}
}

// Unknown names are refused, naming the nearest known one (issue 11): a
// typo would otherwise widen the search to the whole list.
func TestSearchDecodeUnknownNames(t *testing.T) {
	wantError(t, `{"lastNmae":{"value":["Abl"],"compareCondition":5}}`, contract.CodeDeserialization,
		"lastNmae: unknown field; did you mean lastName?")
	wantError(t, `{"lastName":{"values":["Abl"],"compareCondition":5}}`, contract.CodeDeserialization,
		"lastName.values: unknown field; did you mean value?")
	wantError(t, `{"marketing":[{"affiliation":1,"markteingElementId":"X"}]}`, contract.CodeDeserialization,
		"marketing[0].markteingElementId: unknown field; did you mean marketingElementId?")
	wantError(t, `{"zzz":1}`, contract.CodeDeserialization, "zzz: unknown field")
	_, err := DecodePersonSearch(jsoncodec.Strict, []byte(`{"4111111111111111":1}`))
	if e := wayfarer.AsError(err); e == nil || e.Message != "(withheld key): unknown field" {
		t.Errorf("a card number as a name: %v", err)
	}
	// with the policy set to warn, the member is skipped
	c, err := DecodePersonSearch(jsoncodec.NewDecoder(jsoncodec.WarnUnknown, nil), []byte(`{"lastNmae":{"value":["Abl"]},"rowCount":5}`))
	if err != nil || c.LastName.Active() || c.RowCount != 5 {
		t.Errorf("warn: %+v %v", c, err)
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
		_, err := DecodePersonSearch(jsoncodec.Strict, []byte(c.body))
		e := wayfarer.AsError(err)
		if e == nil || e.Code != c.code || !strings.Contains(e.Message, c.want) {
			t.Errorf("%q: %v, want code %d naming %s", c.body, err, c.code, c.want)
		}
	}
	if _, err := DecodePersonSearch(jsoncodec.Strict, []byte("{\"lastName\":{\"value\":[\"Zo\u00eb\\tX\"],\"compareCondition\":5}}")); err != nil {
		t.Errorf("tab and non-ASCII letters are text: %v", err)
	}
}
