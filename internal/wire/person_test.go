//lint:file-ignore SA1019 these tests check how the deprecated card fields (cvvCode, person_recNo) are refused and shown.

package wire

import (
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

func wantCode(t *testing.T, err error, code int, contains string) {
	t.Helper()
	e := wayfarer.AsError(err)
	if e == nil || e.Kind != wayfarer.KindInvalid || e.Code != code || !strings.Contains(e.Message, contains) || e.Method != wayfarer.MethodPerson {
		t.Fatalf("want 400/%d/person containing %q; got %v", code, contains, err)
	}
}

func TestPersonJSONPresence(t *testing.T) {
	_, p, err := DecodePersonSave(jsoncodec.Strict, []byte(`{"firstName":"Ken","middleName":null,"personCardLink":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	if !p.FirstName.Valid || !p.MiddleName.Present || p.MiddleName.Valid || p.LastName.Present {
		t.Errorf("presence wrong: %+v %+v %+v", p.FirstName, p.MiddleName, p.LastName)
	}
	if p.PersonCardLink == nil || p.PersonTag != nil {
		t.Error("empty array must be non-nil, absent nil")
	}
	b, _ := PersonJSON(p)
	if string(b) != `[{"firstName":"Ken","middleName":null,"personCardLink":[]}]` {
		t.Errorf("round trip: %s", b)
	}
}

func TestDecodePersonSaveForms(t *testing.T) {
	old, n, err := DecodePersonSave(jsoncodec.Strict, []byte(`{"recNo":null,"firstName":"Ken","lastName":"Abler","activeStatus":1}`))
	if err != nil || old != nil || n.FirstName.Value != "Ken" {
		t.Fatalf("object: %v %v %v", old, n, err)
	}
	old, n, err = DecodePersonSave(jsoncodec.Strict, []byte(` [ {"firstName":"Sue"} ] `))
	if err != nil || old != nil || n.FirstName.Value != "Sue" {
		t.Fatalf("array: %v %v %v", old, n, err)
	}
	old, n, err = DecodePersonSave(jsoncodec.Strict, []byte(`{"oldNewDataset":{"oldData":[{"recNo":5,"firstName":"A"}],"newData":[{"recNo":5,"firstName":"B"}]}}`))
	if err != nil || old.FirstName.Value != "A" || n.FirstName.Value != "B" {
		t.Fatalf("dataset: %v %v %v", old, n, err)
	}
	old, n, err = DecodePersonSave(jsoncodec.Strict, []byte(`{"oldNewDataset":{"oldData":[],"newData":[{"firstName":"C"}]}}`))
	if err != nil || old != nil || n.FirstName.Value != "C" {
		t.Fatalf("dataset create: %v %v %v", old, n, err)
	}
}

func TestDecodePersonSaveErrors(t *testing.T) {
	cases := []struct {
		name, body string
		code       int
		contains   string
	}{
		{"empty", ``, contract.CodeDeserialization, "empty"},
		{"syntax", "{\n\"firstName\": }", contract.CodeDeserialization, "line 2"},
		{"string", `"x"`, contract.CodeDeserialization, "Error deserializing Json: expected an object, found a string."},
		{"dataset beside a person", `{"firstName":"A","oldNewDataset":{"newData":[{}]}}`, contract.CodeInvalidValue, "a body with oldNewDataset holds nothing else"},
		{"unknown field", `{"oldNewDataset":{"oldData":[{"recNo":1}],"newData":[{"recNo":1,"firstNmae":"Ann"}]}}`, contract.CodeDeserialization,
			"oldNewDataset.newData[0].firstNmae: unknown field; did you mean firstName?"},
		{"no underscore", `{"branchRecNo":1}`, contract.CodeDeserialization, "branchRecNo: unknown field; did you mean branch_recNo?"},
		{"attachment type", `{"personAttachmentLink":[{"attachment":{"type":"link"}}]}`, contract.CodeDeserialization, "Path 'personAttachmentLink[0].attachment.type'"},
		{"file data not base64", `{"personAttachmentLink":[{"attachment":{"type":2,"fileData":"%%%"}}]}`, contract.CodeDeserialization,
			"expected base64 data, found a string in another form. Path 'personAttachmentLink[0].attachment.fileData'"},
		{"file data not a string", `{"personAttachmentLink":[{"attachment":{"type":2,"fileData":[1,2]}}]}`, contract.CodeDeserialization,
			"expected base64 data, found an array. Path 'personAttachmentLink[0].attachment.fileData'"},
		{"attachment typo", `{"personAttachmentLink":[{"attachment":{"fileNameLinkUrl2":"x"}}]}`, contract.CodeDeserialization, "did you mean fileNameLinkURL?"},
		{"empty array", `[]`, contract.CodeInvalidValue, "exactly one person, got 0"},
		{"two persons", `[{},{}]`, contract.CodeInvalidValue, "exactly one person, got 2"},
		{"newData two", `{"oldNewDataset":{"oldData":[{"recNo":1}],"newData":[{},{}]}}`, contract.CodeInvalidValue, "newData must hold exactly one person"},
		{"newData missing", `{"oldNewDataset":{"oldData":[{"recNo":1}]}}`, contract.CodeInvalidValue, "newData"},
		{"oldData two", `{"oldNewDataset":{"oldData":[{},{}],"newData":[{}]}}`, contract.CodeInvalidValue, "oldData must hold at most one"},
		{"dataset not object", `{"oldNewDataset":[1]}`, contract.CodeDeserialization, "Path 'oldNewDataset'"},
		{"card type", `{"personCardLink":[{"card":{"type":1}},{"card":{"type":"x"}}]}`, contract.CodeDeserialization, "Path 'personCardLink[1].card.type'"},
		{"top field", `{"firstName":123}`, contract.CodeDeserialization, "Path 'firstName'"},
		{"in array", `[{"personTag":[{"value":"a"},{"value":"b"},{"value":false}]}]`, contract.CodeDeserialization, "Path '[0].personTag[2].value'"},
		{"in dataset", `{"oldNewDataset":{"oldData":[{"recNo":1}],"newData":[{"recNo":1,"personCommunicationLink":[{"communication":{"isPrimary":"yes"}}]}]}}`, contract.CodeDeserialization, "Path 'oldNewDataset.newData[0].personCommunicationLink[0].communication.isPrimary'"},
		{"date", `{"personCardLink":[{"card":{"expirationDate":"someday"}}]}`, contract.CodeDeserialization, "Path 'personCardLink[0].card.expirationDate'"},
		{"child not array", `{"personCardLink":{"card":{}}}`, contract.CodeDeserialization, "Path 'personCardLink'"},
		{"cvv where no card is", `{"firstName":"A","CVVCode":"1"}`, contract.CodeDeserialization, "CVVCode: unknown field"},
		{"legacy card", `{"card":[{"type":1,"cardNumber":"x"}]}`, contract.CodeInvalidValue, "personCardLink"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := DecodePersonSave(jsoncodec.Strict, []byte(c.body))
			wantCode(t, err, c.code, c.contains)
		})
	}
}

func TestDecodePersonSaveNeverEchoesNumbers(t *testing.T) {
	_, _, err := DecodePersonSave(jsoncodec.Strict, []byte(`{"firstName":4111111111111111}`))
	if err == nil || strings.Contains(err.Error(), "4111") {
		t.Fatalf("error must not echo the value: %v", err)
	}
	_, _, err = DecodePersonSave(jsoncodec.Strict, []byte(`{"birthdayDay":4111111111111111111111}`))
	if err == nil || strings.Contains(err.Error(), "4111") {
		t.Fatalf("error must not echo the value: %v", err)
	}
	_, _, err = DecodePersonSave(jsoncodec.Strict, []byte(`{"personCardLink":[{"card":{"cvvCode":123}}]}`))
	if err == nil || strings.Contains(err.Error(), "123") {
		t.Fatalf("error must not echo the cvv: %v", err)
	}
}

func TestDecodeCVVEmptyIsFine(t *testing.T) {
	_, _, err := DecodePersonSave(jsoncodec.Strict, []byte(`{"activeStatus":1,"personCardLink":[{"card":{"type":2,"cardNumber":"L1","cvvCode":""}},{"card":{"type":2,"cardNumber":"L2","cvvCode":null}}]}`))
	if err != nil {
		t.Fatal(err)
	}
}

// A cvvCode is read so that the core refuses it (410) on either side; the
// rule is the core's (ValidatePerson, PersonService.Update).
func TestDecodeCVVReachesTheCore(t *testing.T) {
	_, n, err := DecodePersonSave(jsoncodec.Strict, []byte(`{"activeStatus":1,"personCardLink":[{"card":{"type":1,"cardNumber":"4111111111111111","cvvCode":"123"}}]}`))
	if err != nil || n.PersonCardLink[0].Card.CVVCode.Value != "123" {
		t.Fatalf("%v %+v", err, n)
	}
	err = wayfarer.ValidatePerson(n, true)
	if e := wayfarer.AsError(err); e == nil || e.Code != contract.CodeCardRule || strings.Contains(e.Message, "123") {
		t.Fatalf("cvv: %v", err)
	}
	old, _, err := DecodePersonSave(jsoncodec.Strict, []byte(`{"oldNewDataset":{"oldData":[{"recNo":1,"personCardLink":[{"card":{"cvvCode":"999"}}]}],"newData":[{"recNo":1}]}}`))
	if err != nil || old.PersonCardLink[0].Card.CVVCode.Value != "999" {
		t.Fatalf("old side: %v", err)
	}
}

// The members the reference has, once "not yet supported", are read with
// their values.
func TestDecodeReferenceMembers(t *testing.T) {
	_, n, err := DecodePersonSave(jsoncodec.Strict, []byte(`{"activeStatus":1,
		"personAttachmentLink":[{"person_recNo":null,"attachment_recNo":null,"attachment":{"type":2,"description":"passport scan",
			"fileNameLinkURL":"passport.pdf","fileData":"JVBERi0=","size":null,"compressed":false,"storeExternal":0,
			"createDateTime":null,"visibility":2,"directUrl":null,"subType":1}}],
		"personCommunicationLink":[{"communication":{"type":1,"value":"1","isBillingContact":true}}],
		"personActionItemLink":[{"personActionItem":{"type":3,"completedBy_appUserId":"ann","documentTemplate_recNo":12}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	a := n.PersonAttachmentLink[0].Attachment
	if string(a.FileData.Value.Bytes()) != "%PDF-" || a.Visibility.Value != 2 || a.FileNameLinkURL.Value != "passport.pdf" {
		t.Errorf("attachment %+v", a)
	}
	if c := n.PersonCommunicationLink[0].Communication; !c.IsBillingContact.Valid || !c.IsBillingContact.Value {
		t.Errorf("isBillingContact %+v", c.IsBillingContact)
	}
	ai := n.PersonActionItemLink[0].PersonActionItem
	if ai.Type.Value != 3 || ai.DocumentTemplate.Value != 12 || ai.CompletedByAppUserID.Value != "ann" {
		t.Errorf("action item %+v", ai)
	}
}

// Nulls and empty values the reference sends are accepted, so that a body
// loaded from the reference can come back.
func TestDecodeUnsupportedEmpty(t *testing.T) {
	_, n, err := DecodePersonSave(jsoncodec.Strict, []byte(`{"activeStatus":1,"personAttachmentLink":[],
		"personCommunicationLink":[{"communication":{"type":1,"value":"1","isBillingContact":null}}],
		"personActionItemLink":[{"personActionItem":{"type":null,"completedBy_appUserId":"","documentTemplate_recNo":null}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := wayfarer.ValidatePerson(n, true); err != nil {
		t.Fatal(err)
	}
}

// The text rules of the decoder come before the core's card rules.
func TestDecodePersonSaveRefusesBadText(t *testing.T) {
	cases := []struct {
		name, body string
		code       int
		contains   string
	}{
		{"invalid UTF-8", "{\"activeStatus\":1,\"personCommunicationLink\":[{\"communication\":{\"type\":1,\"value\":\"1\"}},{\"communication\":{\"type\":2,\"value\":\"a\xff@example.com\"}}]}",
			contract.CodeDeserialization, "invalid UTF-8 in a string. Path 'personCommunicationLink[1].communication.value', line 1, position"},
		{"invalid UTF-8 in a key", "[{\"activeStatus\":1,\"r\xe9marks\":\"x\"}]", contract.CodeDeserialization, "invalid UTF-8 in a key of this object. Path '[0]', line 1, position"},
		{"unpaired surrogate", `{"remarks":"\udead"}`, contract.CodeDeserialization, "surrogate"},
		{"NUL", `{"oldNewDataset":{"oldData":[{"recNo":1}],"newData":[{"recNo":1,"remarks":"x\u0000"}]}}`,
			contract.CodeInvalidValue, "a control character (U+0000) in a string; of the control characters only tab, line feed and carriage return are allowed. Path 'oldNewDataset.newData[0].remarks'."},
		{"DEL in a card field", `{"personCardLink":[{"card":{"type":2,"cardNumber":"L1\u007f"}}]}`, contract.CodeInvalidValue, "(U+007F) in a string; of the control characters only tab, line feed and carriage return are allowed. Path 'personCardLink[0].card.cardNumber'."},
		// Before the cvvCode rule too: the body is not text to judge.
		{"before cvv", `{"personCardLink":[{"card":{"type":1,"cvvCode":"123","nameOnCard":"\b"}}]}`, contract.CodeInvalidValue, "nameOnCard"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := DecodePersonSave(jsoncodec.Strict, []byte(c.body))
			wantCode(t, err, c.code, c.contains)
		})
	}
	// Malformed JSON keeps its syntax answer.
	_, _, err := DecodePersonSave(jsoncodec.Strict, []byte("{\"remarks\":\"\xff\",}"))
	wantCode(t, err, contract.CodeDeserialization, "Error deserializing Json: invalid UTF-8 in a string. Path 'remarks', line 1, position 13.")
	// Tab, line feed and carriage return are text.
	_, n, err := DecodePersonSave(jsoncodec.Strict, []byte(`{"activeStatus":1,"remarks":"a\tb\r\nc","lastName":"Ab\u0009ler"}`))
	if err != nil || n.Remarks.Value != "a\tb\r\nc" || n.LastName.Value != "Ab\tler" {
		t.Fatalf("%v %+v", err, n)
	}
	if err := wayfarer.ValidatePerson(n, true); err != nil {
		t.Fatal(err)
	}
}

// ValidatePerson applies the same text rules to persons built in Go.
