//lint:file-ignore SA1019 these tests check how the deprecated card fields (cvvCode, person_recNo) are refused and shown.

package http_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// TestPersonCardLinkTable covers every row of contract §3's card-link table,
// through POST /person and POST /person/refresh.
func TestPersonCardLinkTable(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		cardRows := func() int {
			var n int
			if err := s.App.DB.Primary().QueryRow(`SELECT COUNT(*) FROM card`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}

		t.Run("row 1: a link in oldData absent from newData is deleted, with its card", func(t *testing.T) {
			recNo := admin.create(kenJSON(r))
			old := admin.load(recNo)
			before := cardRows()
			n := clone(t, old)
			loyalty := cardByType(t, old, 2).CardRecNo.Value
			var keep []wayfarer.CardLink
			for _, l := range n.PersonCardLink {
				if l.CardRecNo.Value != loyalty {
					keep = append(keep, l)
				}
			}
			n.PersonCardLink = keep
			wantResult(t, admin.update(old, n), 200, 0, "")
			got := admin.load(recNo)
			if len(got.PersonCardLink) != 2 || cardRows() != before-1 {
				t.Fatalf("after removal %s (cards %d→%d)", mustJSON(t, got.PersonCardLink), before, cardRows())
			}
			// The kept cards are untouched: same ids, number and token.
			if mustJSON(t, got.PersonCardLink) != mustJSON(t, keep) {
				t.Fatalf("kept links changed:\n%s\n%s", mustJSON(t, got.PersonCardLink), mustJSON(t, keep))
			}
		})

		t.Run("row 2: an empty personCardLink removes every old link", func(t *testing.T) {
			recNo := admin.create(kenJSON(r))
			old := admin.load(recNo)
			before := cardRows()
			n := clone(t, old)
			n.PersonCardLink = []wayfarer.CardLink{}
			got := onePerson(t, admin.do("POST", "/person/refresh", dataset(old, n)))
			if len(got.PersonCardLink) != 0 || cardRows() != before-3 {
				t.Fatalf("after []: %s", mustJSON(t, got.PersonCardLink))
			}
			// Other child tables were not touched.
			if len(got.PersonCommunicationLink) != 2 || len(got.PersonTag) != 1 {
				t.Fatal("children lost")
			}
		})

		t.Run("absent personCardLink leaves the cards alone", func(t *testing.T) {
			recNo := admin.create(kenJSON(r))
			old := admin.load(recNo)
			n := clone(t, old)
			n.PersonCardLink = nil
			n.Remarks = wayfarer.Some("window now")
			got := onePerson(t, admin.do("POST", "/person/refresh", dataset(old, n)))
			if mustJSON(t, got.PersonCardLink) != mustJSON(t, old.PersonCardLink) || got.Remarks.Value != "window now" {
				t.Fatalf("cards changed %s", mustJSON(t, got))
			}
		})

		t.Run("row 3: a new link with null card ids and the person's person_recNo adds a card", func(t *testing.T) {
			recNo := admin.create(kenJSON(r))
			old := admin.load(recNo)
			n := clone(t, old)
			n.PersonCardLink = append(n.PersonCardLink, wayfarer.CardLink{PersonRecNo: wayfarer.Some(recNo), CardRecNo: wayfarer.Null[int64](),
				Card: &wayfarer.Card{RecNo: wayfarer.Null[int64](), Type: wayfarer.Some(1), CardNumber: wayfarer.Some("378282246310005"),
					NameOnCard: wayfarer.Some("KEN ABLER")}})
			got := onePerson(t, admin.do("POST", "/person/refresh", dataset(old, n)))
			if len(got.PersonCardLink) != 4 {
				t.Fatalf("links %s", mustJSON(t, got.PersonCardLink))
			}
			added := got.PersonCardLink[3]
			if added.PersonRecNo.Value != recNo || !added.CardRecNo.Valid || added.CardRecNo != added.Card.RecNo ||
				added.Card.CardNumber.Value != "AX 37-XXXX-0005" || !strings.HasPrefix(added.Card.CardNumberToken.Value, "tok_") {
				t.Fatalf("added %s", mustJSON(t, added))
			}
			for i := range 3 {
				if mustJSON(t, got.PersonCardLink[i]) != mustJSON(t, old.PersonCardLink[i]) {
					t.Fatal("existing links changed")
				}
			}
		})

		t.Run("row 4: all three identifiers preserved and changed card fields edit the card", func(t *testing.T) {
			recNo := admin.create(kenJSON(r))
			old := admin.load(recNo)
			n := clone(t, old)
			c := cardByType(t, n, 1)
			c.Card.ExpirationDate = wayfarer.Some(wayfarer.Date{Year: 2031, Month: 6, Day: 30})
			c.Card.NameOnCard = wayfarer.Some("K. ABLER")
			d := cardByType(t, n, 2)
			d.Card.Description = wayfarer.Some("United MileagePlus")
			before := cardRows()
			wantResult(t, admin.update(old, n), 200, 0, "")
			got := admin.load(recNo)
			if mustJSON(t, got.PersonCardLink) != mustJSON(t, n.PersonCardLink) || cardRows() != before {
				t.Fatalf("edit in place:\n got %s\nwant %s", mustJSON(t, got.PersonCardLink), mustJSON(t, n.PersonCardLink))
			}
		})

		t.Run("identifiers that disagree are a 400 and nothing is written", func(t *testing.T) {
			recNo := admin.create(kenJSON(r))
			other := admin.create(kenJSON(r))
			otherCard := cardByType(t, admin.load(other), 2).CardRecNo.Value
			old := admin.load(recNo)
			cases := map[string]func(n *wayfarer.Person){
				"card_recNo differs from card.recNo": func(n *wayfarer.Person) {
					n.PersonCardLink[0].Card.RecNo = n.PersonCardLink[1].CardRecNo
				},
				"card.recNo reset to null": func(n *wayfarer.Person) { n.PersonCardLink[0].Card.RecNo = wayfarer.Null[int64]() },
				"card_recNo reset to null": func(n *wayfarer.Person) { n.PersonCardLink[0].CardRecNo = wayfarer.Null[int64]() },
				"person_recNo of another person": func(n *wayfarer.Person) {
					n.PersonCardLink[0].PersonRecNo = wayfarer.Some(other)
				},
				"a card linked to another person": func(n *wayfarer.Person) {
					n.PersonCardLink = append(n.PersonCardLink, wayfarer.CardLink{PersonRecNo: wayfarer.Some(recNo), CardRecNo: wayfarer.Some(otherCard),
						Card: &wayfarer.Card{RecNo: wayfarer.Some(otherCard), Description: wayfarer.Some("mine now")}})
				},
				"deprecated card.person_recNo of another person": func(n *wayfarer.Person) {
					n.PersonCardLink[1].Card.PersonRecNo = wayfarer.Some(other)
				},
			}
			for name, edit := range cases {
				t.Run(name, func(t *testing.T) {
					n := clone(t, old)
					n.Remarks = wayfarer.Some("must not be written")
					edit(n)
					wantResult(t, admin.update(old, n), 400, contract.CodeIdentifierMismatch, "person")
					if got := admin.load(recNo); mustJSON(t, got) != mustJSON(t, old) {
						t.Fatalf("written:\n%s\n%s", mustJSON(t, got), mustJSON(t, old))
					}
				})
			}
			if cardByType(t, admin.load(other), 2).Card.Description.Value != "MileagePlus" {
				t.Fatal("another person's card changed")
			}
		})
	})
}

