//lint:file-ignore SA1019 these tests check how the deprecated card fields (cvvCode, person_recNo) are refused and shown.

package http_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// The person as the reference's clients send and read it (issue 12, items
// 2-4): the devportal's example, saved and loaded back with every field.

// examplePDF is the content of the example's file attachment.
var examplePDF = []byte("%PDF-1.4\n% passport scan of Ken Abler\n")

// fullPersonJSON is the devportal's example answer of GET /person/1969999
// (_api/Person.md, Abler/Ken) made into a create the way a reference client
// sends it: its flat card[] as personCardLink (contract §9.3), identifiers
// null, the demo agency's record numbers, clear numbers for the masked
// Visa cards, and a value in every field the example leaves null, so that
// the load proves each field kept. Dates are in the reference's forms.
func fullPersonJSON(r personRefs, element2 int64) string {
	return fmt.Sprintf(`{
  "recNo": null, "firstName": "Ken", "middleName": "", "lastName": "Abler", "courtesyTitle": "Mr.", "salutation": "Ken",
  "birthdayDay": 23, "birthdayMonth": 4, "birthdayYear": 1931, "birthdayNote": "spring baby", "citizenship": "US",
  "redressNumber": "13431265431654", "knownTravelerNumber": "", "gender": "M", "uniqueId": "8a869d59-9fd6-4c26-ab31-104f4358e7ee",
  "branch_recNo": %[1]d, "branchName": null, "advisorProfile_recNo": %[2]d, "advisorName": null, "remarks": "",
  "emergencyContactName": "Sue Abler", "emergencyContactRelationship": "wife", "emergencyContactPhone": "+1 (650) 988-1223",
  "emergencyContactEmail": "sue@example.com", "activeStatus": 1, "age": null, "createDateTime": null,
  "personCommunicationLink": [
    {"person_recNo": null, "communication_recNo": null, "communication": {"recNo": null, "type": 1, "subType": "", "value": "+1 (650) 988-1222",
      "countryDomain": "", "cityArea": "", "userSpecific": "", "description": "Business", "isPrimary": true, "permitMarketing": true,
      "isBillingContact": true, "contactOption": 1}},
    {"person_recNo": null, "communication_recNo": null, "communication": {"recNo": null, "type": 2, "subType": "", "value": "1@tramsQA.com",
      "countryDomain": "", "cityArea": "", "userSpecific": "", "description": "E-Mail", "isPrimary": false, "permitMarketing": true,
      "isBillingContact": false, "contactOption": 2}},
    {"person_recNo": null, "communication_recNo": null, "communication": {"recNo": null, "type": 2, "subType": "home", "value": "ken @hotmail.com",
      "countryDomain": "com", "cityArea": "650", "userSpecific": "k", "description": "", "isPrimary": true, "permitMarketing": false,
      "isBillingContact": null, "contactOption": null}}
  ],
  "personCardLink": [
    {"person_recNo": null, "card_recNo": null, "card": {"recNo": null, "type": 1, "cardNumber": "4111111111111111", "issueDate": "2021-01-01T00:00:00",
      "expirationDate": "2025-12-31T00:00:00", "issuingCity": "", "issuingCountry": "", "issuingCountryName": "United States",
      "description": "Visa", "cardNumberToken": null, "code": "", "nameOnCard": "KEN ABLER", "cvvCode": null, "subType": 1}},
    {"person_recNo": null, "card_recNo": null, "card": {"recNo": null, "type": 2, "cardNumber": "4567888", "issueDate": null,
      "expirationDate": null, "issuingCity": "", "issuingCountry": "", "issuingCountryName": null, "description": "Advantage",
      "cardNumberToken": null, "code": "", "nameOnCard": null, "cvvCode": null, "subType": null}},
    {"person_recNo": null, "card_recNo": null, "card": {"recNo": null, "type": 1, "cardNumber": "4012888888881881", "issueDate": null,
      "expirationDate": "2025-12-31T00:00:00", "issuingCity": "Palo Alto", "issuingCountry": "US", "issuingCountryName": null,
      "description": "Visa", "cardNumberToken": null, "code": "", "nameOnCard": null, "cvvCode": null, "subType": null}},
    {"person_recNo": null, "card_recNo": null, "card": {"recNo": null, "type": 2, "cardNumber": "5656343", "issueDate": null,
      "expirationDate": null, "issuingCity": "", "issuingCountry": "", "issuingCountryName": null, "description": "Hilton Hotels",
      "cardNumberToken": null, "code": "HH", "nameOnCard": null, "cvvCode": null, "subType": 2}}
  ],
  "personMarketing": [
    {"person_recNo": null, "marketingElement_recNo": %[3]d, "affiliation_recNo": %[4]d},
    {"person_recNo": null, "marketingElement_recNo": %[5]d, "affiliation_recNo": %[4]d}
  ],
  "personAttachmentLink": [
    {"person_recNo": null, "attachment_recNo": null, "attachment": {"recNo": null, "type": 1, "description": "Loyalty portal",
      "fileNameLinkURL": "https://www.example.com/loyalty?id=ken", "fileData": null, "size": null, "compressed": false,
      "storeExternal": 0, "createDateTime": null, "visibility": 1, "directUrl": null, "subType": 3}},
    {"person_recNo": null, "attachment_recNo": null, "attachment": {"recNo": null, "type": 2, "description": "Passport scan",
      "fileNameLinkURL": "passport.pdf", "fileData": "%[6]s", "size": null, "compressed": true,
      "storeExternal": 0, "createDateTime": null, "visibility": 2, "directUrl": null, "subType": 1}}
  ],
  "personTag": [{"recNo": null, "person_recNo": null, "tag_recNo": %[7]d, "name": null, "value": "231"}],
  "personActionItemLink": [
    {"person_recNo": null, "actionItem_recNo": null, "personActionItem": {"recNo": null, "type": 1, "description": "Call Ken For Follow Up",
      "triggerIndex": 1, "triggerDaysOffset": 0, "triggerFixedDate": "2026-12-31T00:00:00", "appUser_recNo": %[8]d, "appUserId": null,
      "completed": "2023-08-29T09:33:27-07:00", "completedBy_appUserRecNo": null, "completedBy_appUserId": null,
      "notes": "bring the brochures", "documentTemplate_recNo": 77}}
  ]
}`, r.main, r.alice, r.noemm, r.affiliation, element2, base64.StdEncoding.EncodeToString(examplePDF), r.vip, r.agentUser)
}

