package wire

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
)

// benchPersonBody is a realistic update body: a full person on both sides,
// with some non-ASCII text.
func benchPersonBody() []byte {
	p := `{"recNo":1042,"firstName":"Zoë","middleName":"M","lastName":"Ærøskøbing-Müller","courtesyTitle":"Dr.",
		"salutation":"Liebe Zoë","birthdayDay":15,"birthdayMonth":3,"birthdayYear":1980,"birthdayNote":"Geburtstag im Urlaub",
		"citizenship":"DE","redressNumber":"R1234567","knownTravelerNumber":"KTN98765","gender":"F","uniqueId":"u-1042",
		"branch_recNo":1,"branchName":"Main","advisorProfile_recNo":3,"advisorName":"Alice Advisor",
		"remarks":"Prefers aisle seats.\nVegetarian meals; allergic to nuts.\tWindow on long-haul flights to 東京.",
		"emergencyContactName":"Jörg Müller","emergencyContactRelationship":"Bruder","emergencyContactPhone":"+49 151 1234 5678",
		"emergencyContactEmail":"joerg@example.com","activeStatus":1,"age":46,
		"createDateTime":"2024-01-02T03:04:05.000000Z","lastModifiedDateTime":"2026-01-02T03:04:05.000000Z",
		"personCommunicationLink":[
			{"person_recNo":1042,"communication_recNo":7,"communication":{"recNo":7,"type":1,"subType":"mobile","value":"+49 151 1234 5678","countryDomain":"49","cityArea":"151","userSpecific":null,"description":"Handy","isPrimary":true,"permitMarketing":false,"contactOption":null}},
			{"person_recNo":1042,"communication_recNo":8,"communication":{"recNo":8,"type":2,"subType":"home","value":"zoe@example.com","countryDomain":null,"cityArea":null,"userSpecific":null,"description":"privat","isPrimary":true,"permitMarketing":true,"contactOption":1}}],
		"personCardLink":[
			{"person_recNo":1042,"card_recNo":11,"card":{"recNo":11,"type":1,"subType":null,"cardNumber":"VI 41-XXXX-1111","issueDate":null,"expirationDate":"2028-12-31","issuingCity":null,"issuingCountry":"DE","issuingCountryName":"Deutschland","description":"Firmenkarte","cardNumberToken":"tok_0123456789abcdef01234567","code":null,"nameOnCard":"ZOE MUELLER"}},
			{"person_recNo":1042,"card_recNo":12,"card":{"recNo":12,"type":2,"subType":4,"cardNumber":"UA-778899","description":"MileagePlus Gold – Star Alliance","nameOnCard":null}},
			{"person_recNo":1042,"card_recNo":13,"card":{"recNo":13,"type":3,"cardNumber":"C01X00T47","issueDate":"2020-01-02","expirationDate":"2030-01-01","issuingCountry":"DE","issuingCountryName":"Deutschland"}}],
		"personMarketing":[{"person_recNo":1042,"marketingElement_recNo":2,"affiliation_recNo":null}],
		"personTag":[{"recNo":21,"person_recNo":1042,"tag_recNo":1,"name":"VIP","value":"gold"},{"recNo":22,"person_recNo":1042,"tag_recNo":2,"name":"Dietary","value":"vegetarian, no nuts"}],
		"personActionItemLink":[{"person_recNo":1042,"actionItem_recNo":31,"personActionItem":{"recNo":31,"description":"Call about renewal","triggerIndex":1,"triggerDaysOffset":-2,"triggerFixedDate":"2026-12-01","appUser_recNo":4,"appUserId":"agent","completed":null,"completedBy_appUserRecNo":null,"notes":"Passport expires soon.\nRemind two weeks before; offer the 東京 package."}}]}`
	return []byte(`{"oldNewDataset":{"oldData":[` + p + `],"newData":[` + strings.Replace(p, "aisle", "window", 1) + `]}}`)
}

// BenchmarkDecodePersonSave reads a full update body: one pass, text
// checks, unknown and unsupported members included.
func BenchmarkDecodePersonSave(b *testing.B) {
	body := benchPersonBody()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := DecodePersonSave(jsoncodec.Strict, body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnmarshalAny is the yardstick: encoding/json of the same body
// into any, which checks nothing.
func BenchmarkUnmarshalAny(b *testing.B) {
	body := benchPersonBody()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPersonJSON writes the answer of GET /person for the same full
// person (target 4 of issue 15: part of every load over HTTP).
func BenchmarkPersonJSON(b *testing.B) {
	_, p, err := DecodePersonSave(jsoncodec.Strict, benchPersonBody())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		out, err := PersonJSON(p)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(out)))
	}
}
