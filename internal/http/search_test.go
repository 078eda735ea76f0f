package http_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

type searchCase struct {
	name string
	body string // JSON members added to {"includeCols":["name"], ...}
	want []string
}

func runNameCases(t *testing.T, s *testserver.Server, tok string, cases []searchCase) {
	t.Helper()
	for _, tc := range cases {
		body := `{"includeCols":["name"]`
		if tc.body != "" {
			body += "," + tc.body
		}
		body += "}"
		rows := searchRows(t, s, tok, body)
		if got := col(rows, "name"); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %s\n got %q\nwant %q", tc.name, body, got, tc.want)
		}
	}
}

func TestSearchStringConditions(t *testing.T) {
	eachSearch(t, func(t *testing.T, s *testserver.Server, fx *searchFixture) {
		tok := searchLogin(t, s, "admin")
		ln := func(cond int, vals ...string) string {
			q := make([]string, len(vals))
			for i, v := range vals {
				q[i] = fmt.Sprintf("%q", v)
			}
			return fmt.Sprintf(`"lastName":{"value":[%s],"compareCondition":%d}`, strings.Join(q, ","), cond)
		}
		runNameCases(t, s, tok, []searchCase{
			{"no filter: all, by name", "", allNames},
			{"0 Ignore", ln(0, "zzz"), allNames},
			{"1 Equal, case-insensitive", ln(1, "ABLER"), []string{"Abler/Hale Nicole", "Abler/Ken"}},
			{"1 Equal, any value", ln(1, "able", "baker"), []string{"Able/Anna", "Baker/"}},
			{"2 NotEqual (nulls pass)", ln(2, "abler"), except("Abler/Hale Nicole", "Abler/Ken")},
			{"2 NotEqual, none of the values", ln(2, "abler", "BAKER"), except("Abler/Hale Nicole", "Abler/Ken", "Baker/")},
			{"3 Blank: null or empty", ln(3), []string{"/Nolast", "/Bob"}},
			{"4 NotBlank", ln(4), except("/Nolast", "/Bob")},
			{"5 StartingWith", ln(5, "Abl"), []string{"Able/Anna", "Abler/Hale Nicole", "Abler/Ken"}},
			{"5 StartingWith, any value", ln(5, "bak", "o'"), []string{"Baker/", "O'Neil/Zoe"}},
			{"5 StartingWith % is literal", ln(5, "ab%"), []string{"Ab%le/Pct"}},
			{"5 StartingWith _ is literal", ln(5, "a_"), []string{"A_bler/Under"}},
			{"5 StartingWith whole name", ln(5, "ablER"), []string{"Abler/Hale Nicole", "Abler/Ken"}},
			{"6 Contains", ln(6, "BLE"), []string{"A_bler/Under", "Able/Anna", "Abler/Hale Nicole", "Abler/Ken"}},
			{"6 Contains % is literal", ln(6, "%"), []string{"Ab%le/Pct"}},
			{"6 Contains _ is literal", ln(6, "_"), []string{"A_bler/Under"}},
			{"6 Contains backslash matches nothing", ln(6, `\`), []string{}},
			{"7 In, comma list", ln(7, "able, baker"), []string{"Able/Anna", "Baker/"}},
			{"7 In, several values", ln(7, "able", "o'neil,zzz"), []string{"Able/Anna", "O'Neil/Zoe"}},
			{"8 NotIn", ln(8, "able,baker"), except("Able/Anna", "Baker/")},
			{"9 NotStartingWith", ln(9, "abl"), except("Able/Anna", "Abler/Hale Nicole", "Abler/Ken")},
			{"9 NotStartingWith, none of the values", ln(9, "abl", "a"), []string{"/Nolast", "/Bob", "Baker/", "O'Neil/Zoe"}},
			{"10 NotContaining", ln(10, "ble"), []string{"/Nolast", "/Bob", "Ab%le/Pct", "Baker/", "O'Neil/Zoe"}},
			{"missing condition means Equal", `"lastName":{"value":["baker"]}`, []string{"Baker/"}},
			{"parameter names are case-insensitive", `"LASTNAME":{"VALUE":["baker"],"CompareCondition":1}`, []string{"Baker/"}},
			// the other string parameters
			{"firstName Equal", `"firstName":{"value":["KEN"],"compareCondition":1}`, []string{"Abler/Ken"}},
			{"firstName StartingWith", `"firstName":{"value":["h","z"],"compareCondition":5}`, []string{"Abler/Hale Nicole", "O'Neil/Zoe"}},
			{"firstName Blank", `"firstName":{"value":[],"compareCondition":3}`, []string{"Baker/"}},
			{"middleName Contains", `"middleName":{"value":["ICO"],"compareCondition":6}`, []string{"Abler/Hale Nicole"}},
			{"middleName NotBlank", `"middleName":{"compareCondition":4}`, []string{"Abler/Hale Nicole"}},
			{"middleName Blank (empty counts)", `"middleName":{"compareCondition":3}`, except("Abler/Hale Nicole")},
			{"commValue Contains", `"commValue":{"value":["@EXAMPLE"],"compareCondition":6}`, []string{"Abler/Ken", "O'Neil/Zoe"}},
			{"commValue StartingWith", `"commValue":{"value":["555"],"compareCondition":5}`, []string{"Able/Anna"}},
			{"commValue NotContaining: some communication without it", `"commValue":{"value":["@"],"compareCondition":10}`,
				[]string{"Able/Anna", "Abler/Ken", "Baker/"}},
			{"commValue Equal", `"commValue":{"value":["WWW.BAKER.COM"],"compareCondition":1}`, []string{"Baker/"}},
			{"commValueCountryDomain", `"commValueCountryDomain":{"value":["us"],"compareCondition":1}`, []string{"Abler/Ken"}},
			{"commValueCityArea", `"commValueCityArea":{"value":["555"],"compareCondition":1}`, []string{"Able/Anna", "Abler/Ken"}},
			{"commValueUserSpecific", `"commValueUserSpecific":{"value":["home"],"compareCondition":1}`, []string{"Abler/Ken"}},
			{"commType", `"commType":[1]`, []string{"Able/Anna", "Abler/Ken"}},
			{"commType web", `"commType":[4]`, []string{"Baker/"}},
			{"commType and commValue on the same communication", `"commType":[2],"commValue":{"value":["example.org"],"compareCondition":6}`,
				[]string{"O'Neil/Zoe"}},
			{"commType and commValue never mix communications", `"commType":[1],"commValue":{"value":["@"],"compareCondition":6}`,
				[]string{}},
		})
	})
}

func TestSearchNumConditions(t *testing.T) {
	eachSearch(t, func(t *testing.T, s *testserver.Server, fx *searchFixture) {
		tok := searchLogin(t, s, "admin")
		alice, mark := fx.advisor["Alice Advisor"], fx.advisor["Mark Mainwaring"]
		acme, globex := fx.client["Acme Travel Dept"], fx.client["Globex Corporate"]
		runNameCases(t, s, tok, []searchCase{
			{"recNo Equal", fmt.Sprintf(`"recNo":{"value":[%d,%d],"compareCondition":1}`, fx.rec["P1"], fx.rec["P2"]),
				[]string{"Abler/Hale Nicole", "Abler/Ken"}},
			{"recNo without condition", fmt.Sprintf(`"recNo":{"value":[%d]}`, fx.rec["P4"]), []string{"Baker/"}},
			{"recNo NotEqual", fmt.Sprintf(`"recNo":{"value":[%d],"compareCondition":2}`, fx.rec["P4"]), except("Baker/")},
			{"recNo NotBlank", `"recNo":{"compareCondition":4}`, allNames},
			{"recNo Blank", `"recNo":{"compareCondition":3}`, []string{}},
			{"AdvisorProfileRecNo 0 Ignore", fmt.Sprintf(`"AdvisorProfileRecNo":{"value":[%d],"compareCondition":0}`, alice), allNames},
			{"AdvisorProfileRecNo 1 Equal", fmt.Sprintf(`"AdvisorProfileRecNo":{"value":[%d],"compareCondition":1}`, alice),
				[]string{"/Bob", "A_bler/Under", "Ab%le/Pct", "Abler/Ken", "O'Neil/Zoe"}},
			{"AdvisorProfileRecNo 1 Equal, any", fmt.Sprintf(`"advisorProfileRecNo":{"value":[%d,%d],"compareCondition":1}`, alice, mark),
				except("Able/Anna", "Baker/")},
			{"AdvisorProfileRecNo 2 NotEqual (null passes)", fmt.Sprintf(`"AdvisorProfileRecNo":{"value":[%d],"compareCondition":2}`, alice),
				[]string{"/Nolast", "Able/Anna", "Abler/Hale Nicole", "Baker/"}},
			{"AdvisorProfileRecNo 3 Blank", `"AdvisorProfileRecNo":{"compareCondition":3}`, []string{"Baker/"}},
			{"AdvisorProfileRecNo 4 NotBlank", `"AdvisorProfileRecNo":{"compareCondition":4}`, except("Baker/")},
			{"birthdayMonth Equal", `"birthdayMonth":{"value":[6],"compareCondition":1}`, []string{"Able/Anna"}},
			{"birthdayMonth NotEqual", `"birthdayMonth":{"value":[12],"compareCondition":2}`,
				[]string{"A_bler/Under", "Ab%le/Pct", "Able/Anna", "Abler/Hale Nicole", "Baker/", "O'Neil/Zoe"}},
			{"birthdayMonth Blank", `"birthdayMonth":{"compareCondition":3}`, []string{"A_bler/Under", "Baker/"}},
			{"profileRecNo Equal", fmt.Sprintf(`"profileRecNo":{"value":[%d],"compareCondition":1}`, globex), []string{"Abler/Hale Nicole"}},
			{"profileRecNo Equal, any", fmt.Sprintf(`"profileRecNo":{"value":[%d,%d]}`, globex, acme), []string{"Abler/Hale Nicole", "Abler/Ken"}},
			{"profileRecNo NotEqual: linked to none", fmt.Sprintf(`"profileRecNo":{"value":[%d],"compareCondition":2}`, globex),
				except("Abler/Hale Nicole")},
			{"profileRecNo Blank: no profile", `"profileRecNo":{"compareCondition":3}`, except("Abler/Hale Nicole", "Abler/Ken")},
			{"profileRecNo NotBlank", `"profileRecNo":{"compareCondition":4}`, []string{"Abler/Hale Nicole", "Abler/Ken"}},
			{"cardSubType Equal", `"cardSubType":{"value":[2],"compareCondition":1}`, []string{"Abler/Ken", "O'Neil/Zoe"}},
			{"cardSubType NotEqual: a card that is not", `"cardSubType":{"value":[2],"compareCondition":2}`,
				[]string{"Abler/Hale Nicole", "Abler/Ken", "O'Neil/Zoe"}},
			{"cardSubType Blank: a card without", `"cardSubType":{"compareCondition":3}`, []string{"Abler/Hale Nicole", "O'Neil/Zoe"}},
			{"cardSubType NotBlank", `"cardSubType":{"compareCondition":4}`, []string{"Abler/Ken", "O'Neil/Zoe"}},
			{"actionItemAssignedToAppUserRecNo Equal", fmt.Sprintf(`"actionItemAssignedToAppUserRecNo":{"value":[%d]}`, fx.user["agent"]),
				[]string{"Abler/Ken"}},
			{"actionItemAssignedToAppUserRecNo NotEqual", fmt.Sprintf(`"actionItemAssignedToAppUserRecNo":{"value":[%d],"compareCondition":2}`, fx.user["agent"]),
				[]string{"Abler/Hale Nicole"}},
			{"actionItemAssignedToAppUserRecNo Blank", `"actionItemAssignedToAppUserRecNo":{"compareCondition":3}`, []string{}},
			{"actionItemAssignedToAppUserRecNo NotBlank", `"actionItemAssignedToAppUserRecNo":{"compareCondition":4}`,
				[]string{"Abler/Hale Nicole", "Abler/Ken"}},
		})
	})
}

func TestSearchOtherParameters(t *testing.T) {
	eachSearch(t, func(t *testing.T, s *testserver.Server, fx *searchFixture) {
		tok := searchLogin(t, s, "admin")
		runNameCases(t, s, tok, []searchCase{
			{"UniqueId exact", `"UniqueId":"U-2"`, []string{"Abler/Hale Nicole"}},
			{"UniqueId is case-sensitive", `"UniqueId":"u-2"`, []string{}},
			{"UniqueId empty is no filter", `"uniqueId":""`, allNames},
			{"activeStatus", `"activeStatus":[2]`, []string{"Able/Anna"}},
			{"activeStatus any", `"activeStatus":[0,2]`, []string{"Able/Anna", "Baker/"}},
			{"activeStatus empty is no filter", `"activeStatus":[]`, allNames},
			{"cardType", `"cardType":[1]`, []string{"Abler/Ken"}},
			{"cardType any", `"cardType":[2,3]`, []string{"Abler/Hale Nicole", "Abler/Ken", "O'Neil/Zoe"}},
			{"birthday months wrapping the year", `"birthdayMonthFrom":12,"birthdayMonthTo":1`,
				[]string{"/Nolast", "/Bob", "Abler/Hale Nicole", "Abler/Ken", "O'Neil/Zoe"}},
			{"birthday months", `"birthdayMonthFrom":3,"birthdayMonthTo":6`, []string{"Ab%le/Pct", "Able/Anna"}},
			{"birthday dates wrapping the year", `"birthdayMonthFrom":12,"birthdayDayFrom":20,"birthdayMonthTo":1,"birthdayDayTo":10`,
				[]string{"Abler/Hale Nicole", "Abler/Ken"}},
			{"birthday dates wrapping within one month", `"birthdayMonthFrom":12,"birthdayDayFrom":26,"birthdayMonthTo":12,"birthdayDayTo":24`,
				[]string{"/Bob", "Ab%le/Pct", "Able/Anna", "Abler/Hale Nicole", "O'Neil/Zoe"}},
			{"birthday days wrapping the month", `"birthdayDayFrom":28,"birthdayDayTo":2`, []string{"/Bob", "O'Neil/Zoe"}},
			{"birthday from only", `"birthdayMonthFrom":12,"birthdayDayFrom":2`, []string{"Abler/Ken"}},
			{"createDateTimeFrom date", `"createDateTimeFrom":{"date":"2024-08-10"}`, []string{"/Nolast", "A_bler/Under"}},
			{"createDateTimeTo date includes the day", `"createDateTimeTo":{"date":"01/10/2024"}`, []string{"Abler/Ken"}},
			{"createDateTimeTo instant is inclusive", `"createDateTimeTo":{"dateTime":"2024-01-10T10:00:00Z"}`, []string{"Abler/Ken"}},
			{"createDateTimeTo instant before", `"createDateTimeTo":{"dateTime":"2024-01-10T09:59:59.999999Z"}`, []string{}},
			{"createDateTime range with offset", `"createDateTimeFrom":{"dateTime":"2024-02-10T12:00:00+02:00"},"createDateTimeTo":{"dateTime":"2024-03-10T10:00:00"}`,
				[]string{"Able/Anna", "Abler/Hale Nicole"}},
			{"modifiedDateTimeFrom", `"modifiedDateTimeFrom":{"dateTime":"2024-09-01T00:00:00Z"}`, []string{"/Nolast", "A_bler/Under"}},
			{"modifiedDateTimeTo", `"modifiedDateTimeTo":{"date":"2024-02-09"}`, []string{"Abler/Ken"}},
			{"cardExpirationDateFrom", `"cardExpirationDateFrom":{"date":"2026-01-01"}`, []string{"Abler/Hale Nicole", "Abler/Ken"}},
			{"cardExpirationDateTo inclusive", `"cardExpirationDateTo":{"date":"06/30/2025"}`, []string{"Abler/Ken"}},
			{"cardExpiration range on one card", `"cardExpirationDateFrom":{"date":"2025-07-01"},"cardExpirationDateTo":{"date":"2029-12-31"}`,
				[]string{"Abler/Ken"}},
			{"cardType and expiry on the same card", `"cardType":[2],"cardExpirationDateFrom":{"date":"2026-01-01"}`, []string{}},
			{"actionItemDateFrom", `"actionItemDateFrom":{"date":"2026-06-01"}`, []string{"Abler/Ken"}},
			{"actionItemDateTo inclusive", `"actionItemDateTo":{"date":"01/15/2026"}`, []string{"Abler/Hale Nicole"}},
			{"actionItemCompleted true", `"actionItemCompleted":true`, []string{"Abler/Hale Nicole"}},
			{"actionItemCompleted false", `"actionItemCompleted":false`, []string{"Abler/Ken"}},
			{"emailPermitMarketing true", `"emailPermitMarketing":true`, []string{"Abler/Hale Nicole", "O'Neil/Zoe"}},
			{"emailPermitMarketing false", `"emailPermitMarketing":false`, except("Abler/Hale Nicole", "O'Neil/Zoe")},
			{"phonePermitMarketing true (primary phone only)", `"phonePermitMarketing":true`, []string{"Abler/Ken"}},
			{"phonePermitMarketing false", `"phonePermitMarketing":false`, except("Abler/Ken")},
			{"marketing has, by id", `"marketing":[{"marketingElementId":"noemm","checked":true}]`, []string{"Abler/Ken"}},
			{"marketing has not", `"marketing":[{"marketingElementId":"NOEMM","checked":false}]`, except("Abler/Ken")},
			{"marketing by recNo", fmt.Sprintf(`"marketing":[{"marketingElementRecNo":%d}]`, fx.element["PROMO"]), []string{"O'Neil/Zoe"}},
			{"marketing with affiliation", fmt.Sprintf(`"marketing":[{"affiliation":1,"marketingElementRecNo":%d,"checked":true}]`, fx.element["PROMO"]),
				[]string{}},
			{"marketing, all must hold", `"marketing":[{"marketingElementId":"NOEMM"},{"marketingElementId":"PROMO","checked":false}]`,
				[]string{"Abler/Ken"}},
			{"tags by recNo", fmt.Sprintf(`"tags":[{"recNo":%d}]`, fx.tag["VIP"]), []string{"Abler/Hale Nicole", "Abler/Ken"}},
			{"tags by recNo and name", fmt.Sprintf(`"tags":[{"recNo":%d,"tagName":"vip"}]`, fx.tag["VIP"]), []string{"Abler/Hale Nicole", "Abler/Ken"}},
			{"tags by recNo and value", fmt.Sprintf(`"tags":[{"tagRecNo":%d,"value":{"value":["GOLD"],"compareCondition":1}}]`, fx.tag["VIP"]),
				[]string{"Abler/Ken"}},
			{"tags value StartingWith", fmt.Sprintf(`"tags":[{"recNo":%d,"value":{"value":["silv"],"compareCondition":5}}]`, fx.tag["VIP"]), []string{"Abler/Hale Nicole"}},
			{"tags has not", fmt.Sprintf(`"tags":[{"recNo":%d,"checked":false}]`, fx.tag["VIP"]), except("Abler/Hale Nicole", "Abler/Ken")},
			{"tags without value", fmt.Sprintf(`"tags":[{"recNo":%d,"value":{"compareCondition":3}}]`, fx.tag["Seat"]), []string{"Baker/"}},
			{"tags, null values skipped", fmt.Sprintf(`"tags":[{"recNo":%d,"value":{"value":[null],"compareCondition":4}}]`, fx.tag["VIP"]),
				[]string{"Abler/Hale Nicole", "Abler/Ken"}},
			{"Java client marketing", `"marketing":[{"affiliation":null,"marketingElementRecNo":null,"marketingElementId":"NOEMM","checked":null}]`, []string{"Abler/Ken"}},
			{"harmless parameters", `"queryOptimizerFlags":[1],"priority":3,"baseUrl":"https://example.com","readOnlyIntent":true,"skipLookup":false`,
				allNames},
		})
	})
}

func TestSearchColumns(t *testing.T) {
	eachSearch(t, func(t *testing.T, s *testserver.Server, fx *searchFixture) {
		tok := searchLogin(t, s, "admin")
		p1 := fmt.Sprintf(`"recNo":{"value":[%d]}`, fx.rec["P1"])

		// every person column of P1, in request order, nulls left out
		r := s.Do(t, "POST", "/personSearch", `{"includeCols":["lastName","recNo","name","firstName","middleName","uniqueId",
			"createDateTime","lastModifiedDateTime","primaryPhone","primaryPhoneMarketingPermission","primaryEmail",
			"primaryEmailMarketingPermission","birthdayDay","birthdayMonth","birthdayYear","birthdayNote","remarks","branchRecNo",
			"branchRecName","advisorProfileRecNo","advisorProfileName","activeStatus","tags","associatedProfileNames","summaryCount"],`+p1+`}`,
			testserver.Bearer(tok)...)
		want := fmt.Sprintf(`[{"lastName":"Abler","recNo":%d,"name":"Abler/Ken","firstName":"Ken","uniqueId":"U-1",`+
			`"createDateTime":"2024-01-10T10:00:00+00:00","lastModifiedDateTime":"2024-02-09T10:00:00+00:00","primaryPhone":"+1 555 0100",`+
			`"primaryPhoneMarketingPermission":true,"primaryEmail":"ken@example.com","primaryEmailMarketingPermission":false,`+
			`"birthdayDay":25,"birthdayMonth":12,"birthdayYear":1980,"birthdayNote":"Christmas","remarks":"likes aisle seats",`+
			`"branchRecNo":%d,"branchRecName":"Main","advisorProfileRecNo":%d,"advisorProfileName":"Alice Advisor","activeStatus":1,`+
			`"tags":"diet=veg; VIP=gold","associatedProfileNames":"Acme Travel Dept","summaryCount":1}]`,
			fx.rec["P1"], fx.branch["Main"], fx.advisor["Alice Advisor"])
		if r.Status != 200 || string(r.Body) != want {
			t.Errorf("P1 row:\n got %d %s\nwant %s", r.Status, r.Body, want)
		}

		// default columns
		rows := searchRows(t, s, tok, `{`+p1+`}`)
		wantRow := map[string]any{"recNo": float64(fx.rec["P1"]), "name": "Abler/Ken", "firstName": "Ken", "lastName": "Abler",
			"primaryEmail": "ken@example.com", "primaryPhone": "+1 555 0100", "activeStatus": float64(1)}
		if len(rows) != 1 || !reflect.DeepEqual(rows[0], wantRow) {
			t.Errorf("default columns: %v", rows)
		}

		// skipLookup leaves the lookups out
		rows = searchRows(t, s, tok, `{"includeCols":["branchRecName","advisorProfileName","branchRecNo","actionItemAssignedToAppUserId"],"skipLookup":true,`+p1+`}`)
		if len(rows) != 1 || !reflect.DeepEqual(rows[0], map[string]any{"branchRecNo": float64(fx.branch["Main"])}) {
			t.Errorf("skipLookup: %v", rows)
		}

		// cards: a row per card, a person without cards once
		rows = searchRows(t, s, tok, `{"includeCols":["name","cardRecNo","cardType","cardSubType","cardNumber","cardExpDate","cardDescription","nameOnCard"]}`)
		if got, want := col(rows, "name"), []string{"/Nolast", "/Bob", "A_bler/Under", "Ab%le/Pct", "Able/Anna", "Abler/Hale Nicole",
			"Abler/Ken", "Abler/Ken", "Baker/", "O'Neil/Zoe", "O'Neil/Zoe"}; !reflect.DeepEqual(got, want) {
			t.Errorf("card rows: %q", got)
		}
		if got, want := col(rows, "cardNumber"), []string{"", "", "", "", "", "P9876543", "VI 41-XXXX-1111", "FF123", "", "ZZ-9", "ZZ-10"}; !reflect.DeepEqual(got, want) {
			t.Errorf("card numbers: %q", got)
		}
		if !reflect.DeepEqual(rows[6], map[string]any{"name": "Abler/Ken", "cardRecNo": float64(fx.cards["A"]), "cardType": float64(1),
			"cardSubType": float64(1), "cardNumber": "VI 41-XXXX-1111", "cardExpDate": "2027-12-31T00:00:00", "cardDescription": "work", "nameOnCard": "KEN ABLER"}) {
			t.Errorf("card A row: %v", rows[6])
		}
		// a card filter keeps only the matching cards
		rows = searchRows(t, s, tok, `{"includeCols":["name","cardNumber"],"cardType":[2]}`)
		if got := col(rows, "cardNumber"); !reflect.DeepEqual(got, []string{"FF123", "ZZ-9", "ZZ-10"}) {
			t.Errorf("filtered cards: %q", got)
		}
		// distinct removes duplicate rows
		rows = searchRows(t, s, tok, `{"includeCols":["name","cardType"],"cardType":[2],"distinct":true}`)
		if got := col(rows, "name"); !reflect.DeepEqual(got, []string{"Abler/Ken", "O'Neil/Zoe"}) {
			t.Errorf("distinct: %q", got)
		}
		rows = searchRows(t, s, tok, `{"includeCols":["name","cardType"],"cardType":[2],"distinct":false}`)
		if len(rows) != 3 {
			t.Errorf("not distinct: %v", rows)
		}

		// tags: a row per tag
		rows = searchRows(t, s, tok, `{"includeCols":["name","tagRecNo","tagName","tagValue"],"lastName":{"value":["abler","baker"],"compareCondition":7}}`)
		want2 := []map[string]any{
			{"name": "Abler/Hale Nicole", "tagRecNo": float64(fx.tag["VIP"]), "tagName": "VIP", "tagValue": "silver"},
			{"name": "Abler/Ken", "tagRecNo": float64(fx.tag["VIP"]), "tagName": "VIP", "tagValue": "gold"},
			{"name": "Abler/Ken", "tagRecNo": float64(fx.tag["diet"]), "tagName": "diet", "tagValue": "veg"},
			{"name": "Baker/", "tagRecNo": float64(fx.tag["Seat"]), "tagName": "Seat"},
		}
		if !reflect.DeepEqual(rows, want2) {
			t.Errorf("tag rows: %v", rows)
		}

		// action items: a row per item
		rows = searchRows(t, s, tok, `{"includeCols":["name","actionRecNo","actionItemTriggerIndex","actionItemDate","actionItemTriggerFixedDate",
			"actionItemDescription","actionItemCompleted","actionItemAssignedToAppUserRecNo","actionItemAssignedToAppUserId"],"actionItemAssignedToAppUserRecNo":{"compareCondition":4}}`)
		if len(rows) != 2 {
			t.Fatalf("action rows: %v", rows)
		}
		delete(rows[0], "actionRecNo")
		delete(rows[1], "actionRecNo")
		if !reflect.DeepEqual(rows[0], map[string]any{"name": "Abler/Hale Nicole", "actionItemTriggerIndex": float64(3), "actionItemDate": "2026-01-15T00:00:00",
			"actionItemDescription": "send card", "actionItemCompleted": "2026-01-16T08:00:00+00:00",
			"actionItemAssignedToAppUserRecNo": float64(fx.user["admin"]), "actionItemAssignedToAppUserId": "admin"}) {
			t.Errorf("action row: %v", rows[0])
		}
		if rows[1]["actionItemTriggerFixedDate"] != "2026-12-01T00:00:00" || rows[1]["actionItemAssignedToAppUserId"] != "agent" {
			t.Errorf("action row: %v", rows[1])
		}

		// joined groups multiply: P1 has 2 cards and 2 tags
		rows = searchRows(t, s, tok, `{"includeCols":["cardRecNo","tagName"],`+p1+`}`)
		if len(rows) != 4 {
			t.Errorf("cards × tags: %v", rows)
		}
		rows = searchRows(t, s, tok, `{"includeCols":["associatedProfileNames"],"recNo":{"value":[`+fmt.Sprint(fx.rec["P2"])+`]}}`)
		if col(rows, "associatedProfileNames")[0] != "Acme Travel Dept; Globex Corporate" {
			t.Errorf("profiles: %v", rows)
		}
	})
}

func TestSearchPaging(t *testing.T) {
	eachSearch(t, func(t *testing.T, s *testserver.Server, fx *searchFixture) {
		tok := searchLogin(t, s, "admin")
		page := func(body string) ([]string, []string) {
			rows := searchRows(t, s, tok, `{"includeCols":["name","summaryCount"],`+body+`}`)
			return col(rows, "name"), col(rows, "summaryCount")
		}
		names, counts := page(`"startingRow":2,"rowCount":3`)
		if !reflect.DeepEqual(names, allNames[2:5]) || !reflect.DeepEqual(counts, []string{"9", "9", "9"}) {
			t.Errorf("page: %q %q", names, counts)
		}
		names, counts = page(`"startingRow":3,"rowCount":10,"topRows":5`)
		if !reflect.DeepEqual(names, allNames[3:5]) || !reflect.DeepEqual(counts, []string{"5", "5"}) {
			t.Errorf("topRows: %q %q", names, counts)
		}
		names, _ = page(`"topRows":2`)
		if !reflect.DeepEqual(names, allNames[:2]) {
			t.Errorf("topRows alone: %q", names)
		}
		names, _ = page(`"startingRow":20`)
		if len(names) != 0 {
			t.Errorf("past the end: %q", names)
		}
		names, counts = page(`"rowCount":2,"lastName":{"value":["abl"],"compareCondition":5}`)
		if !reflect.DeepEqual(names, []string{"Able/Anna", "Abler/Hale Nicole"}) || counts[0] != "3" {
			t.Errorf("filtered page: %q %q", names, counts)
		}
		// pages of 2 cover everything once, in order
		var all []string
		for start := 0; start < 12; start += 2 {
			n, _ := page(fmt.Sprintf(`"startingRow":%d,"rowCount":2`, start))
			all = append(all, n...)
		}
		if !reflect.DeepEqual(all, allNames) {
			t.Errorf("pages: %q", all)
		}
		// summaryCount counts rows (a row per card here)
		rows := searchRows(t, s, tok, `{"includeCols":["summaryCount","cardRecNo"],"rowCount":1}`)
		if col(rows, "summaryCount")[0] != "11" {
			t.Errorf("summaryCount of card rows: %v", rows)
		}
		rows = searchRows(t, s, tok, `{"includeCols":["summaryCount","cardType"],"cardType":[2],"distinct":true,"rowCount":1}`)
		if col(rows, "summaryCount")[0] != "1" {
			t.Errorf("summaryCount distinct: %v", rows)
		}
	})
}

func TestSearchPermissions(t *testing.T) {
	eachSearch(t, func(t *testing.T, s *testserver.Server, fx *searchFixture) {
		// OnlySelf (Alice) and OnlyBranch (Main)
		runNameCases(t, s, searchLogin(t, s, "agent"), []searchCase{
			{"agent", "", []string{"/Bob", "A_bler/Under", "Ab%le/Pct", "Abler/Ken"}},
			{"agent filters within the scope", `"lastName":{"value":["abl"],"compareCondition":5}`, []string{"Abler/Ken"}},
		})
		// OnlyBranch (Harbor)
		runNameCases(t, s, searchLogin(t, s, "branch"), []searchCase{{"branch", "", []string{"Able/Anna", "Baker/"}}})
		// another agency sees its own only
		other := s.Login(t, "OTHER", "admin", "demo-admin")
		rows := searchRows(t, s, other, `{"includeCols":["recNo","name"]}`)
		if len(rows) != 1 || rows[0]["name"] != "Abler/Other" {
			t.Errorf("OTHER: %v", rows)
		}
		// no Select: 403, before the parameters are looked at (a caller who
		// may not search learns nothing about them)
		viewer := testserver.Bearer(searchLogin(t, s, "viewer"))
		for _, body := range []string{`{}`, `{"lastNmae":5}`, `{not json`, `{"tags":[{}]}`} {
			r := s.Do(t, "POST", "/personSearch", body, viewer...)
			wantResult(t, r, 403, 600, "personSearch")
		}
		// no token: 401
		r := s.Do(t, "POST", "/personSearch", `{}`)
		wantResult(t, r, 401, 302, "identityToken")
		// the method name is case-insensitive
		r = s.Do(t, "POST", "/PersonSearch", `{"includeCols":["name"]}`, testserver.Bearer(searchLogin(t, s, "admin"))...)
		if r.Status != 200 {
			t.Errorf("/PersonSearch: %d", r.Status)
		}
	})
}

func TestSearchBadInput(t *testing.T) {
	eachSearch(t, func(t *testing.T, s *testserver.Server, fx *searchFixture) {
		tok := searchLogin(t, s, "admin")
		bad := func(body string, code int, contains string) {
			t.Helper()
			r := s.Do(t, "POST", "/personSearch", body, testserver.Bearer(tok)...)
			m := wantResult(t, r, 400, code, "Param")
			if d, _ := m["resultDescription"].(string); !strings.Contains(d, contains) {
				t.Errorf("%s: description %q lacks %q", body, d, contains)
			}
		}
		bad(`{"includeCols":["recNo","BOGUS"]}`, 405, "Invalid column: BOGUS")
		bad(`{"lastName":"Abl"}`, 406, "Path 'lastName'")
		bad(`{"lastName":{"value":"Abl","compareCondition":5}}`, 406, "Path 'lastName.value'")
		bad(`{"cardExpirationDateFrom":"12/31/2001"}`, 406, "Path 'cardExpirationDateFrom'")
		bad(`{"activeStatus":1}`, 406, "Path 'activeStatus'")
		bad(`{"includeCols":"name"}`, 406, "Path 'includeCols'")
		bad(`{"recNo":{"value":["1"]}}`, 406, "Path 'recNo.value[0]'")
		bad(`{"lastName":{"value":["`+strings.Repeat("x", 65)+`"],"compareCondition":1}}`, 407, "lastName.value[0]")
		bad(`{"UniqueId":"`+strings.Repeat("x", 65)+`"}`, 407, "UniqueId")
		bad(`{"startingRow":-1}`, 407, "startingRow")
		bad(`{"birthdayMonthFrom":13}`, 407, "birthdayMonthFrom")
		bad(`{"includeColsExtended":[{"name":"x"}]}`, 406, "name")
		bad(`{"personActivitySearchParams":{"completed":true}}`, 408, "personActivitySearchParams: not yet supported by Wayfarer")
		bad(`{"tags":[{"tagName":"VIP"}]}`, 404, "Missing or blank required parameter: The RecNo field is required.")
		bad(`{"lastName":`, 406, "Error deserializing Json")
	})
}

// TestSearchStrictStrings: an element of a string array that is not a
// string is 406; an empty value (or empty In/NotIn item) for a condition
// that compares values is 407 pointing at Blank/NotBlank; Ignore, Blank and
// NotBlank ignore their values; values of only spaces are values.
func TestSearchStrictStrings(t *testing.T) {
	eachSearch(t, func(t *testing.T, s *testserver.Server, fx *searchFixture) {
		tok := searchLogin(t, s, "admin")
		bad := func(body string, code int, contains ...string) {
			t.Helper()
			r := s.Do(t, "POST", "/personSearch", body, testserver.Bearer(tok)...)
			m := wantResult(t, r, 400, code, "Param")
			d, _ := m["resultDescription"].(string)
			for _, c := range contains {
				if !strings.Contains(d, c) {
					t.Errorf("%s: description %q lacks %q", body, d, c)
				}
			}
		}
		// non-strings in string arrays
		r := s.Do(t, "POST", "/personSearch", `{"includeCols":[null]}`, testserver.Bearer(tok)...)
		m := wantResult(t, r, 400, 406, "Param")
		if d := m["resultDescription"]; d != "Error deserializing Json: expected a string, found null. Path 'includeCols[0]'." {
			t.Errorf("includeCols [null]: %q", d)
		}
		bad(`{"includeCols":["name",7]}`, 406, "expected a string, found a number", "Path 'includeCols[1]'")
		bad(`{"includeCols":["name",{"name":"recNo"}]}`, 406, "found an object", "Path 'includeCols[1]'")
		bad(`{"includeCols":[["name"]]}`, 406, "found an array", "Path 'includeCols[0]'")
		bad(`{"includeCols":[true]}`, 406, "found true or false", "Path 'includeCols[0]'")
		// an unknown column is echoed as the reference does, but never a card number
		r = s.Do(t, "POST", "/personSearch", `{"includeCols":["4111 1111 1111 1111"]}`, testserver.Bearer(tok)...)
		if m := wantResult(t, r, 400, 405, "Param"); m["resultDescription"] != "Invalid column: (withheld: looks like a card number)" {
			t.Errorf("card number as a column: %q", m["resultDescription"])
		}
		r = s.Do(t, "POST", "/personSearch", `{"includeCols":["nosuch"]}`, testserver.Bearer(tok)...)
		if m := wantResult(t, r, 400, 405, "Param"); m["resultDescription"] != "Invalid column: nosuch" {
			t.Errorf("unknown column: %q", m["resultDescription"])
		}
		// null values are skipped (issue 12): nothing left to compare is 407
		bad(`{"lastName":{"value":[null],"compareCondition":1}}`, 407, "needs at least one value", "Path 'lastName.compareCondition'")
		for _, body := range []string{`{"commValue":{"value":["x",null],"compareCondition":3}}`, `{"lastName":{"value":[null],"compareCondition":4}}`,
			`{"lastName":{"value":null,"compareCondition":4}}`} {
			if r := s.Do(t, "POST", "/personSearch", body, testserver.Bearer(tok)...); r.Status != 200 && !noRows(r) {
				t.Errorf("%s: %d %s", body, r.Status, r.Body)
			}
		}
		bad(`{"tags":[{"recNo":1,"value":[null]}]}`, 406, "expected an object, found an array", "Path 'tags[0].value'")
		// text rules: invalid UTF-8 is not silently replaced, control characters are refused
		bad("{\"lastName\":{\"value\":[\"Abl\xff\"],\"compareCondition\":5}}", 406, "invalid UTF-8", "Path 'lastName.value[0]'")
		bad(`{"commValue":{"value":["a\u0000b"],"compareCondition":6}}`, 407, "control character", "Path 'commValue.value[0]'")

		// empty values for conditions that compare them
		const hint = "to find blank values use compareCondition 3 (Blank) or 4 (NotBlank)"
		r = s.Do(t, "POST", "/personSearch", `{"lastName":{"value":[""],"compareCondition":1}}`, testserver.Bearer(tok)...)
		m = wantResult(t, r, 400, 407, "Param")
		if d := m["resultDescription"]; d != "Invalid value: the value is empty, and compareCondition 1 (Equal) needs a value to compare; "+
			hint+". Path 'lastName.value[0]'." {
			t.Errorf("lastName Equal empty: %q", d)
		}
		for _, cond := range []int{1, 2, 5, 6, 7, 8, 9, 10} {
			bad(fmt.Sprintf(`{"lastName":{"value":[""],"compareCondition":%d}}`, cond), 407, fmt.Sprintf("compareCondition %d (", cond), hint,
				"Path 'lastName.value[0]'")
			bad(fmt.Sprintf(`{"firstName":{"value":["a",""],"compareCondition":%d}}`, cond), 407, hint, "Path 'firstName.value[1]'")
		}
		bad(`{"middleName":{"value":[""]}}`, 407, "compareCondition 1 (Equal)", hint, "Path 'middleName.value[0]'")
		bad(`{"commValue":{"value":["a,,b"],"compareCondition":7}}`, 407, "item 2 of 3 of the comma-separated list is empty", hint,
			"Path 'commValue.value[0]'")
		bad(`{"commValueCountryDomain":{"value":["us, "],"compareCondition":8}}`, 407, "item 2 of 2", "Path 'commValueCountryDomain.value[0]'")
		bad(`{"commValueCityArea":{"value":["555"," "],"compareCondition":7}}`, 407, "empty or only spaces", "Path 'commValueCityArea.value[1]'")
		bad(`{"commValueUserSpecific":{"value":[""],"compareCondition":6}}`, 407, hint, "Path 'commValueUserSpecific.value[0]'")
		bad(fmt.Sprintf(`{"tags":[{"recNo":%d,"value":{"value":[""],"compareCondition":5}}]}`, fx.tag["VIP"]), 407, hint, "Path 'tags[0].value.value[0]'")
		// the flat value of Wayfarer's earlier tags shape is not the reference's
		bad(`{"tags":[{"tagName":"VIP","value":[""],"compareCondition":1}]}`, 406, "expected an object, found an array", "Path 'tags[0].value'")

		// Ignore, Blank and NotBlank ignore their values, whatever they hold;
		// spaces are compared as sent, except In/NotIn items
		runNameCases(t, s, tok, []searchCase{
			{"0 Ignore with an empty value", `"lastName":{"value":[""],"compareCondition":0}`, allNames},
			{"3 Blank with an empty value", `"lastName":{"value":["",""],"compareCondition":3}`, []string{"/Nolast", "/Bob"}},
			{"4 NotBlank with an empty list item", `"lastName":{"value":["a,,b"],"compareCondition":4}`, except("/Nolast", "/Bob")},
			{"tag value Blank with an empty value", fmt.Sprintf(`"tags":[{"recNo":%d,"value":{"value":[""],"compareCondition":3}}]`, fx.tag["Seat"]), []string{"Baker/"}},
			{"commValue Contains a space", `"commValue":{"value":[" "],"compareCondition":6}`, []string{"Abler/Ken"}},
			{"lastName Equal a space: no name is one", `"lastName":{"value":[" "],"compareCondition":1}`, []string{}},
			{"In trims its items", `"lastName":{"value":[" abler , baker "],"compareCondition":7}`,
				[]string{"Abler/Hale Nicole", "Abler/Ken", "Baker/"}},
		})
	})
}

func TestSearchCSV(t *testing.T) {
	eachSearch(t, func(t *testing.T, s *testserver.Server, fx *searchFixture) {
		tok := searchLogin(t, s, "admin")
		body := `{"includeCols":["name","recNo","primaryEmail"],"lastName":{"value":["abl"],"compareCondition":5},"reportFormat":true,"reportName":"ablers"}`
		r := s.Do(t, "POST", "/personSearch", body, testserver.Bearer(tok)...)
		if r.Status != 200 || r.Header.Get("Content-Type") != "text/csv; charset=utf-8" {
			t.Fatalf("csv: %d %q", r.Status, r.Header.Get("Content-Type"))
		}
		if cd := r.Header.Get("Content-Disposition"); cd != `attachment; filename="ablers.csv"` {
			t.Errorf("disposition %q", cd)
		}
		want := fmt.Sprintf("name,recNo,primaryEmail\nAble/Anna,%d,\nAbler/Hale Nicole,%d,hale@test.io\nAbler/Ken,%d,ken@example.com\n",
			fx.rec["P3"], fx.rec["P2"], fx.rec["P1"])
		if string(r.Body) != want {
			t.Errorf("csv\n got %q\nwant %q", r.Body, want)
		}
		// A report of nothing is 204 with no body, as a JSON search is.
		r = s.Do(t, "POST", "/personSearch", `{"includeCols":["name"],"reportFormat":true,"recNo":{"value":[0]}}`, testserver.Bearer(tok)...)
		if !noRows(r) || r.Header.Get("Content-Disposition") != "" {
			t.Errorf("empty csv: %d %q %q", r.Status, r.Header.Get("Content-Disposition"), r.Body)
		}
		r = s.Do(t, "POST", "/personSearch", `{"reportFormat":true,"reportName":"../x\"y.CSV"}`, testserver.Bearer(tok)...)
		if cd := r.Header.Get("Content-Disposition"); cd != `attachment; filename="x_y.CSV"` { // leading dots trimmed since issue 11
			t.Errorf("unsafe name: %q", cd)
		}
		r = s.Do(t, "POST", "/personSearch", `{"reportFormat":true,"reportName":"Übersicht (1)"}`, testserver.Bearer(tok)...)
		if cd := r.Header.Get("Content-Disposition"); cd != `attachment; filename="_bersicht (1).csv"; filename*=UTF-8''%C3%9Cbersicht%20%281%29.csv` {
			t.Errorf("non-ASCII name: %q", cd)
		}
		// a CSV report is an export: Select alone is not enough
		r = s.Do(t, "POST", "/personSearch", body, testserver.Bearer(searchLogin(t, s, "agent"))...)
		if r.Status != 403 || r.Code(t) != 600 || !strings.Contains(string(r.Body), "export") {
			t.Errorf("CSV without Export: %d %s", r.Status, r.Body)
		}
	})
}

// An answer holds at most --max-search-rows rows: a search that would
// answer more is refused with a clear 407 asking for pages, instead of
// being built in memory whole.
func TestSearchMaxRows(t *testing.T) {
	fx := &searchFixture{}
	opt := testserver.Options{Seed: seedSearch(fx), Config: func(c *app.Config) { c.MaxSearchRows = 3 }}
	testserver.Each(t, opt, func(t *testing.T, s *testserver.Server) {
		tok := searchLogin(t, s, "admin")
		rows := searchRows(t, s, tok, `{"includeCols":["recNo","summaryCount"],"rowCount":3}`)
		if len(rows) != 3 || rows[0]["summaryCount"].(float64) <= 3 {
			t.Fatalf("a page of 3 of more than 3: %v", rows)
		}
		total := int(rows[0]["summaryCount"].(float64))

		for _, body := range []string{`{"includeCols":["recNo"]}`, `{"includeCols":["recNo"],"topRows":4}`,
			`{"includeCols":["recNo"],"reportFormat":true}`} {
			r := s.Do(t, "POST", "/personSearch", body, testserver.Bearer(tok)...)
			m := wantResult(t, r, 400, 407, "Param")
			if d := m["resultDescription"]; d != "Invalid value: the search answers more than 3 rows, the most one answer holds; "+
				"ask for pages with rowCount (at most 3) and startingRow, or narrow the search. Path 'rowCount'." {
				t.Errorf("%s: %q", body, d)
			}
		}
		r := s.Do(t, "POST", "/personSearch", `{"includeCols":["recNo"],"rowCount":4}`, testserver.Bearer(tok)...)
		m := wantResult(t, r, 400, 407, "Param")
		if d := m["resultDescription"]; d != "Invalid value: rowCount 4 is more than the 3 rows a search answers at most; ask for pages of at most 3. Path 'rowCount'." {
			t.Errorf("rowCount 4: %q", d)
		}

		// within the bound, nothing changes: topRows, the last page, a narrow search
		if rows := searchRows(t, s, tok, `{"includeCols":["recNo"],"topRows":3}`); len(rows) != 3 {
			t.Errorf("topRows 3: %d rows", len(rows))
		}
		last := fmt.Sprintf(`{"includeCols":["recNo"],"startingRow":%d}`, total-2)
		if rows := searchRows(t, s, tok, last); len(rows) != 2 {
			t.Errorf("the last two without rowCount: %d rows", len(rows))
		}
		if rows := searchRows(t, s, tok, `{"includeCols":["name"],"lastName":{"value":["Abler"],"compareCondition":1}}`); len(rows) == 0 || len(rows) > 3 {
			t.Errorf("a narrow search: %d rows", len(rows))
		}
		// paging through every person with the largest page gives each once
		seen := map[float64]bool{}
		for start := 0; start < total; start += 3 {
			for _, row := range searchRows(t, s, tok, fmt.Sprintf(`{"includeCols":["recNo"],"startingRow":%d,"rowCount":3}`, start)) {
				seen[row["recNo"].(float64)] = true
			}
		}
		if len(seen) != total {
			t.Errorf("paged %d persons of %d", len(seen), total)
		}
	})
}