// jsonDiff lists the paths where got differs from want.
func jsonDiff(want, got any, path string) []string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: got %v, want an object", path, got)}
		}
		var out []string
		for k := range w {
			out = append(out, jsonDiff(w[k], g[k], strings.TrimPrefix(path+"."+k, "."))...)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				out = append(out, fmt.Sprintf("%s.%s: not expected (%v)", path, k, g[k]))
			}
		}
		sort.Strings(out)
		return out
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return []string{fmt.Sprintf("%s: got %v, want %d elements", path, got, len(w))}
		}
		var out []string
		for i := range w {
			out = append(out, jsonDiff(w[i], g[i], fmt.Sprintf("%s[%d]", path, i))...)
		}
		return out
	}
	if !reflect.DeepEqual(want, got) {
		return []string{fmt.Sprintf("%s: got %#v, want %#v", path, got, want)}
	}
	return nil
}

// objAt returns the object at a path of nested objects and arrays
// ("personCardLink.0.card").
func objAt(t *testing.T, v any, path string) map[string]any {
	t.Helper()
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			var i int
			fmt.Sscan(k, &i)
			v = x[i]
		}
	}
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s: %T", path, v)
	}
	return m
}

func decodeAny(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return v
}

// TestReferencePersonFullRoundTrip: the devportal's example person, sent as
// a reference client sends it, is saved and loaded back with every field
// kept; the answer holds exactly the reference's members with its types.
func TestReferencePersonFullRoundTrip(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		element2, err := s.App.DB.EnsureMarketingElement(context.Background(), r.agency, "NOPHN", "No phone marketing")
		if err != nil {
			t.Fatal(err)
		}
		admin := clientFor(t, s, "admin")
		sent := fullPersonJSON(r, element2)
		saved := admin.do("POST", "/person/refresh", sent)
		if saved.Status != 200 {
			t.Fatalf("save: %d %s", saved.Status, saved.Body)
		}
		recNo := onePerson(t, saved).RecNo.Value
		resp := admin.do("GET", fmt.Sprintf("/person/%d", recNo), nil)
		if resp.Status != 200 || resp.Header.Get("Content-Type") != "application/json; charset=utf-8" {
			t.Fatalf("load: %d %q", resp.Status, resp.Header.Get("Content-Type"))
		}
		if string(resp.Body) != string(saved.Body) {
			t.Fatalf("refresh and load differ:\n%s\n%s", saved.Body, resp.Body)
		}
		wantShape(t, "GET /person", resp.Body, "person", true)

		// Every field as sent, except what the server assigns or looks up.
		got := decodeAny(t, resp.Body).([]any)[0]
		want := decodeAny(t, []byte(sent)).(map[string]any)
		g := got.(map[string]any)
		want["recNo"], want["branchName"], want["advisorName"], want["age"] = g["recNo"], "Main", "Alice Advisor", float64(95)
		want["createDateTime"] = "2026-11-21T09:00:00+00:00" // the test clock, UTC with its offset
		for _, table := range []struct{ array, link, row string }{
			{"personCommunicationLink", "communication_recNo", "communication"}, {"personCardLink", "card_recNo", "card"},
			{"personAttachmentLink", "attachment_recNo", "attachment"}, {"personActionItemLink", "actionItem_recNo", "personActionItem"},
		} {
			for i := range want[table.array].([]any) {
				wl, gl := objAt(t, want, fmt.Sprintf("%s.%d", table.array, i)), objAt(t, got, fmt.Sprintf("%s.%d", table.array, i))
				id := gl[table.link]
				if _, ok := id.(float64); !ok || gl["person_recNo"] != g["recNo"] || objAt(t, gl, table.row)["recNo"] != id {
					t.Fatalf("%s[%d] identifiers: %v", table.array, i, gl)
				}
				wl["person_recNo"], wl[table.link] = g["recNo"], id
				objAt(t, wl, table.row)["recNo"] = id
			}
		}
		for i := range want["personMarketing"].([]any) {
			objAt(t, want, fmt.Sprintf("personMarketing.%d", i))["person_recNo"] = g["recNo"]
		}
		tag := objAt(t, want, "personTag.0")
		tag["recNo"], tag["person_recNo"], tag["name"] = objAt(t, got, "personTag.0")["recNo"], g["recNo"], "VIP"
		visa1, visa2 := objAt(t, want, "personCardLink.0.card"), objAt(t, want, "personCardLink.2.card")
		visa1["cardNumber"], visa2["cardNumber"] = "VI 41-XXXX-1111", "VI 40-XXXX-1881"
		for i, c := range []map[string]any{visa1, visa2} {
			tok, _ := objAt(t, got, fmt.Sprintf("personCardLink.%d.card", 2*i))["cardNumberToken"].(string)
			if !strings.HasPrefix(tok, "tok_") {
				t.Fatalf("card %d token %q", 2*i, tok)
			}
			c["cardNumberToken"] = tok
		}
		ai := objAt(t, want, "personActionItemLink.0.personActionItem")
		ai["appUserId"] = "agent"
		ai["completed"] = "2023-08-29T16:33:27+00:00" // the same instant, in UTC
		ai["completedBy_appUserRecNo"], ai["completedBy_appUserId"] = float64(r.adminUser), "admin"
		file := objAt(t, want, "personAttachmentLink.1.attachment")
		file["fileData"], file["size"] = nil, float64(len(examplePDF)) // metadata only; the bytes have their own call
		for i := range 2 {
			objAt(t, want, fmt.Sprintf("personAttachmentLink.%d.attachment", i))["createDateTime"] = "2026-11-21T09:00:00+00:00"
		}
		if d := jsonDiff(want, got, ""); len(d) > 0 {
			t.Fatalf("loaded person differs from the saved one:\n  %s", strings.Join(d, "\n  "))
		}

		// Sent back as loaded, nothing changes (and the version stays).
		etag := resp.Header.Get("ETag")
		loaded := decodeAny(t, resp.Body).([]any)[0]
		again := admin.do("POST", "/person/refresh", map[string]any{"oldNewDataset": map[string]any{"oldData": []any{loaded}, "newData": []any{loaded}}})
		if again.Status != 200 || string(again.Body) != string(resp.Body) || again.Header.Get("ETag") != etag {
			t.Fatalf("unchanged save: %d %s (ETag %q, was %q)", again.Status, again.Body, again.Header.Get("ETag"), etag)
		}

		// Every formerly unsupported field changes through the old/new comparison.
		edited := decodeAny(t, resp.Body).([]any)[0]
		objAt(t, edited, "personCommunicationLink.0.communication")["isBillingContact"] = false
		objAt(t, edited, "personCommunicationLink.2.communication")["isBillingContact"] = true
		eai := objAt(t, edited, "personActionItemLink.0.personActionItem")
		eai["type"], eai["documentTemplate_recNo"], eai["completedBy_appUserId"] = float64(2), nil, "ignored"
		objAt(t, edited, "personAttachmentLink.0.attachment")["description"] = "Loyalty portal (new)"
		objAt(t, edited, "personCardLink.1.card")["expirationDate"] = "12/31/2027"
		upd := admin.do("POST", "/person/refresh", map[string]any{"oldNewDataset": map[string]any{"oldData": []any{loaded}, "newData": []any{edited}}})
		if upd.Status != 200 {
			t.Fatalf("update: %d %s", upd.Status, upd.Body)
		}
		after := decodeAny(t, upd.Body).([]any)[0]
		for path, want := range map[string]any{
			"personCommunicationLink.0.communication.isBillingContact":       false,
			"personCommunicationLink.2.communication.isBillingContact":       true,
			"personActionItemLink.0.personActionItem.type":                   float64(2),
			"personActionItemLink.0.personActionItem.documentTemplate_recNo": nil,
			"personActionItemLink.0.personActionItem.completedBy_appUserId":  "admin",
			"personAttachmentLink.0.attachment.description":                  "Loyalty portal (new)",
			"personCardLink.1.card.expirationDate":                           "2027-12-31T00:00:00",
			"personCardLink.1.card.cvvCode":                                  nil,
		} {
			i := strings.LastIndex(path, ".")
			if got := objAt(t, after, path[:i])[path[i+1:]]; !reflect.DeepEqual(got, want) {
				t.Errorf("%s: %#v, want %#v", path, got, want)
			}
		}
		if upd.Header.Get("ETag") == etag {
			t.Error("an update kept the ETag")
		}

		// The example exactly as the devportal shows it (flat card[]) is
		// the pre-1.8.2 shape: refused, naming personCardLink.
		flat := strings.Replace(sent, `"personCardLink"`, `"card"`, 1)
		wantResult(t, admin.do("POST", "/person", flat), 400, 407, "person")
	})
}