// TestPersonCardRules covers contract §4.6.
func TestPersonCardRules(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		recNo := admin.create(kenJSON(r))

		refused := func(t *testing.T, old, n *wayfarer.Person, code int, contains string) {
			t.Helper()
			for _, path := range []string{"/person", "/person/refresh"} {
				resp := admin.do("POST", path, dataset(old, n))
				m := wantResult(t, resp, 400, code, "person")
				if !strings.Contains(m["resultDescription"].(string), contains) {
					t.Fatalf("description %q, want %q", m["resultDescription"], contains)
				}
			}
			if got := admin.load(recNo); mustJSON(t, got) != mustJSON(t, old) {
				t.Fatalf("written:\n%s\n%s", mustJSON(t, got), mustJSON(t, old))
			}
		}

		t.Run("1,2: identifiers preserved; rebuilding the list as new cards is refused", func(t *testing.T) {
			old := admin.load(recNo)
			n := clone(t, old)
			for i := range n.PersonCardLink {
				l := &n.PersonCardLink[i]
				l.CardRecNo, l.Card.RecNo, l.PersonRecNo = wayfarer.Null[int64](), wayfarer.Null[int64](), wayfarer.Null[int64]()
			}
			refused(t, old, n, contract.CodeCardRule, "masked card number cannot be saved")
		})

		t.Run("3: a new or changed credit number is validated", func(t *testing.T) {
			old := admin.load(recNo)
			for _, bad := range []string{"4111111111111112", "4111", "4111-1111-1111-111a", "41111111111111111111"} {
				n := clone(t, old)
				cardByType(t, n, 1).Card.CardNumber = wayfarer.Some(bad)
				refused(t, old, n, contract.CodeCardRule, "personCardLink[0].card.cardNumber is not a valid credit/debit card number")
			}
			resp := admin.do("POST", "/person", strings.Replace(kenJSON(r), "4111 1111 1111 1111", "4111 1111 1111 1112", 1))
			wantResult(t, resp, 400, contract.CodeCardRule, "person")
		})

		t.Run("3: a changed credit number is tokenized anew", func(t *testing.T) {
			old := admin.load(recNo)
			n := clone(t, old)
			cardByType(t, n, 1).Card.CardNumber = wayfarer.Some("4012 8888 8888 1881")
			got := onePerson(t, admin.do("POST", "/person/refresh", dataset(old, n)))
			oc, gc := cardByType(t, old, 1), cardByType(t, got, 1)
			if gc.CardRecNo != oc.CardRecNo || gc.Card.CardNumber.Value != "VI 40-XXXX-1881" ||
				gc.Card.CardNumberToken.Value == oc.Card.CardNumberToken.Value || !strings.HasPrefix(gc.Card.CardNumberToken.Value, "tok_") {
				t.Fatalf("changed number: %s", mustJSON(t, gc))
			}
			dec := clientFor(t, s, "admin").load(recNo, "decrypt=true")
			if cardByType(t, dec, 1).Card.CardNumber.Value != "4012888888881881" {
				t.Fatal("the new number is not what was sealed")
			}
		})

		t.Run("4: the masked number and token are kept when other fields change", func(t *testing.T) {
			old := admin.load(recNo)
			n := clone(t, old)
			c := cardByType(t, n, 1)
			c.Card.ExpirationDate = wayfarer.Some(wayfarer.Date{Year: 2032, Month: 1, Day: 31})
			c.Card.NameOnCard = wayfarer.Some("KENNETH ABLER")
			got := onePerson(t, admin.do("POST", "/person/refresh", dataset(old, n)))
			if mustJSON(t, cardByType(t, got, 1)) != mustJSON(t, c) {
				t.Fatalf("got %s want %s", mustJSON(t, cardByType(t, got, 1)), mustJSON(t, c))
			}
			dec := admin.load(recNo, "decrypt=true")
			if cardByType(t, dec, 1).Card.CardNumber.Value != "4012888888881881" {
				t.Fatal("stored number changed")
			}
		})

		t.Run("4: a masked number as a new card's number is refused", func(t *testing.T) {
			old := admin.load(recNo)
			n := clone(t, old)
			n.PersonCardLink = append(n.PersonCardLink, wayfarer.CardLink{Card: &wayfarer.Card{Type: wayfarer.Some(1), CardNumber: wayfarer.Some("VI 41-XXXX-1111")}})
			refused(t, old, n, contract.CodeCardRule, "masked card number cannot be saved")
		})

		t.Run("4: a masked pattern differing from the stored one is refused", func(t *testing.T) {
			old := admin.load(recNo)
			n := clone(t, old)
			cardByType(t, n, 1).Card.CardNumber = wayfarer.Some("VI 41-XXXX-1111")
			refused(t, old, n, contract.CodeCardRule, "masked card number cannot be saved")
		})

		t.Run("5: the card type is insert-only", func(t *testing.T) {
			old := admin.load(recNo)
			n := clone(t, old)
			cardByType(t, n, 2).Card.Type = wayfarer.Some(3)
			refused(t, old, n, contract.CodeCardRule, "card type is insert-only: remove the card and add a new one")
		})

		t.Run("6: a cvvCode is refused, never stored, never logged", func(t *testing.T) {
			old := admin.load(recNo)
			n := clone(t, old)
			cardByType(t, n, 1).Card.CVVCode = wayfarer.Some("8642")
			refused(t, old, n, contract.CodeCardRule, "cvvCode")
			resp := admin.do("POST", "/person", strings.Replace(kenJSON(r), `"nameOnCard":"KEN ABLER"`, `"nameOnCard":"KEN ABLER","cvvCode":"8642"`, 1))
			wantResult(t, resp, 400, contract.CodeCardRule, "person")
			if strings.Contains(string(resp.Body), "8642") || strings.Contains(s.Logs.String(), "8642") {
				t.Fatal("cvv echoed or logged")
			}
		})

		t.Run("card numbers never go into text fields", func(t *testing.T) {
			old := admin.load(recNo)
			edits := map[string]func(n *wayfarer.Person){
				"remarks":      func(n *wayfarer.Person) { n.Remarks = wayfarer.Some("card 6011 1111 1111 1117 exp 12/29") },
				"birthdayNote": func(n *wayfarer.Person) { n.BirthdayNote = wayfarer.Some("6011111111111117") },
				"personCardLink[1].card.description": func(n *wayfarer.Person) {
					cardByType(t, n, 2).Card.Description = wayfarer.Some("backup 6011-1111-1111-1117")
				},
				"personCommunicationLink[0].communication.description": func(n *wayfarer.Person) {
					n.PersonCommunicationLink[0].Communication.Description = wayfarer.Some("pay with 6011111111111117")
				},
				"personActionItemLink[0].personActionItem.notes": func(n *wayfarer.Person) {
					n.PersonActionItemLink[0].PersonActionItem.Notes = wayfarer.Some("6011111111111117")
				},
				"personTag[0].value":   func(n *wayfarer.Person) { n.PersonTag[0].Value = wayfarer.Some("6011111111111117") },
				"emergencyContactName": func(n *wayfarer.Person) { n.EmergencyContactName = wayfarer.Some("6011111111111117") },
			}
			for field, edit := range edits {
				n := clone(t, old)
				edit(n)
				refused(t, old, n, contract.CodeCardRule, "card numbers must not be written into text fields (field "+field+")")
			}
		})

		t.Run("7: loyalty and travel-document numbers are stored and shown as given", func(t *testing.T) {
			old := admin.load(recNo)
			n := clone(t, old)
			cardByType(t, n, 2).Card.CardNumber = wayfarer.Some("UA 0012 3456 789")
			cardByType(t, n, 3).Card.CardNumber = wayfarer.Some("P-99 887 766")
			got := onePerson(t, admin.do("POST", "/person/refresh", dataset(old, n)))
			if cardByType(t, got, 2).Card.CardNumber.Value != "UA 0012 3456 789" || cardByType(t, got, 3).Card.CardNumber.Value != "P-99 887 766" {
				t.Fatalf("%s", mustJSON(t, got.PersonCardLink))
			}
		})

		t.Run("a client that loaded with decrypt can save unchanged numbers", func(t *testing.T) {
			old := admin.load(recNo, "decrypt=true")
			n := clone(t, old)
			cardByType(t, n, 1).Card.NameOnCard = wayfarer.Some("K ABLER")
			wantResult(t, admin.update(old, n), 200, 0, "")
			got := admin.load(recNo)
			if cardByType(t, got, 1).Card.NameOnCard.Value != "K ABLER" || cardByType(t, got, 1).Card.CardNumber.Value != "VI 40-XXXX-1881" {
				t.Fatalf("%s", mustJSON(t, got.PersonCardLink))
			}
		})
	})
}

