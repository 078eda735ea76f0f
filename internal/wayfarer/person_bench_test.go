package wayfarer

import "testing"

// loadedPerson is a person as a load answers it: one record of every kind,
// each with its recNo, every string field set.
func loadedPerson(tb testing.TB) *Person {
	return mustPerson(tb, `{
		"recNo":7,"firstName":"Ken","middleName":"M","lastName":"Abler","courtesyTitle":"Mr","salutation":"Dear Ken",
		"birthdayDay":1,"birthdayMonth":2,"birthdayYear":1980,"birthdayNote":"n","citizenship":"US",
		"redressNumber":"r","knownTravelerNumber":"k","gender":"M","uniqueId":"u","remarks":"x",
		"emergencyContactName":"a","emergencyContactRelationship":"b","emergencyContactPhone":"c","emergencyContactEmail":"d",
		"activeStatus":1,
		"personCommunicationLink":[
			{"communication_recNo":11,"communication":{"recNo":11,"type":2,"value":"ken.abler@example.com","description":"home"}},
			{"communication_recNo":12,"communication":{"recNo":12,"type":1,"subType":"mobile","value":"+1 555 0100","countryDomain":"1","cityArea":"555"}}],
		"personCardLink":[{"card_recNo":21,"card":{"recNo":21,"type":2,"cardNumber":"L1","issuingCity":"c","issuingCountry":"US","description":"d","code":"c","nameOnCard":"n"}}],
		"personTag":[{"recNo":31,"tag_recNo":1,"value":"gold"},{"recNo":32,"tag_recNo":2}],
		"personActionItemLink":[{"actionItem_recNo":41,"personActionItem":{"recNo":41,"description":"d","triggerIndex":1,"triggerFixedDate":"2024-01-01","notes":"n"}}]
	}`)
}

// BenchmarkValidateAndDiffPerson is the core's own work on a save of one
// changed field (issue 15 target 4): ValidatePerson of the new side and
// DiffPerson of the two.
func BenchmarkValidateAndDiffPerson(b *testing.B) {
	old, new := loadedPerson(b), loadedPerson(b)
	new.Remarks = Some("changed")
	d, err := DiffPerson(old, new)
	if err != nil || !d.PersonOnly() || len(d.Fields) != 1 {
		b.Fatalf("diff %+v, %v", d, err)
	}
	b.Run("validate", func(b *testing.B) {
		for b.Loop() {
			if err := ValidatePerson(new, false); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("diff", func(b *testing.B) {
		for b.Loop() {
			if _, err := DiffPerson(old, new); err != nil {
				b.Fatal(err)
			}
		}
	})
}