// TestReferenceCVVCode: cvvCode (deprecated) is null on every loaded card;
// a save may send it null, empty or not at all, and a value is refused
// (400/410) on either side, never stored.
func TestReferenceCVVCode(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		create := func(cvv string) *testserver.Response {
			return admin.do("POST", "/person/refresh", `{"lastName":"Cvv","activeStatus":1,"personCardLink":[
				{"person_recNo":null,"card_recNo":null,"card":{"recNo":null,"type":1,"cardNumber":"5555555555554444"`+cvv+`}}]}`)
		}
		var recNo int64
		for _, cvv := range []string{`,"cvvCode":null`, `,"cvvCode":""`, ``} {
			p := onePerson(t, create(cvv))
			recNo = p.RecNo.Value
			if c := p.PersonCardLink[0].Card; !c.CVVCode.Present || c.CVVCode.Valid {
				t.Fatalf("cvvCode %q: loaded as %+v", cvv, c.CVVCode)
			}
		}
		m := wantResult(t, create(`,"cvvCode":"123"`), 400, 410, "person")
		if d := m["resultDescription"].(string); strings.Contains(d, "123") || !strings.Contains(d, "cvvCode") {
			t.Fatalf("description %q", d)
		}
		// On an update, a value on either side is refused and nothing is written.
		loaded := decodeAny(t, admin.do("GET", fmt.Sprintf("/person/%d", recNo), nil).Body).([]any)[0]
		edited := decodeAny(t, admin.do("GET", fmt.Sprintf("/person/%d", recNo), nil).Body).([]any)[0]
		objAt(t, edited, "personCardLink.0.card")["cvvCode"] = "9876"
		objAt(t, edited, "personCardLink.0.card")["nameOnCard"] = "X"
		wantResult(t, admin.do("POST", "/person", map[string]any{"oldNewDataset": map[string]any{"oldData": []any{loaded}, "newData": []any{edited}}}), 400, 410, "person")
		objAt(t, edited, "personCardLink.0.card")["cvvCode"] = nil
		objAt(t, loaded, "personCardLink.0.card")["cvvCode"] = "9876"
		wantResult(t, admin.do("POST", "/person", map[string]any{"oldNewDataset": map[string]any{"oldData": []any{loaded}, "newData": []any{edited}}}), 400, 410, "person")
		if c := admin.load(recNo).PersonCardLink[0].Card; c.NameOnCard.Valid {
			t.Fatal("a refused save wrote the card")
		}
		// Never stored: the card table has no place for it, and no value is in the file.
		var cols string
		for _, name := range cardColumnNames(t, s) {
			cols += name + " "
		}
		if strings.Contains(strings.ToLower(cols), "cvv") {
			t.Fatalf("card columns: %s", cols)
		}
	})
}

