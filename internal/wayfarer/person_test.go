package wayfarer

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// Test card numbers (public test numbers, Luhn-valid).
const (
	testVisa       = "4111111111111111"
	testVisa2      = "4012888888881881"
	testMastercard = "5555555555554444"
	testAmex       = "378282246310005"
)

func mustPerson(t *testing.T, s string) *Person {
	t.Helper()
	var p Person
	if err := json.Unmarshal([]byte(s), &p); err != nil {
		t.Fatalf("bad test person: %v", err)
	}
	return &p
}

func wantCode(t *testing.T, err error, kind Kind, code int, contains string) {
	t.Helper()
	e := AsError(err)
	if e == nil {
		t.Fatalf("want error %d (%q), got %v", code, contains, err)
	}
	if e.Kind != kind || e.Code != code || !strings.Contains(e.Message, contains) {
		t.Fatalf("want kind %d code %d containing %q; got kind %d code %d %q", kind, code, contains, e.Kind, e.Code, e.Message)
	}
}

func TestPersonJSONPresence(t *testing.T) {
	p := mustPerson(t, `{"firstName":"Ken","middleName":null,"personCardLink":[]}`)
	if !p.FirstName.Valid || !p.MiddleName.Present || p.MiddleName.Valid || p.LastName.Present {
		t.Errorf("presence wrong: %+v %+v %+v", p.FirstName, p.MiddleName, p.LastName)
	}
	if p.PersonCardLink == nil || p.PersonTag != nil {
		t.Error("empty array must be non-nil, absent nil")
	}
	b, _ := json.Marshal(p)
	if string(b) != `{"firstName":"Ken","middleName":null,"personCardLink":[]}` {
		t.Errorf("round trip: %s", b)
	}
}

func TestDecodePersonSaveForms(t *testing.T) {
	old, n, err := DecodePersonSave([]byte(`{"recNo":null,"firstName":"Ken","lastName":"Abler","activeStatus":1}`))
	if err != nil || old != nil || n.FirstName.Value != "Ken" {
		t.Fatalf("object: %v %v %v", old, n, err)
	}
	old, n, err = DecodePersonSave([]byte(` [ {"firstName":"Sue"} ] `))
	if err != nil || old != nil || n.FirstName.Value != "Sue" {
		t.Fatalf("array: %v %v %v", old, n, err)
	}
	old, n, err = DecodePersonSave([]byte(`{"oldNewDataset":{"oldData":[{"recNo":5,"firstName":"A"}],"newData":[{"recNo":5,"firstName":"B"}]}}`))
	if err != nil || old.FirstName.Value != "A" || n.FirstName.Value != "B" {
		t.Fatalf("dataset: %v %v %v", old, n, err)
	}
	old, n, err = DecodePersonSave([]byte(`{"oldNewDataset":{"oldData":[],"newData":[{"firstName":"C"}]}}`))
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
		{"empty", ``, CodeDeserialization, "empty"},
		{"syntax", "{\n\"firstName\": }", CodeDeserialization, "line 2"},
		{"string", `"x"`, CodeDeserialization, "expected a person"},
		{"empty array", `[]`, CodeInvalidValue, "exactly one person, got 0"},
		{"two persons", `[{},{}]`, CodeInvalidValue, "exactly one person, got 2"},
		{"newData two", `{"oldNewDataset":{"oldData":[{"recNo":1}],"newData":[{},{}]}}`, CodeInvalidValue, "newData must hold exactly one person"},
		{"newData missing", `{"oldNewDataset":{"oldData":[{"recNo":1}]}}`, CodeInvalidValue, "newData"},
		{"oldData two", `{"oldNewDataset":{"oldData":[{},{}],"newData":[{}]}}`, CodeInvalidValue, "oldData must hold at most one"},
		{"dataset not object", `{"oldNewDataset":[1]}`, CodeDeserialization, "Path 'oldNewDataset'"},
		{"card type", `{"personCardLink":[{"card":{"type":1}},{"card":{"type":"x"}}]}`, CodeDeserialization, "Path 'personCardLink[1].card.type'"},
		{"top field", `{"firstName":123}`, CodeDeserialization, "Path 'firstName'"},
		{"in array", `[{"personTag":[{"value":"a"},{"value":"b"},{"value":false}]}]`, CodeDeserialization, "Path '[0].personTag[2].value'"},
		{"in dataset", `{"oldNewDataset":{"oldData":[{"recNo":1}],"newData":[{"recNo":1,"personCommunicationLink":[{"communication":{"isPrimary":"yes"}}]}]}}`, CodeDeserialization, "Path 'oldNewDataset.newData[0].personCommunicationLink[0].communication.isPrimary'"},
		{"date", `{"personCardLink":[{"card":{"expirationDate":"someday"}}]}`, CodeDeserialization, "Path 'personCardLink[0].card.expirationDate'"},
		{"child not array", `{"personCardLink":{"card":{}}}`, CodeDeserialization, "Path 'personCardLink'"},
		{"cvv", `{"personCardLink":[{"card":{"type":1,"cvvCode":"123"}}]}`, CodeCardRule, "cvvCode"},
		{"cvv old side", `{"oldNewDataset":{"oldData":[{"recNo":1,"personCardLink":[{"card":{"cvvCode":"999"}}]}],"newData":[{"recNo":1}]}}`, CodeCardRule, "cvvCode"},
		{"cvv anywhere", `{"firstName":"A","CVVCode":"1"}`, CodeCardRule, "cvvCode"},
		{"legacy card", `{"card":[{"type":1,"cardNumber":"x"}]}`, CodeInvalidValue, "personCardLink"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := DecodePersonSave([]byte(c.body))
			wantCode(t, err, KindInvalid, c.code, c.contains)
		})
	}
}

