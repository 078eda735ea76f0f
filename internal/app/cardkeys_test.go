package app_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/vault"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// keyDocs are card key documents of one history: "old" holds k2025, "both"
// adds k2026 as the primary, "new" has dropped k2025; "wrongOld" is another
// key under the id k2025.
type keyDocs struct{ old, both, new, wrongOld string }

func makeKeyDocs(t *testing.T) keyDocs {
	t.Helper()
	var d keyDocs
	ks, err := vault.NewKeyset("k2025")
	if err != nil {
		t.Fatal(err)
	}
	d.old = marshal(t, ks)
	if err := ks.Add("k2026", true); err != nil {
		t.Fatal(err)
	}
	d.both = marshal(t, ks)
	if err := ks.Remove("k2025"); err != nil {
		t.Fatal(err)
	}
	d.new = marshal(t, ks)
	wrong, err := vault.NewKeyset("k2025")
	if err != nil {
		t.Fatal(err)
	}
	d.wrongOld = marshal(t, wrong)
	return d
}

func marshal(t *testing.T, ks *vault.Keyset) string {
	t.Helper()
	b, err := ks.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// withKeys starts an instance on db (new when empty) with the card keys doc.
func withKeys(t *testing.T, engine, db, doc string) *testserver.Server {
	t.Helper()
	return testserver.Start(t, testserver.Options{Engine: engine, DB: db, Config: func(c *app.Config) { c.CardKeys = doc }})
}

// openWith opens an instance on db with doc the way serve does, and returns
// the error start-up ends with (nil: it started).
func openWith(t *testing.T, db, doc string) error {
	t.Helper()
	a, err := app.Open(context.Background(), app.Config{DB: db, CardKeys: doc, PasswordParams: testserver.CheapPasswords},
		slog.New(slog.DiscardHandler), testserver.NewClock(time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)))
	if err == nil {
		a.Close()
	}
	return err
}

var cardNumbers = []string{"4111111111111111", "5555555555554444", "378282246310005", "4012888888881881",
	"6011111111111117", "4222222222222", "5105105105105100", "4000056655665556", "3566002020360505"}

// createCardPersons saves n persons with one credit card each through the
// HTTP interface and returns their recNos; person i holds cardNumbers[i].
func createCardPersons(t *testing.T, s *testserver.Server, n int) []int64 {
	t.Helper()
	tok := testserver.Bearer(s.LoginDemo(t, "admin"))
	var ids []int64
	for i := range n {
		body := fmt.Sprintf(`{"firstName":"Card%d","lastName":"Holder","activeStatus":1,
			"personCardLink":[{"card":{"type":1,"cardNumber":%q,"expirationDate":"2029-01-31"}}]}`, i, cardNumbers[i])
		r := s.Do(t, "POST", "/person", body, tok...)
		if r.Status != 200 {
			t.Fatalf("create person %d: %d %s", i, r.Status, r.Body)
		}
		ids = append(ids, int64(r.JSON(t)["recNo"].(float64)))
	}
	return ids
}

// clearNumber loads a person with decrypt=true and returns its credit card
// number, or the error answer.
func clearNumber(t *testing.T, s *testserver.Server, recNo int64) (string, *testserver.Response) {
	t.Helper()
	tok := testserver.Bearer(s.LoginDemo(t, "admin"))
	r := s.Do(t, "GET", fmt.Sprintf("/person/%d?decrypt=true", recNo), nil, tok...)
	if r.Status != 200 {
		return "", r
	}
	var ps []wayfarer.Person
	if err := jsoncodec.Strict.Decode(r.Body, &ps, "test"); err != nil || len(ps) != 1 {
		t.Fatalf("load %d: %v %s", recNo, err, r.Body)
	}
	for _, l := range ps[0].PersonCardLink {
		if l.Card.Type.Value == wayfarer.CardTypeCreditDebit {
			return l.Card.CardNumber.Value, r
		}
	}
	t.Fatalf("person %d has no credit card: %s", recNo, r.Body)
	return "", r
}

func exec(t *testing.T, s *testserver.Server, query string, args ...any) {
	t.Helper()
	if _, err := s.App.DB.Primary().ExecContext(context.Background(), s.App.DB.Dialect.Rebind(query), args...); err != nil {
		t.Fatal(err)
	}
}

func wantRefusal(t *testing.T, err error, wants ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("start-up succeeded, want a refusal naming %q", wants)
	}
	for _, w := range wants {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("start-up error %q\nwant it to contain %q", err, w)
		}
	}
}

