package http_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The reference's field tables (devportal _api/Person.md, the contract's
// §2, wire-reference.md), as facts the answers are checked against: every
// key of a body must be one of them, with the JSON type its table gives.
// A strict client (Jackson's FAIL_ON_UNKNOWN_PROPERTIES) fails on any
// other key.

// refTable maps a member to its reference type: long, int, short, string,
// bool, Date, DateTimeOffset, byte[], or table:<name> / object:<name> for a
// child table or a nested record.
type refTable map[string]string

var refTables = map[string]refTable{
	"person": {
		"recNo": "long", "firstName": "string", "middleName": "string", "lastName": "string", "courtesyTitle": "string",
		"salutation": "string", "birthdayDay": "short", "birthdayMonth": "short", "birthdayYear": "short", "birthdayNote": "string",
		"citizenship": "string", "redressNumber": "string", "knownTravelerNumber": "string", "gender": "string", "uniqueId": "string",
		"branch_recNo": "long", "branchName": "string", "advisorProfile_recNo": "long", "advisorName": "string", "remarks": "string",
		"emergencyContactName": "string", "emergencyContactRelationship": "string", "emergencyContactPhone": "string",
		"emergencyContactEmail": "string", "activeStatus": "short", "age": "short", "createDateTime": "DateTimeOffset",
		"personCommunicationLink": "table:personCommunicationLink",
		// contract 1.8.2: personCardLink replaces the flat card table (§9.3)
		"personCardLink": "table:personCardLink", "personMarketing": "table:personMarketing",
		"personAttachmentLink": "table:personAttachmentLink", "personTag": "table:personTag",
		"personActionItemLink": "table:personActionItemLink",
	},
	"personCommunicationLink": {"person_recNo": "long", "communication_recNo": "long", "communication": "object:communication"},
	"communication": {
		"recNo": "long", "type": "short", "subType": "string", "value": "string", "countryDomain": "string", "cityArea": "string",
		"userSpecific": "string", "description": "string", "isPrimary": "bool", "permitMarketing": "bool", "isBillingContact": "bool",
		"contactOption": "short",
	},
	"personCardLink": {"person_recNo": "long", "card_recNo": "long", "card": "object:card"},
	// The card table without person_recNo, which 1.8.2 moved to the link.
	"card": {
		"recNo": "long", "type": "short", "cardNumber": "string", "issueDate": "Date", "expirationDate": "Date",
		"issuingCity": "string", "issuingCountry": "string", "issuingCountryName": "string", "description": "string",
		"cardNumberToken": "string", "code": "string", "nameOnCard": "string", "cvvCode": "string", "subType": "short",
	},
	"personMarketing":      {"person_recNo": "long", "marketingElement_recNo": "long", "affiliation_recNo": "int"},
	"personAttachmentLink": {"person_recNo": "long", "attachment_recNo": "long", "attachment": "object:attachment"},
	"attachment": {
		"recNo": "long", "type": "short", "description": "string", "fileNameLinkURL": "string", "fileData": "byte[]",
		"size": "int", "compressed": "bool", "storeExternal": "short", "createDateTime": "DateTimeOffset", "visibility": "short",
		"directUrl": "string", "subType": "short",
	},
	"personTag":            {"recNo": "long", "person_recNo": "long", "tag_recNo": "long", "name": "string", "value": "string"},
	"personActionItemLink": {"person_recNo": "long", "actionItem_recNo": "long", "personActionItem": "object:personActionItem"},
	"personActionItem": {
		"recNo": "long", "type": "short", "description": "string", "triggerIndex": "short", "triggerDaysOffset": "short",
		"triggerFixedDate": "Date", "appUser_recNo": "long", "appUserId": "string", "completed": "DateTimeOffset",
		"completedBy_appUserRecNo": "long", "completedBy_appUserId": "string", "notes": "string", "documentTemplate_recNo": "long",
	},

	// Answers of the other routes (contract §2.1-2.2, wire-reference.md).
	"login":   {"identityToken": "string", "resultCode": "int", "resultDescription": "string"},
	"result":  {"resultCode": "int", "resultDescription": "string", "method": "string"},
	"logout":  {"resultCode": "int", "resultDescription": "string"},
	"refresh": {"resultCode": "int", "resultDescription": "string", "refreshIdentityToken": "string"},
	"version": {"version": "string", "resultCode": "int", "resultDescription": "string"},
	// The answer of POST /person is not shown by the contract: its
	// members are the result's and the person's recNo.
	"saveResult": {"resultCode": "int", "resultDescription": "string", "recNo": "long"},
	// Contract §2.3, the search's columns.
	"searchRow": {
		"recNo": "long", "tagRecNo": "long", "tagName": "string", "tagValue": "string", "tags": "string", "summaryCount": "int",
		"createDateTime": "DateTimeOffset", "lastModifiedDateTime": "DateTimeOffset", "name": "string", "uniqueId": "string",
		"firstName": "string", "middleName": "string", "lastName": "string", "primaryPhone": "string",
		"primaryPhoneMarketingPermission": "bool", "primaryEmail": "string", "primaryEmailMarketingPermission": "bool",
		"birthdayDay": "short", "birthdayMonth": "short", "birthdayYear": "short", "birthdayNote": "string", "remarks": "string",
		"cardType": "short", "cardSubType": "short", "cardNumber": "string", "cardExpDate": "Date", "cardDescription": "string",
		"cardRecNo": "long", "nameOnCard": "string", "branchRecNo": "long", "branchRecName": "string",
		"advisorProfileRecNo": "long", "advisorProfileName": "string", "activeStatus": "short", "actionRecNo": "long",
		"actionItemTriggerIndex": "short", "actionItemDate": "Date", "actionItemTriggerFixedDate": "Date",
		"actionItemDescription": "string", "actionItemCompleted": "DateTimeOffset", "actionItemAssignedToAppUserRecNo": "long",
		"actionItemAssignedToAppUserId": "string", "associatedProfileNames": "string",
	},
}

