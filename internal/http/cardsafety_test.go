package http_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// onlyPerson decodes a load or refresh answer: an array of one person.
func onlyPerson(t *testing.T, r *testserver.Response) map[string]any {
	t.Helper()
	var ps []map[string]any
	if err := json.Unmarshal(r.Body, &ps); err != nil || len(ps) != 1 {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	return ps[0]
}

func firstCard(p map[string]any) map[string]any {
	return p["personCardLink"].([]any)[0].(map[string]any)["card"].(map[string]any)
}

func oldNew(old, new map[string]any) map[string]any {
	return map[string]any{"oldNewDataset": map[string]any{"oldData": []any{old}, "newData": []any{new}}}
}

func clonePerson(t *testing.T, p map[string]any) map[string]any {
	b, _ := json.Marshal(p)
	var c map[string]any
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// A user without Decrypt cannot learn whether a guessed number is the
// stored one: a clear number always replaces the card's number and token.
func TestNoCardNumberOracleWithoutDecrypt(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		agent := testserver.Bearer(s.LoginDemo(t, "agent"))
		r := s.Do(t, "POST", "/person/refresh", `{"lastName":"Oracle","firstName":"Ann","activeStatus":1,
			"personCardLink":[{"card":{"type":1,"cardNumber":"4111 1111 1111 1111","expirationDate":"2030-12-31"}}]}`, agent...)
		loaded := onlyPerson(t, r)
		token := firstCard(loaded)["cardNumberToken"]
		guess := clonePerson(t, loaded)
		firstCard(guess)["cardNumber"] = "4111111111111111" // the right guess
		saved := onlyPerson(t, s.Do(t, "POST", "/person/refresh", oldNew(loaded, guess), agent...))
		if firstCard(saved)["cardNumberToken"] == token {
			t.Fatal("the token stayed: a right guess is told apart from a wrong one")
		}

		// with Decrypt, a clear number loaded and sent back unchanged keeps the token
		admin := testserver.Bearer(s.LoginDemo(t, "admin"))
		rec := int64(saved["recNo"].(float64))
		clear := onlyPerson(t, s.Do(t, "GET", fmt.Sprintf("/person/%d?decrypt=true", rec), nil, admin...))
		edited := clonePerson(t, clear)
		firstCard(edited)["nameOnCard"] = "ANN ORACLE"
		after := onlyPerson(t, s.Do(t, "POST", "/person/refresh", oldNew(clear, edited), admin...))
		if firstCard(after)["cardNumberToken"] != firstCard(saved)["cardNumberToken"] || firstCard(after)["nameOnCard"] != "ANN ORACLE" {
			t.Fatalf("decrypted edit: %v", firstCard(after))
		}
	})
}

func TestPaymentCardNumberNotSavedAsLoyalty(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		admin := testserver.Bearer(s.LoginDemo(t, "admin"))
		for _, typ := range []int{2, 3} {
			body := fmt.Sprintf(`{"lastName":"Hidden","activeStatus":1,"personCardLink":[{"card":{"type":%d,"cardNumber":"5555-5555-5555-4444"}}]}`, typ)
			r := s.Do(t, "POST", "/person", body, admin...)
			if r.Status != 400 || r.Code(t) != 410 || !strings.Contains(string(r.Body), "looks like a credit/debit card number") {
				t.Fatalf("type %d: %d %s", typ, r.Status, r.Body)
			}
		}
		r := s.Do(t, "POST", "/personSearch", `{"lastName":{"value":["Hidden"],"compareCondition":1},"includeCols":["recNo"]}`, admin...)
		if !noRows(r) {
			t.Fatalf("a refused save wrote something: %s", r.Body)
		}
	})
}

func TestAnswersAreNotCached(t *testing.T) {
	s := testserver.Start(t, testserver.Options{})
	for _, r := range []*testserver.Response{
		s.Do(t, "POST", "/login", `{"alias":"DEMO","userName":"admin","password":"demo-admin"}`),
		s.Do(t, "POST", "/login", `{"alias":"DEMO","userName":"admin","password":"wrong"}`),
		s.Do(t, "GET", "/person/1", nil, testserver.Bearer(s.LoginDemo(t, "viewer"))...),
	} {
		if r.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("%d answer without Cache-Control: no-store", r.Status)
		}
	}
}

