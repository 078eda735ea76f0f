package wayfarer

import (
	"reflect"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// Test card numbers (public test numbers, Luhn-valid).
const (
	testVisa       = "4111111111111111"
	testVisa2      = "4012888888881881"
	testMastercard = "5555555555554444"
	testAmex       = "378282246310005"
)

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
			if e == nil || e.Code != contract.CodeInvalidValue || !strings.HasPrefix(e.Message, want) {
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
			wantCode(t, err, KindInvalid, contract.CodeCardRule, "card numbers must not be written into text fields (field "+path+")")
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
		{"activeStatus required", `{"firstName":"A"}`, true, contract.CodeInvalidValue, "activeStatus is required"},
		{"activeStatus null on update", `{"recNo":1,"activeStatus":null}`, false, contract.CodeInvalidValue, "activeStatus is required"},
		{"activeStatus absent on update", `{"recNo":1}`, false, 0, ""},
		{"activeStatus range", `{"activeStatus":3}`, true, contract.CodeInvalidValue, "activeStatus must be one of"},
		{"activeStatus negative", `{"activeStatus":-1}`, true, contract.CodeInvalidValue, "activeStatus must be one of"},
		{"birthday month", `{"activeStatus":1,"birthdayMonth":13}`, true, contract.CodeInvalidValue, "birthdayMonth"},
		{"birthday day", `{"activeStatus":1,"birthdayMonth":2,"birthdayDay":30}`, true, contract.CodeInvalidValue, "birthdayDay must be 1 to 29"},
		{"birthday feb 29 1981", `{"activeStatus":1,"birthdayMonth":2,"birthdayDay":29,"birthdayYear":1981}`, true, contract.CodeInvalidValue, "birthdayDay must be 1 to 28"},
		{"birthday feb 29 no year", `{"activeStatus":1,"birthdayMonth":2,"birthdayDay":29}`, true, 0, ""},
		{"card type", `{"activeStatus":1,"personCardLink":[{"card":{"type":4,"cardNumber":"x"}}]}`, true, contract.CodeInvalidValue, "personCardLink[0].card.type must be one of"},
		{"card type required", `{"activeStatus":1,"personCardLink":[{"card":{"cardNumber":"x"}}]}`, true, contract.CodeInvalidValue, "personCardLink[0].card.type is required"},
		{"card number required", `{"activeStatus":1,"personCardLink":[{"card":{"type":2}}]}`, true, contract.CodeInvalidValue, "personCardLink[0].card.cardNumber is required"},
		{"card number empty", `{"activeStatus":1,"personCardLink":[{"card":{"type":2,"cardNumber":""}}]}`, true, contract.CodeInvalidValue, "personCardLink[0].card.cardNumber is required"},
		{"card missing", `{"activeStatus":1,"personCardLink":[{"person_recNo":null,"card_recNo":null}]}`, true, contract.CodeInvalidValue, "personCardLink[0].card is required"},
		{"comm type", `{"activeStatus":1,"personCommunicationLink":[{"communication":{"type":5}}]}`, true, contract.CodeInvalidValue, "personCommunicationLink[0].communication.type must be one of"},
		{"comm type required", `{"activeStatus":1,"personCommunicationLink":[{"communication":{"value":"x"}}]}`, true, contract.CodeInvalidValue, "communication.type is required"},
		{"comm type null on edit", `{"recNo":1,"personCommunicationLink":[{"communication_recNo":3,"communication":{"recNo":3,"type":null}}]}`, false, contract.CodeInvalidValue, "communication.type is required"},
		{"contact option", `{"activeStatus":1,"personCommunicationLink":[{"communication":{"type":1,"contactOption":3}}]}`, true, contract.CodeInvalidValue, "contactOption"},
		{"trigger", `{"activeStatus":1,"personActionItemLink":[{"personActionItem":{"triggerIndex":0}}]}`, true, contract.CodeInvalidValue, "personActionItemLink[0].personActionItem.triggerIndex must be one of"},
		{"trigger ok", `{"activeStatus":1,"personActionItemLink":[{"personActionItem":{"triggerIndex":3}}]}`, true, 0, ""},
		{"action item missing", `{"activeStatus":1,"personActionItemLink":[{}]}`, true, contract.CodeInvalidValue, "personActionItem is required"},
		{"tag id", `{"activeStatus":1,"personTag":[{"value":"x"}]}`, true, contract.CodeInvalidValue, "personTag[0].tag_recNo is required"},
		{"marketing id", `{"activeStatus":1,"personMarketing":[{"affiliation_recNo":1}]}`, true, contract.CodeInvalidValue, "personMarketing[0].marketingElement_recNo is required"},
		{"cvv in struct", `{"activeStatus":1,"personCardLink":[{"card":{"type":1,"cardNumber":"4111111111111111","cvvCode":"123"}}]}`, true, contract.CodeCardRule, "cvvCode"},
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
	wantCode(t, err, KindInvalid, contract.CodeCardRule, "card numbers must not be written into text fields (field personCommunicationLink[0].communication.value)")
	err = ValidatePerson(person(CommPhone, "4111 1111 1111 1111"), true)
	wantCode(t, err, KindInvalid, contract.CodeCardRule, "card numbers must not be written into text fields (field personCommunicationLink[0].communication.value)")
	// Issue 11: a 13-15-digit card number is refused in a phone field unless
	// it is a valid phone number; WhatsApp numbers and links are phones.
	for _, v := range []string{"378282246310005", "+378282246310005", "30569309025904", "(305) 693-0902-5904"} {
		err = ValidatePerson(person(CommPhone, v), true)
		wantCode(t, err, KindInvalid, contract.CodeCardRule, "(field personCommunicationLink[0].communication.value)")
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
	wantCode(t, ValidatePerson(p, true), KindInvalid, contract.CodeCardRule, "(field emergencyContactPhone)")
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
			wantCode(t, ValidatePerson(p, true), KindInvalid, contract.CodeCardRule, "card numbers must not be written into text fields (field "+path+")")
		})
	})
	if n < 31 {
		t.Errorf("only %d fields checked", n)
	}
}

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
			wantCode(t, err, KindInvalid, contract.CodeInvalidValue, c.contains)
		}
		n++
	})
	if n < 33 {
		t.Errorf("only %d fields checked", n)
	}
}