func TestDecodePersonSaveNeverEchoesNumbers(t *testing.T) {
	_, _, err := DecodePersonSave([]byte(`{"firstName":4111111111111111}`))
	if err == nil || strings.Contains(err.Error(), "4111") {
		t.Fatalf("error must not echo the value: %v", err)
	}
	_, _, err = DecodePersonSave([]byte(`{"birthdayDay":4111111111111111111111}`))
	if err == nil || strings.Contains(err.Error(), "4111") {
		t.Fatalf("error must not echo the value: %v", err)
	}
	_, _, err = DecodePersonSave([]byte(`{"personCardLink":[{"card":{"cvvCode":"123"}}]}`))
	if err == nil || strings.Contains(err.Error(), "123") {
		t.Fatalf("error must not echo the cvv: %v", err)
	}
}

func TestDecodeCVVEmptyIsFine(t *testing.T) {
	_, _, err := DecodePersonSave([]byte(`{"activeStatus":1,"personCardLink":[{"card":{"type":2,"cardNumber":"L1","cvvCode":""}},{"card":{"type":2,"cardNumber":"L2","cvvCode":null}}]}`))
	if err != nil {
		t.Fatal(err)
	}
}

// fullPerson holds one record of every kind, every string field set.
func fullPerson(t *testing.T) *Person {
	return mustPerson(t, `{
		"firstName":"Ken","middleName":"M","lastName":"Abler","courtesyTitle":"Mr","salutation":"Dear Ken",
		"birthdayDay":1,"birthdayMonth":2,"birthdayYear":1980,"birthdayNote":"n","citizenship":"US",
		"redressNumber":"r","knownTravelerNumber":"k","gender":"M","uniqueId":"u","remarks":"x",
		"emergencyContactName":"a","emergencyContactRelationship":"b","emergencyContactPhone":"c","emergencyContactEmail":"d",
		"activeStatus":1,
		"personCommunicationLink":[{"communication":{"type":1,"subType":"s","value":"v","countryDomain":"c","cityArea":"ca","userSpecific":"u","description":"d"}}],
		"personCardLink":[{"card":{"type":2,"cardNumber":"L1","issuingCity":"c","issuingCountry":"US","issuingCountryName":"n","description":"d","code":"c","nameOnCard":"n"}}],
		"personTag":[{"tag_recNo":1,"value":"v"}],
		"personActionItemLink":[{"personActionItem":{"description":"d","triggerIndex":1,"triggerFixedDate":"2024-01-01","notes":"n"}}],
		"personMarketing":[{"marketingElement_recNo":1}]
	}`)
}