func TestPermissionBeforeRecNo(t *testing.T) {
	s := testserver.Start(t, testserver.Options{})
	viewer := testserver.Bearer(s.LoginDemo(t, "viewer"))
	for _, path := range []string{"/person/1", "/person/abc"} {
		if r := s.Do(t, "GET", path, nil, viewer...); r.Status != 403 || r.Code(t) != 600 {
			t.Fatalf("%s as viewer: %d %s", path, r.Status, r.Body)
		}
	}
	admin := testserver.Bearer(s.LoginDemo(t, "admin"))
	wantNoContent(t, s.Do(t, "GET", "/person/abc", nil, admin...))
	wantNoContent(t, s.Do(t, "GET", "/person/99999", nil, admin...))
}

func TestUnknownAliasNotLogged(t *testing.T) {
	s := testserver.Start(t, testserver.Options{})
	s.Do(t, "POST", "/login", `{"alias":"4111111111111111","userName":"x","password":"y"}`)
	s.Do(t, "POST", "/login", `{"alias":"`+strings.Repeat("Q", 5000)+`","userName":"x","password":"y"}`)
	s.Do(t, "GET", "/login/4111111111111111", nil, "Authorization", "Basic eDp5")
	s.Login(t, "DEMO", "admin", "demo-admin")
	logs := s.Logs.String()
	if strings.Contains(logs, "4111111111111111") || strings.Contains(logs, "QQQQQQQQ") {
		t.Fatalf("a typed alias reached the log:\n%s", logs)
	}
	if !strings.Contains(logs, "alias=DEMO") {
		t.Fatalf("a real agency's alias is not logged:\n%s", logs)
	}
}

// withRaw marshals v and then swaps marker (which must occur once) for raw
// bytes that json.Marshal would never write: invalid UTF-8, a raw NUL.
func withRaw(t *testing.T, v any, marker, raw string) []byte {
	t.Helper()
	b := []byte(mustJSON(t, v))
	if bytes.Count(b, []byte(marker)) != 1 {
		t.Fatalf("marker %q found %d times", marker, bytes.Count(b, []byte(marker)))
	}
	return bytes.Replace(b, []byte(marker), []byte(raw), 1)
}