func cardColumnNames(t *testing.T, s *testserver.Server) []string {
	t.Helper()
	rows, err := s.App.DB.Primary().Query(`SELECT * FROM card WHERE 1 = 0`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	return cols
}

// TestReferenceDatesRoundTrip: a Date saved in any form the devportal shows
// loads as the reference writes it ("2025-12-31T00:00:00"), a
// DateTimeOffset in one form (UTC, explicit offset); the search's columns
// alike.
func TestReferenceDatesRoundTrip(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		cases := []struct{ in, want string }{
			{"2025-12-31T00:00:00", "2025-12-31T00:00:00"}, // Person.md
			{"2025-12-31", "2025-12-31T00:00:00"},
			{"12/31/2025", "2025-12-31T00:00:00"},                // the DateSearchParam form
			{"2025-12-31T09:30:00-07:00", "2025-12-31T00:00:00"}, // a date-time: the date as written
		}
		for _, c := range cases {
			resp := admin.do("POST", "/person/refresh", fmt.Sprintf(`{"lastName":"Dates","activeStatus":1,
				"personCardLink":[{"card":{"type":3,"cardNumber":"P1234567","issueDate":%q,"expirationDate":%[1]q}}],
				"personActionItemLink":[{"personActionItem":{"triggerIndex":1,"triggerFixedDate":%[1]q,"completed":"2023-08-29T09:33:27.1234567-07:00"}}]}`, c.in))
			if resp.Status != 200 {
				t.Fatalf("%s: %d %s", c.in, resp.Status, resp.Body)
			}
			p := decodeAny(t, resp.Body).([]any)[0]
			card, ai := objAt(t, p, "personCardLink.0.card"), objAt(t, p, "personActionItemLink.0.personActionItem")
			if card["issueDate"] != c.want || card["expirationDate"] != c.want || ai["triggerFixedDate"] != c.want {
				t.Errorf("%s: loaded %v %v %v, want %s", c.in, card["issueDate"], card["expirationDate"], ai["triggerFixedDate"], c.want)
			}
			if ai["completed"] != "2023-08-29T16:33:27.123456+00:00" {
				t.Errorf("completed %v", ai["completed"])
			}
			if cdt, _ := p.(map[string]any)["createDateTime"].(string); !refDateTimeOffset.MatchString(cdt) {
				t.Errorf("createDateTime %q", cdt)
			}
		}
		// The search writes its Date and DateTimeOffset columns so too.
		resp := admin.do("POST", "/personSearch", `{"includeCols":["recNo","cardExpDate","createDateTime","lastModifiedDateTime","actionItemDate","actionItemCompleted"],
			"lastName":{"value":["Dates"],"compareCondition":1},"cardType":[3]}`)
		if resp.Status != 200 {
			t.Fatalf("search: %d %s", resp.Status, resp.Body)
		}
		wantShape(t, "personSearch rows", resp.Body, "searchRow", false)
		row := decodeAny(t, resp.Body).([]any)[0].(map[string]any)
		if row["cardExpDate"] != "2025-12-31T00:00:00" || row["createDateTime"] != "2026-11-21T09:00:00+00:00" ||
			row["actionItemDate"] != "2025-12-31T00:00:00" || row["actionItemCompleted"] != "2023-08-29T16:33:27.123456+00:00" {
			t.Errorf("search row %v", row)
		}
		// A date in no known form is 406 naming the field.
		wantResult(t, admin.do("POST", "/person", `{"lastName":"D","activeStatus":1,"personCardLink":[{"card":{"type":3,"cardNumber":"P1","expirationDate":"31.12.2025"}}]}`),
			400, 406, "person")
	})
}