var (
	refDate           = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T00:00:00$`)
	refDateTimeOffset = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,7})?[+-][0-9]{2}:[0-9]{2}$`)
	base64Text        = regexp.MustCompile(`^[A-Za-z0-9+/]*={0,2}$`)
)

// checkShape checks a decoded JSON value against a table. full: every
// member of the table must be there (a loaded person shows every field);
// otherwise a subset will do (search rows, where absent means null). It
// returns the problems, with their paths.
func checkShape(v any, table, path string, full bool) []string {
	t, ok := refTables[table]
	if !ok {
		return []string{path + ": test bug: no table " + table}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return []string{fmt.Sprintf("%s: %T, want an object (%s)", path, v, table)}
	}
	var out []string
	for k, x := range obj {
		typ, known := t[k]
		p := strings.TrimPrefix(path+"."+k, ".")
		if !known {
			out = append(out, p+": not a member of the reference's "+table+" table")
			continue
		}
		out = append(out, checkType(x, typ, p, full)...)
	}
	if full {
		for k := range t {
			if _, ok := obj[k]; !ok {
				out = append(out, strings.TrimPrefix(path+"."+k, ".")+": missing (a load shows every field)")
			}
		}
	}
	sort.Strings(out)
	return out
}

func checkType(x any, typ, p string, full bool) []string {
	if x == nil {
		if strings.HasPrefix(typ, "table:") {
			return []string{p + ": null, want an array"}
		}
		return nil
	}
	bad := func() []string { return []string{fmt.Sprintf("%s: %T %v, want %s", p, x, x, typ)} }
	switch kind, name, _ := strings.Cut(typ, ":"); kind {
	case "table":
		arr, ok := x.([]any)
		if !ok {
			return bad()
		}
		var out []string
		for i, el := range arr {
			out = append(out, checkShape(el, name, fmt.Sprintf("%s[%d]", p, i), full)...)
		}
		return out
	case "object":
		return checkShape(x, name, p, full)
	case "long", "int", "short":
		n, ok := x.(float64)
		if !ok || n != float64(int64(n)) || typ == "short" && (n < -32768 || n > 32767) || typ == "int" && (n < -1<<31 || n >= 1<<31) {
			return bad()
		}
	case "bool":
		if _, ok := x.(bool); !ok {
			return bad()
		}
	case "string":
		if _, ok := x.(string); !ok {
			return bad()
		}
	case "Date":
		if s, ok := x.(string); !ok || !refDate.MatchString(s) {
			return bad()
		}
	case "DateTimeOffset":
		if s, ok := x.(string); !ok || !refDateTimeOffset.MatchString(s) {
			return bad()
		}
	case "byte[]":
		if s, ok := x.(string); !ok || !base64Text.MatchString(s) {
			return bad()
		}
	default:
		return []string{p + ": test bug: type " + typ}
	}
	return nil
}

// wantShape fails the test when a JSON body does not fit the table (for
// an array, every element).
func wantShape(t *testing.T, what string, body []byte, table string, full bool) {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("%s: not JSON: %v: %s", what, err, body)
	}
	var problems []string
	if arr, ok := v.([]any); ok {
		for i, el := range arr {
			problems = append(problems, checkShape(el, table, fmt.Sprintf("[%d]", i), full)...)
		}
	} else {
		problems = checkShape(v, table, "", full)
	}
	if len(problems) > 0 {
		t.Fatalf("%s does not fit the reference's %s table:\n  %s\nbody: %s", what, table, strings.Join(problems, "\n  "), body)
	}
}

// TestReferenceShapeChecker: the checker itself refuses what it must.
func TestReferenceShapeChecker(t *testing.T) {
	for body, want := range map[string]string{
		`{"recNo":1,"lastModifiedDateTime":"2026-01-01T00:00:00+00:00"}`: "lastModifiedDateTime: not a member",
		`{"personCardLink":[{"card":{"expirationDate":"2025-12-31"}}]}`:  "personCardLink[0].card.expirationDate",
		`{"createDateTime":"2026-01-01T00:00:00Z"}`:                      "createDateTime",
		`{"birthdayDay":"1"}`: "birthdayDay",
		`{"personTag":null}`:  "personTag: null",
	} {
		var v any
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Fatal(err)
		}
		got := checkShape(v, "person", "", false)
		if !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, want) }) {
			t.Errorf("%s: %v, want a problem about %s", body, got, want)
		}
	}
}