// A body with invalid UTF-8 or a control character in a string is refused
// whole, naming the path, and writes nothing; encoding/json alone would
// have stored U+FFFD or the control character.
func TestSaveRefusesBadText(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		recNo := admin.create(kenJSON(r))
		old := admin.load(recNo)

		refused := func(t *testing.T, body []byte, code int, desc string) {
			t.Helper()
			for _, path := range []string{"/person", "/person/refresh"} {
				m := wantResult(t, admin.do("POST", path, body), 400, code, "person")
				if got := m["resultDescription"].(string); !strings.Contains(got, desc) {
					t.Fatalf("%s: description %q, want %q", path, got, desc)
				}
			}
			if got := admin.load(recNo); mustJSON(t, got) != mustJSON(t, old) {
				t.Fatalf("written:\n%s\n%s", mustJSON(t, got), mustJSON(t, old))
			}
		}
		const utf8Msg = "Error deserializing Json: invalid UTF-8 in a string. Path '%s', line 1, position "
		const ctlMsg = "Invalid value: a control character (U+%04X) in a string; of the control characters only tab, line feed and carriage return are allowed. Path '%s'."

		t.Run("invalid UTF-8 in a text field", func(t *testing.T) {
			n := clone(t, old)
			n.LastName = wayfarer.Some("MARK")
			refused(t, withRaw(t, dataset(old, n), "MARK", "M\xfcller"), 406, // Latin-1 ü
				fmt.Sprintf(utf8Msg, "oldNewDataset.newData[0].lastName"))
			n = clone(t, old)
			n.PersonActionItemLink[0].PersonActionItem.Notes = wayfarer.Some("MARK")
			refused(t, withRaw(t, dataset(old, n), "MARK", "caf\xc3"), 406, // truncated é
				fmt.Sprintf(utf8Msg, "oldNewDataset.newData[0].personActionItemLink[0].personActionItem.notes"))
			n = clone(t, old)
			n.PersonCommunicationLink[1].Communication.Description = wayfarer.Some("MARK")
			refused(t, withRaw(t, dataset(old, n), "MARK", `\udead`), 406, // escaped lone surrogate
				"an unpaired UTF-16 surrogate escape in a string. Path 'oldNewDataset.newData[0].personCommunicationLink[1].communication.description', line 1, position ")
			n = clone(t, old)
			n.Remarks = wayfarer.Some("fine")
			refused(t, withRaw(t, dataset(old, n), `"remarks":"fine"`, "\"rem\xe4rks\":\"fine\""), 406,
				"invalid UTF-8 in a key of this object. Path 'oldNewDataset.newData[0]', line 1, position ")
		})

		t.Run("a NUL or other control character in a text field", func(t *testing.T) {
			n := clone(t, old)
			n.Remarks = wayfarer.Some("aisle\x00seat") // json.Marshal writes \u0000
			refused(t, []byte(mustJSON(t, dataset(old, n))), 407, fmt.Sprintf(ctlMsg, 0, "oldNewDataset.newData[0].remarks"))
			n = clone(t, old)
			n.PersonCommunicationLink[0].Communication.Value = wayfarer.Some("+1 555 0100\x1b[2J")
			refused(t, []byte(mustJSON(t, dataset(old, n))), 407,
				fmt.Sprintf(ctlMsg, 0x1b, "oldNewDataset.newData[0].personCommunicationLink[0].communication.value"))
			n = clone(t, old)
			cardByType(t, n, 1).Card.NameOnCard = wayfarer.Some("KEN\x7fABLER")
			refused(t, []byte(mustJSON(t, dataset(old, n))), 407,
				fmt.Sprintf(ctlMsg, 0x7f, "oldNewDataset.newData[0].personCardLink[0].card.nameOnCard"))
			// A raw NUL byte is not JSON at all: the syntax answer.
			n = clone(t, old)
			n.Remarks = wayfarer.Some("MARK")
			refused(t, withRaw(t, dataset(old, n), "MARK", "a\x00b"), 406,
				"Error deserializing Json: invalid character '\\x00' in string (expecting non-control character). Path 'oldNewDataset.newData[0].remarks', line 1, position ")
		})

		t.Run("a create with bad text writes nothing", func(t *testing.T) {
			for _, body := range []string{
				"{\"lastName\":\"Bytes\",\"activeStatus\":1,\"remarks\":\"\xff\"}",
				`{"lastName":"Bytes","activeStatus":1,"personTag":[{"tag_recNo":1,"value":"\u0000"}]}`,
			} {
				for _, path := range []string{"/person", "/person/refresh"} {
					if resp := admin.do("POST", path, body); resp.Status != 400 {
						t.Fatalf("%s: %d %s", path, resp.Status, resp.Body)
					}
				}
			}
			resp := admin.do("POST", "/personSearch", `{"lastName":{"value":["Bytes"],"compareCondition":1},"includeCols":["recNo"]}`)
			if !noRows(resp) {
				t.Fatalf("a refused create wrote something: %d %s", resp.Status, resp.Body)
			}
		})

		t.Run("tab, line feed and carriage return are text", func(t *testing.T) {
			n := clone(t, old)
			n.Remarks = wayfarer.Some("aisle\tseat\r\nvegetarian")
			got := onePerson(t, admin.do("POST", "/person/refresh", dataset(old, n)))
			if got.Remarks.Value != "aisle\tseat\r\nvegetarian" {
				t.Fatalf("remarks %q", got.Remarks.Value)
			}
			old = got
		})
	})
}