// eachStringField visits every settable string field of the person's records.
func eachStringField(p *Person, fn func(path string, set func(string))) {
	for _, r := range records(p) {
		v := reflect.ValueOf(r.value).Elem()
		for _, f := range fieldsOf(v.Type()) {
			if !f.str || f.ro || f.input {
				continue
			}
			fv := v.Field(f.index)
			fn(joinPath(r.path, f.name), func(s string) { fv.Set(reflect.ValueOf(Some(s))) })
		}
	}
}

func TestValidateFullPersonOK(t *testing.T) {
	if err := ValidatePerson(fullPerson(t), true); err != nil {
		t.Fatal(err)
	}
}

func TestValidateSizes(t *testing.T) {
	n := 0
	eachStringField(fullPerson(t), func(path string, _ func(string)) {
		p := fullPerson(t)
		eachStringField(p, func(path2 string, set func(string)) {
			if path2 != path {
				return
			}
			var max int
			for _, rec := range records(p) {
				v := reflect.ValueOf(rec.value).Elem()
				for _, f := range fieldsOf(v.Type()) {
					if joinPath(rec.path, f.name) == path {
						max = f.max
					}
				}
			}
			if max == 0 {
				t.Errorf("%s has no size", path)
				return
			}
			set(strings.Repeat("é", max))
			if err := ValidatePerson(p, true); err != nil {
				t.Errorf("%s at %d chars: %v", path, max, err)
			}
			set(strings.Repeat("é", max+1))
			err := ValidatePerson(p, true)
			e := AsError(err)
			want := path + " is longer than "
			if e == nil || e.Code != CodeInvalidValue || !strings.HasPrefix(e.Message, want) {
				t.Errorf("%s: want %q..., got %v", path, want, err)
			}
			n++
		})
	})
	if n < 33 {
		t.Errorf("only %d string fields checked", n)
	}
}

func TestValidateCardNumberInText(t *testing.T) {
	n := 0
	eachStringField(fullPerson(t), func(path string, _ func(string)) {
		p := fullPerson(t)
		eachStringField(p, func(path2 string, set func(string)) {
			if path2 != path {
				return
			}
			n++
			set("4111 1111 1111 1111")
			err := ValidatePerson(p, true)
			if strings.HasSuffix(path, "card.cardNumber") || strings.HasSuffix(path, "cardNumberToken") {
				if err != nil {
					t.Errorf("%s must accept a number: %v", path, err)
				}
				return
			}
			wantCode(t, err, KindInvalid, CodeCardRule, "card numbers must not be written into text fields (field "+path+")")
		})
	})
	if n < 33 {
		t.Errorf("only %d fields checked", n)
	}
}