func TestPersonDecryptAudit(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		ctx := context.Background()
		admin := clientFor(t, s, "admin")
		recNo := admin.create(kenJSON(r))
		old := admin.load(recNo)
		n := clone(t, old)
		n.PersonCardLink = append(n.PersonCardLink, wayfarer.CardLink{Card: &wayfarer.Card{Type: wayfarer.Some(1), CardNumber: wayfarer.Some("4222222222222")}})
		wantResult(t, admin.update(old, n), 200, 0, "")

		audits, _ := s.App.DB.CardDecryptAudits(ctx, r.agency)
		if len(audits) != 0 {
			t.Fatal("audit without decrypt")
		}
		masked := admin.load(recNo, "decrypt=false")
		dec := admin.load(recNo, "Decrypt=TRUE")
		var clear []string
		for _, l := range dec.PersonCardLink {
			if l.Card.Type.Value == 1 {
				clear = append(clear, l.Card.CardNumber.Value)
			}
		}
		if strings.Join(clear, ",") != "4111111111111111,4222222222222" {
			t.Fatalf("decrypted %v", clear)
		}
		if cardByType(t, dec, 2).Card.CardNumber != cardByType(t, masked, 2).Card.CardNumber || cardByType(t, dec, 1).Card.CardNumberToken != cardByType(t, masked, 1).Card.CardNumberToken {
			t.Fatal("decrypt changed other fields")
		}
		audits, err := s.App.DB.CardDecryptAudits(ctx, r.agency)
		if err != nil {
			t.Fatal(err)
		}
		if len(audits) != 2 {
			t.Fatalf("audits %+v", audits)
		}
		for i, a := range audits {
			if a.UserID != r.adminUser || a.PersonID != recNo || a.CardID != dec.PersonCardLink[[]int{0, 3}[i]].CardRecNo.Value || !a.ReadAt.Equal(s.Clock.Now()) {
				t.Fatalf("audit %+v", a)
			}
		}
	})
}

// assertNoClearCardNumbers scans the SQLite files and the logs for the
// suite's card numbers, with and without separators.
func assertNoClearCardNumbers(t *testing.T, s *testserver.Server) {
	t.Helper()
	if _, err := s.App.DB.Primary().Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(s.DBPath + "*")
	var data [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, b)
	}
	data = append(data, []byte(s.Logs.String()))
	for _, num := range testCardNumbers {
		forms := []string{num, spaced(num, " "), spaced(num, "-")}
		for i, b := range data {
			for _, f := range forms {
				if bytes.Contains(b, []byte(f)) {
					name := "logs"
					if i < len(files) {
						name = files[i]
					}
					t.Errorf("card number %s…%s found in clear in %s", num[:2], num[len(num)-4:], name)
				}
			}
		}
	}
}

func spaced(num, sep string) string {
	var parts []string
	for i := 0; i < len(num); i += 4 {
		parts = append(parts, num[i:min(i+4, len(num))])
	}
	return strings.Join(parts, sep)
}