// A card number written with full-width or other non-ASCII digits, or
// grouped by no-break spaces, thin spaces or en dashes, is refused from text
// fields as the ASCII form is.
func TestCardNumberInTextUnicode(t *testing.T) {
	fullWidth := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return 0xFF10 + r - '0'
			}
			return r
		}, s)
	}
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		recNo := admin.create(kenJSON(r))
		old := admin.load(recNo)
		var sent []string
		refused := func(t *testing.T, n *wayfarer.Person, code int, desc, value string) {
			t.Helper()
			sent = append(sent, value)
			for _, path := range []string{"/person", "/person/refresh"} {
				resp := admin.do("POST", path, dataset(old, n))
				m := wantResult(t, resp, 400, code, "person")
				if got := m["resultDescription"].(string); got != desc {
					t.Fatalf("%s: description %q, want %q", path, got, desc)
				}
				if strings.Contains(string(resp.Body), value) {
					t.Fatal("the number is echoed")
				}
			}
			if got := admin.load(recNo); mustJSON(t, got) != mustJSON(t, old) {
				t.Fatalf("written:\n%s\n%s", mustJSON(t, got), mustJSON(t, old))
			}
		}
		const inText = "card numbers must not be written into text fields (field %s)"
		edits := []struct {
			field, value string
			set          func(n *wayfarer.Person, v string)
		}{
			{"personActionItemLink[0].personActionItem.notes", "card " + fullWidth("4111111111111111"),
				func(n *wayfarer.Person, v string) {
					n.PersonActionItemLink[0].PersonActionItem.Notes = wayfarer.Some(v)
				}},
			{"personCardLink[1].card.description", "backup " + fullWidth("5555 5555 5555 4444"),
				func(n *wayfarer.Person, v string) { cardByType(t, n, 2).Card.Description = wayfarer.Some(v) }},
			{"remarks", "pay with 5555\u00a05555\u00a05555\u00a04444 exp 12/29",
				func(n *wayfarer.Person, v string) { n.Remarks = wayfarer.Some(v) }},
			{"personTag[0].value", "4111\u20091111\u20091111\u20091111",
				func(n *wayfarer.Person, v string) { n.PersonTag[0].Value = wayfarer.Some(v) }},
			{"birthdayNote", "4111\u20131111\u20131111\u20131111",
				func(n *wayfarer.Person, v string) { n.BirthdayNote = wayfarer.Some(v) }},
			{"personCommunicationLink[1].communication.description", "\u0665\u0665\u0665\u0665\u0665\u0665\u0665\u0665\u0665\u0665\u0665\u0665\u0664\u0664\u0664\u0664", // Arabic-Indic 5555555555554444
				func(n *wayfarer.Person, v string) {
					n.PersonCommunicationLink[1].Communication.Description = wayfarer.Some(v)
				}},
		}
		for _, e := range edits {
			t.Run(e.field, func(t *testing.T) {
				n := clone(t, old)
				e.set(n, e.value)
				refused(t, n, 410, fmt.Sprintf(inText, e.field), e.value)
			})
		}
		t.Run("as a loyalty number", func(t *testing.T) {
			n := clone(t, old)
			v := fullWidth("4111-1111-1111-1111")
			cardByType(t, n, 2).Card.CardNumber = wayfarer.Some(v)
			refused(t, n, 410, "personCardLink[1].card.cardNumber looks like a credit/debit card number: save it as a card of type 1, which is encrypted", v)
		})
		t.Run("on create", func(t *testing.T) {
			v := fullWidth("4111 1111 1111 1111")
			resp := admin.do("POST", "/person", map[string]any{"lastName": "Wide", "activeStatus": 1, "remarks": v})
			if m := wantResult(t, resp, 400, 410, "person"); m["resultDescription"] != fmt.Sprintf(inText, "remarks") {
				t.Fatalf("%s", resp.Body)
			}
			resp = admin.do("POST", "/personSearch", `{"lastName":{"value":["Wide"],"compareCondition":1},"includeCols":["recNo"]}`)
			if !noRows(resp) {
				t.Fatalf("a refused create wrote something: %d %s", resp.Status, resp.Body)
			}
		})
		t.Run("ordinary text with such digits and separators is saved", func(t *testing.T) {
			n := clone(t, old)
			n.Remarks = wayfarer.Some("Flug LH\u00a0400, 21.\u2009November\u2013" + fullWidth("2026-11-28") + ", PNR " + fullWidth("ABC123") + ", Tel.\u00a0+44\u00a020\u00a07946\u00a00958")
			got := onePerson(t, admin.do("POST", "/person/refresh", dataset(old, n)))
			if got.Remarks.Value != n.Remarks.Value {
				t.Fatalf("remarks %q", got.Remarks.Value)
			}
		})
		logs := s.Logs.String()
		for _, v := range sent {
			if strings.Contains(logs, v) {
				t.Fatalf("a refused number reached the log")
			}
		}
	})
}