func TestValidateRanges(t *testing.T) {
	cases := []struct {
		name, body string
		create     bool
		code       int
		contains   string
	}{
		{"activeStatus required", `{"firstName":"A"}`, true, CodeInvalidValue, "activeStatus is required"},
		{"activeStatus null on update", `{"recNo":1,"activeStatus":null}`, false, CodeInvalidValue, "activeStatus is required"},
		{"activeStatus absent on update", `{"recNo":1}`, false, 0, ""},
		{"activeStatus range", `{"activeStatus":3}`, true, CodeInvalidValue, "activeStatus must be one of"},
		{"activeStatus negative", `{"activeStatus":-1}`, true, CodeInvalidValue, "activeStatus must be one of"},
		{"birthday month", `{"activeStatus":1,"birthdayMonth":13}`, true, CodeInvalidValue, "birthdayMonth"},
		{"birthday day", `{"activeStatus":1,"birthdayMonth":2,"birthdayDay":30}`, true, CodeInvalidValue, "birthdayDay must be 1 to 29"},
		{"birthday feb 29 1981", `{"activeStatus":1,"birthdayMonth":2,"birthdayDay":29,"birthdayYear":1981}`, true, CodeInvalidValue, "birthdayDay must be 1 to 28"},
		{"birthday feb 29 no year", `{"activeStatus":1,"birthdayMonth":2,"birthdayDay":29}`, true, 0, ""},
		{"card type", `{"activeStatus":1,"personCardLink":[{"card":{"type":4,"cardNumber":"x"}}]}`, true, CodeInvalidValue, "personCardLink[0].card.type must be one of"},
		{"card type required", `{"activeStatus":1,"personCardLink":[{"card":{"cardNumber":"x"}}]}`, true, CodeInvalidValue, "personCardLink[0].card.type is required"},
		{"card number required", `{"activeStatus":1,"personCardLink":[{"card":{"type":2}}]}`, true, CodeInvalidValue, "personCardLink[0].card.cardNumber is required"},
		{"card number empty", `{"activeStatus":1,"personCardLink":[{"card":{"type":2,"cardNumber":""}}]}`, true, CodeInvalidValue, "personCardLink[0].card.cardNumber is required"},
		{"card missing", `{"activeStatus":1,"personCardLink":[{"person_recNo":null,"card_recNo":null}]}`, true, CodeInvalidValue, "personCardLink[0].card is required"},
		{"comm type", `{"activeStatus":1,"personCommunicationLink":[{"communication":{"type":5}}]}`, true, CodeInvalidValue, "personCommunicationLink[0].communication.type must be one of"},
		{"comm type required", `{"activeStatus":1,"personCommunicationLink":[{"communication":{"value":"x"}}]}`, true, CodeInvalidValue, "communication.type is required"},
		{"comm type null on edit", `{"recNo":1,"personCommunicationLink":[{"communication_recNo":3,"communication":{"recNo":3,"type":null}}]}`, false, CodeInvalidValue, "communication.type is required"},
		{"contact option", `{"activeStatus":1,"personCommunicationLink":[{"communication":{"type":1,"contactOption":3}}]}`, true, CodeInvalidValue, "contactOption"},
		{"trigger", `{"activeStatus":1,"personActionItemLink":[{"personActionItem":{"triggerIndex":0}}]}`, true, CodeInvalidValue, "personActionItemLink[0].personActionItem.triggerIndex must be one of"},
		{"trigger ok", `{"activeStatus":1,"personActionItemLink":[{"personActionItem":{"triggerIndex":3}}]}`, true, 0, ""},
		{"action item missing", `{"activeStatus":1,"personActionItemLink":[{}]}`, true, CodeInvalidValue, "personActionItem is required"},
		{"tag id", `{"activeStatus":1,"personTag":[{"value":"x"}]}`, true, CodeInvalidValue, "personTag[0].tag_recNo is required"},
		{"marketing id", `{"activeStatus":1,"personMarketing":[{"affiliation_recNo":1}]}`, true, CodeInvalidValue, "personMarketing[0].marketingElement_recNo is required"},
		{"cvv in struct", `{"activeStatus":1,"personCardLink":[{"card":{"type":1,"cardNumber":"4111111111111111","cvvCode":"123"}}]}`, true, CodeCardRule, "cvvCode"},
		{"read-only ignored", `{"activeStatus":1,"branchName":"` + strings.Repeat("x", 500) + ` 4111111111111111","age":-5}`, true, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := ValidatePerson(mustPerson(t, c.body), c.create)
			if c.code == 0 {
				if err != nil {
					t.Fatalf("unexpected %v", err)
				}
				return
			}
			wantCode(t, err, KindInvalid, c.code, c.contains)
		})
	}
}

func TestNewCardToken(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 2000; i++ {
		tok := NewCardToken()
		if len(tok) != 28 || !strings.HasPrefix(tok, "tok_") || ContainsCardNumber(tok) || seen[tok] {
			t.Fatalf("bad token %q", tok)
		}
		seen[tok] = true
	}
}