// A missing, disabled or wrong card key stops start-up, naming its key id;
// the right keys start.
func TestCardKeyCanaryAtStartup(t *testing.T) {
	docs := makeKeyDocs(t)
	for _, engine := range testserver.Engines() {
		t.Run(engine, func(t *testing.T) {
			s := withKeys(t, engine, "", docs.old)
			ids := createCardPersons(t, s, 2)
			db := s.DBPath

			wantRefusal(t, openWith(t, db, docs.new), `key id "k2025" seals 2 stored card number(s) but is not in the card keyset`)
			wantRefusal(t, openWith(t, db, docs.wrongOld), `key id "k2025" is the wrong key`)
			var disabled map[string]any
			json.Unmarshal([]byte(docs.both), &disabled)
			ks := disabled["keyset"].(map[string]any)
			for _, k := range ks["key"].([]any) {
				if k.(map[string]any)["keyId"] != ks["primaryKeyId"] {
					k.(map[string]any)["status"] = "DISABLED"
				}
			}
			b, _ := json.Marshal(disabled)
			wantRefusal(t, openWith(t, db, string(b)), `key id "k2025" seals 2 stored card number(s) but is disabled`)

			// A database from before the canaries: the wrong key is still
			// found, by the cards it does not open, and the right one
			// gets its canary.
			exec(t, s, `DELETE FROM card_key_canary`)
			wantRefusal(t, openWith(t, db, docs.wrongOld), `key id "k2025" is the wrong key`)
			if err := openWith(t, db, docs.old); err != nil {
				t.Fatalf("right key refused: %v", err)
			}
			canaries, err := s.App.DB.CardKeyCanaries(context.Background())
			if err != nil || len(canaries) != 1 || canaries["k2025"] == nil {
				t.Fatalf("canaries after start-up: %v %v", canaries, err)
			}

			// A new key id gets its canary at start-up, before any card
			// uses it; another key under that id is refused from then on.
			if err := openWith(t, db, docs.both); err != nil {
				t.Fatalf("both keys refused: %v", err)
			}
			other, _ := vault.NewKeyset("k2025")
			if err := other.Add("k2026", true); err != nil {
				t.Fatal(err)
			}
			wantRefusal(t, openWith(t, db, marshal(t, other)), `key id "k2025" is the wrong key`, `key id "k2026" is the wrong key`)

			// The key ids of the error are all there is to it: no key
			// material, no card number.
			err = openWith(t, db, docs.wrongOld)
			for _, n := range cardNumbers[:2] {
				if strings.Contains(err.Error(), n) {
					t.Errorf("error shows a card number: %v", err)
				}
			}
			for _, id := range ids {
				if got, r := clearNumber(t, s, id); got == "" {
					t.Errorf("person %d does not open with the right key: %s", id, r.Body)
				}
			}
		})
	}
}

// A card that fails to open at run time answers 500/901 naming the card and
// its key id, and logs both; neither the answer nor the log holds the
// cipher or the number.
func TestCardOpenFailureAnswers901(t *testing.T) {
	testserver.Each(t, testserver.Options{}, func(t *testing.T, s *testserver.Server) {
		ids := createCardPersons(t, s, 2)
		ctx := context.Background()
		cards, err := s.App.DB.SealedCards(ctx, "test1", 0, 10)
		if err != nil || len(cards) != 2 {
			t.Fatalf("sealed cards: %v %v", cards, err)
		}
		damaged := append([]byte(nil), cards[0].Cipher...)
		damaged[len(damaged)-1] ^= 1
		exec(t, s, `UPDATE card SET number_cipher = ? WHERE rec_no = ?`, damaged, cards[0].RecNo)
		exec(t, s, `UPDATE card SET number_key_id = 'k1999' WHERE rec_no = ?`, cards[1].RecNo)

		for i, tc := range []struct {
			card  int64
			keyID string
		}{{cards[0].RecNo, "test1"}, {cards[1].RecNo, "k1999"}} {
			_, r := clearNumber(t, s, ids[i])
			want := fmt.Sprintf(`Card vault error: card %d could not be opened (key id %q); the administrator must restore that key`, tc.card, tc.keyID)
			m := r.JSON(t)
			if r.Status != 500 || r.Code(t) != 901 || m["resultDescription"] != want || m["method"] != "person" {
				t.Errorf("answer %d %s\nwant 500 with 901 and %q", r.Status, r.Body, want)
			}
			logs := s.Logs.String()
			line := ""
			for _, l := range strings.Split(logs, "\n") {
				if strings.Contains(l, "could not be opened") && strings.Contains(l, fmt.Sprintf("card_rec_no=%d ", tc.card)) {
					line = l
				}
			}
			if line == "" || !strings.Contains(line, "key_id="+tc.keyID) {
				t.Errorf("no log line with card_rec_no=%d and key_id=%s:\n%s", tc.card, tc.keyID, logs)
			}
		}
		logs := s.Logs.String()
		for _, c := range cards {
			for _, form := range []string{hex.EncodeToString(c.Cipher[:8]), fmt.Sprintf("%x", c.Cipher[5:13])} {
				if strings.Contains(logs, form) {
					t.Error("the log holds a cipher")
				}
			}
		}
		for _, n := range cardNumbers[:2] {
			if strings.Contains(logs, n) || strings.Contains(logs, n[len(n)-4:]+" ") {
				t.Error("the log holds a card number")
			}
		}
		// The person still loads masked: only opening it fails.
		r := s.Do(t, "GET", fmt.Sprintf("/person/%d", ids[0]), nil, testserver.Bearer(s.LoginDemo(t, "admin"))...)
		if r.Status != 200 {
			t.Errorf("masked load: %d %s", r.Status, r.Body)
		}
	})
}