func TestValidatePhoneNumbersAreNotCards(t *testing.T) {
	person := func(typ int, value string) *Person {
		return &Person{FirstName: Some("Ada"), LastName: Some("Lovelace"), ActiveStatus: Some(1),
			PersonCommunicationLink: []CommunicationLink{{Communication: &Communication{Type: Some(typ), Value: Some(value)}}}}
	}
	// a 13-digit mobile number that passes Luhn with a Visa-like prefix
	if err := ValidatePerson(person(CommPhone, "+49 151 1234 5678"), true); err != nil {
		t.Fatalf("a phone number was refused: %v", err)
	}
	err := ValidatePerson(person(CommEmail, "4915112345678@example.com"), true)
	wantCode(t, err, KindInvalid, CodeCardRule, "card numbers must not be written into text fields (field personCommunicationLink[0].communication.value)")
	err = ValidatePerson(person(CommPhone, "4111 1111 1111 1111"), true)
	wantCode(t, err, KindInvalid, CodeCardRule, "card numbers must not be written into text fields (field personCommunicationLink[0].communication.value)")
	// Issue 11: a 13-15-digit card number is refused in a phone field unless
	// it is a valid phone number; WhatsApp numbers and links are phones.
	for _, v := range []string{"378282246310005", "+378282246310005", "30569309025904", "(305) 693-0902-5904"} {
		err = ValidatePerson(person(CommPhone, v), true)
		wantCode(t, err, KindInvalid, CodeCardRule, "(field personCommunicationLink[0].communication.value)")
	}
	for _, c := range []struct {
		typ   int
		value string
	}{{CommPhone, "4915112345678"}, {CommSocialMedia, "https://wa.me/4915112345678"}, {CommPhone, "+43 664 1234567"}} {
		if err := ValidatePerson(person(c.typ, c.value), true); err != nil {
			t.Errorf("%q (type %d) was refused: %v", c.value, c.typ, err)
		}
	}
	p := person(CommEmail, "ada@example.com")
	p.EmergencyContactPhone = Some("4915112345678")
	if err := ValidatePerson(p, true); err != nil {
		t.Errorf("an emergency contact's phone without its + was refused: %v", err)
	}
	p.EmergencyContactPhone = Some("+37 8282 2463 10005")
	wantCode(t, ValidatePerson(p, true), KindInvalid, CodeCardRule, "(field emergencyContactPhone)")
}

// Every free-text field refuses a card number however it is hidden.
func TestValidateDisguisedCardNumberInText(t *testing.T) {
	disguises := []string{"4111_1111_1111_1111", "(5555)(5555)(5555)(4444)", "3782\t822463\n10005",
		"\uff14\uff11\uff11\uff11 \uff11\uff11\uff11\uff11 \uff11\uff11\uff11\uff11 \uff11\uff11\uff11\uff11",
		"\u2074\u00b9\u00b9\u00b9\u00b9\u00b9\u00b9\u00b9\u00b9\u00b9\u00b9\u00b9\u00b9\u00b9\u00b9\u00b9",
		"4\u03321\u03321\u03321\u03321\u03321\u03321\u03321\u03321\u03321\u03321\u03321\u03321\u03321\u03321\u03321\u0332",
		"2200\u00b70000\u00b70000\u00b70004", "1354:1001:4004:955", "6799.9901.0000.0000.019"}
	n := 0
	eachStringField(fullPerson(t), func(path string, _ func(string)) {
		if strings.HasSuffix(path, "card.cardNumber") || strings.HasSuffix(path, "cardNumberToken") {
			return
		}
		p := fullPerson(t)
		eachStringField(p, func(path2 string, set func(string)) {
			if path2 != path {
				return
			}
			v := disguises[n%len(disguises)]
			n++
			set(v)
			wantCode(t, ValidatePerson(p, true), KindInvalid, CodeCardRule, "card numbers must not be written into text fields (field "+path+")")
		})
	})
	if n < 31 {
		t.Errorf("only %d fields checked", n)
	}
}

// The JSON text rules (CheckJSONText) run first in DecodePersonSave.
func TestDecodePersonSaveRefusesBadText(t *testing.T) {
	cases := []struct {
		name, body string
		code       int
		contains   string
	}{
		{"invalid UTF-8", "{\"activeStatus\":1,\"personCommunicationLink\":[{\"communication\":{\"type\":1,\"value\":\"1\"}},{\"communication\":{\"type\":2,\"value\":\"a\xff@example.com\"}}]}",
			CodeDeserialization, "invalid UTF-8 in a string. Path 'personCommunicationLink[1].communication.value'."},
		{"invalid UTF-8 in a key", "[{\"activeStatus\":1,\"r\xe9marks\":\"x\"}]", CodeDeserialization, "invalid UTF-8 in a key of this object. Path '[0]'."},
		{"unpaired surrogate", `{"remarks":"\udead"}`, CodeDeserialization, "surrogate"},
		{"NUL", `{"oldNewDataset":{"oldData":[{"recNo":1}],"newData":[{"recNo":1,"remarks":"x\u0000"}]}}`,
			CodeInvalidValue, "a control character (U+0000) in a string; of the control characters only tab, line feed and carriage return are allowed. Path 'oldNewDataset.newData[0].remarks'."},
		{"DEL in a card field", `{"personCardLink":[{"card":{"type":2,"cardNumber":"L1\u007f"}}]}`, CodeInvalidValue, "(U+007F) in a string; of the control characters only tab, line feed and carriage return are allowed. Path 'personCardLink[0].card.cardNumber'."},
		// Before the cvvCode rule too: the body is not text to judge.
		{"before cvv", `{"personCardLink":[{"card":{"type":1,"cvvCode":"123","nameOnCard":"\b"}}]}`, CodeInvalidValue, "nameOnCard"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := DecodePersonSave([]byte(c.body))
			wantCode(t, err, KindInvalid, c.code, c.contains)
			if e := AsError(err); e.Method != MethodPerson {
				t.Fatalf("method %q", e.Method)
			}
		})
	}
	// Malformed JSON keeps its syntax answer.
	_, _, err := DecodePersonSave([]byte("{\"remarks\":\"\xff\",}"))
	wantCode(t, err, KindInvalid, CodeDeserialization, "malformed JSON at line 1")
	// Tab, line feed and carriage return are text.
	_, n, err := DecodePersonSave([]byte(`{"activeStatus":1,"remarks":"a\tb\r\nc","lastName":"Ab\u0009ler"}`))
	if err != nil || n.Remarks.Value != "a\tb\r\nc" || n.LastName.Value != "Ab\tler" {
		t.Fatalf("%v %+v", err, n)
	}
	if err := ValidatePerson(n, true); err != nil {
		t.Fatal(err)
	}
}

// ValidatePerson applies the same text rules to persons built in Go.
func TestValidateText(t *testing.T) {
	n := 0
	eachStringField(fullPerson(t), func(path string, _ func(string)) {
		for _, c := range []struct {
			value    string
			contains string
		}{
			{"a\x00b", path + " must not contain a control character (U+0000); of the control characters only tab, line feed and carriage return are allowed"},
			{"\x1b", path + " must not contain a control character (U+001B)"},
			{"a\x7f", path + " must not contain a control character (U+007F)"},
			{"a\xffb", path + " is not valid UTF-8"},
			{"\xed\xa0\x80", path + " is not valid UTF-8"},
			{"\t", ""}, // one character: gender has room for no more
			{"\n", ""},
			{"\r", ""},
			{"ë", ""},
		} {
			p := fullPerson(t)
			eachStringField(p, func(path2 string, set func(string)) {
				if path2 == path {
					set(c.value)
				}
			})
			err := ValidatePerson(p, true)
			if c.contains == "" {
				if err != nil {
					t.Errorf("%s = %q: %v", path, c.value, err)
				}
				continue
			}
			wantCode(t, err, KindInvalid, CodeInvalidValue, c.contains)
		}
		n++
	})
	if n < 33 {
		t.Errorf("only %d fields checked", n)
	}
}