// legacyFixtureKeys is the old key text internal/vault/testdata/
// legacy_sealed.txt was sealed with by the hand-written ring.
const legacyFixtureKeys = "legacy1:ZmM0YjVmYTk2Y2Q3ODAxZWQ1YzE3Mzg1NWE5ODFmMjE=,older:T2xkZXIga2V5IGZvciB0aGUgbGVnYWN5IGZpeHR1cmU="

// Card rows sealed by the code before the Tink keyset open after it: under
// the old key text (which logs a warning) and under its conversion.
func TestLegacySealedCardsOpen(t *testing.T) {
	b, err := os.ReadFile("../vault/testdata/legacy_sealed.txt")
	if err != nil {
		t.Fatal(err)
	}
	type fixture struct {
		keyID, plaintext string
		cipher           []byte
	}
	byAAD := map[string][]fixture{}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) != 4 || strings.HasPrefix(line, "#") {
			continue
		}
		ct, err := hex.DecodeString(f[3])
		if err != nil {
			t.Fatal(err)
		}
		byAAD[f[1]] = append(byAAD[f[1]], fixture{f[0], f[2], ct})
	}
	converted := func() string {
		ks, err := vault.ParseKeys([]byte(legacyFixtureKeys))
		if err != nil {
			t.Fatal(err)
		}
		return marshal(t, ks)
	}()
	testserver.Each(t, testserver.Options{Config: func(c *app.Config) { c.CardKeys = legacyFixtureKeys }}, func(t *testing.T, s *testserver.Server) {
		if !strings.Contains(s.Logs.String(), "card keys are in the old id:base64 text") {
			t.Errorf("no warning about the old key text:\n%s", s.Logs.String())
		}
		ag, err := s.App.DB.AgencyByAlias(context.Background(), "DEMO")
		if err != nil {
			t.Fatal(err)
		}
		fixtures := byAAD[fmt.Sprintf("agency:%d", ag.ID)]
		if len(fixtures) < 2 {
			t.Fatalf("no fixture for agency %d", ag.ID)
		}
		// Persons whose card rows are then made to hold the fixture's
		// ciphertexts, as the old code wrote them.
		ids := createCardPersons(t, s, len(fixtures))
		cards, err := s.App.DB.SealedCards(context.Background(), "legacy1", 0, 100)
		if err != nil || len(cards) != len(fixtures) {
			t.Fatalf("cards %v %v", cards, err)
		}
		exec(t, s, `DELETE FROM card_key_canary`) // a database from before the canaries
		for i, fx := range fixtures {
			exec(t, s, `UPDATE card SET number_cipher = ?, number_key_id = ? WHERE rec_no = ?`, fx.cipher, fx.keyID, cards[i].RecNo)
		}
		for name, keys := range map[string]string{"old key text": legacyFixtureKeys, "converted": converted} {
			inst := withKeys(t, s.Engine, s.DBPath, keys)
			for i, fx := range fixtures {
				if got, r := clearNumber(t, inst, ids[i]); got != fx.plaintext {
					t.Errorf("%s: card under %s: %q %s", name, fx.keyID, got, r.Body)
				}
			}
		}
	})
}
