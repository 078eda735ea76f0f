package http_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Optimistic concurrency over HTTP (issue 12, item 3): a load sends a
// strong ETag, a save may require it with If-Match (412 otherwise, nothing
// written), and the old/new comparison (409) stays.

var strongETag = regexp.MustCompile(`^"[0-9]+-[0-9]+"$`)

func TestPersonETagAndIfMatch(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		recNo := admin.create(kenJSON(r))
		path := fmt.Sprintf("/person/%d", recNo)
		get := func() (*wayfarer.Person, string) {
			t.Helper()
			resp := admin.do("GET", path, nil)
			etag := resp.Header.Get("ETag")
			if !strongETag.MatchString(etag) {
				t.Fatalf("ETag %q, want a strong tag", etag)
			}
			return onePerson(t, resp), etag
		}
		save := func(old, n *wayfarer.Person, ifMatch ...string) *testserver.Response {
			t.Helper()
			var h []string
			for _, v := range ifMatch {
				h = append(h, "If-Match", v)
			}
			return s.Do(t, "POST", "/person/refresh", dataset(old, n), append(admin.tok, h...)...)
		}
		old, etag := get()
		if _, again := get(); again != etag {
			t.Fatalf("ETag moved without a save: %s %s", etag, again)
		}
		if r := admin.do("GET", path+"?decrypt=true", nil); r.Header.Get("ETag") != etag {
			t.Fatal("a decrypted load names another version")
		}

		// If-Match with the loaded version: saved, a new version, which the
		// refresh answer names as the next load does.
		n := clone(t, old)
		n.Remarks = wayfarer.Some("first")
		resp := save(old, n, etag)
		if resp.Status != 200 || resp.Header.Get("ETag") == etag {
			t.Fatalf("save with the loaded ETag: %d %q %s", resp.Status, resp.Header.Get("ETag"), resp.Body)
		}
		old2, etag2 := get()
		if resp.Header.Get("ETag") != etag2 {
			t.Fatalf("refresh answered %s, the load %s", resp.Header.Get("ETag"), etag2)
		}

		// The old version: 412, resultCode 412, nothing written, even for a
		// change the old/new comparison would let through.
		n = clone(t, old2)
		n.BirthdayNote = wayfarer.Some("stale")
		m := wantResult(t, save(old2, n, etag), 412, 412, "person")
		if m["resultDescription"] != wayfarer.PreconditionFailedError().Message {
			t.Fatalf("description %q", m["resultDescription"])
		}
		wantResult(t, save(old2, n, `W/`+etag2), 412, 412, "person") // a weak tag never matches If-Match
		wantResult(t, save(old2, n, `"not-a-version"`), 412, 412, "person")
		wantResult(t, save(old2, n, `garbage`), 412, 412, "person")
		if p, e := get(); p.BirthdayNote.Valid || e != etag2 {
			t.Fatal("a 412 wrote something")
		}
		// Any tag of a list may match; * and no If-Match leave the old/new comparison alone.
		if r := save(old2, n, `"1-1", `+etag2); r.Status != 200 {
			t.Fatalf("a list holding the current tag: %d %s", r.Status, r.Body)
		}
		old3, etag3 := get()
		n = clone(t, old3)
		n.Salutation = wayfarer.Some("Sir")
		if r := save(old3, n, "*"); r.Status != 200 {
			t.Fatalf("If-Match *: %d %s", r.Status, r.Body)
		}
		// Stale oldData without If-Match: the old/new comparison's 409 stays.
		n = clone(t, old3)
		n.Salutation = wayfarer.Some("Madam")
		wantResult(t, save(old3, n), 409, 602, "person")
		// With both stale, the precondition answers first.
		wantResult(t, save(old3, n, etag3), 412, 412, "person")

		// A change of a child row alone moves the version; a save that
		// changes nothing does not, and is never a 204.
		cur, etag4 := get()
		n = clone(t, cur)
		n.PersonTag = append(n.PersonTag, wayfarer.PersonTag{TagRecNo: wayfarer.Some(r.diet), Value: wayfarer.Some("vegan")})
		if r := save(cur, n, etag4); r.Status != 200 || r.Header.Get("ETag") == etag4 {
			t.Fatalf("child change: %d %q", r.Status, r.Header.Get("ETag"))
		}
		cur, etag5 := get()
		if r := save(cur, clone(t, cur), etag5); r.Status != 200 || r.Header.Get("ETag") != etag5 || len(r.Body) == 0 {
			t.Fatalf("unchanged save: %d %q", r.Status, r.Header.Get("ETag"))
		}

		// POST /person takes If-Match too; a create with a tag has no version to match.
		n = clone(t, cur)
		n.Remarks = wayfarer.Some("via POST /person")
		if r := s.Do(t, "POST", "/person", dataset(cur, n), append(admin.tok, "If-Match", etag5)...); r.Status != 200 {
			t.Fatalf("POST /person with If-Match: %d %s", r.Status, r.Body)
		}
		wantResult(t, s.Do(t, "POST", "/person", dataset(cur, n), append(admin.tok, "If-Match", etag5)...), 412, 412, "person")
		wantResult(t, s.Do(t, "POST", "/person", `{"lastName":"New","activeStatus":1}`, append(admin.tok, "If-Match", `"1-1"`)...), 412, 412, "person")
		if r := s.Do(t, "POST", "/person", `{"lastName":"New","activeStatus":1}`, append(admin.tok, "If-Match", "*")...); r.Status != 200 {
			t.Fatalf("create with If-Match *: %d %s", r.Status, r.Body)
		}
	})
}

// TestPersonETagSharedCard: an edit of a card that another person holds
// too (the link table allows it; data migrated from the reference has it)
// moves that person's version as well.
func TestPersonETagSharedCard(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		a := admin.create(`{"lastName":"Holder","activeStatus":1,"personCardLink":[{"card":{"type":2,"cardNumber":"SKY-1"}}]}`)
		b := admin.create(`{"lastName":"Sharer","activeStatus":1}`)
		pa := admin.load(a)
		card := pa.PersonCardLink[0].CardRecNo.Value
		if _, err := s.App.DB.Primary().Exec(s.App.DB.Dialect.Rebind(`INSERT INTO person_card_link (agency_id, person_id, card_id) VALUES (?, ?, ?)`),
			r.agency, b, card); err != nil {
			t.Fatal(err)
		}
		before := admin.do("GET", fmt.Sprintf("/person/%d", b), nil).Header.Get("ETag")
		n := clone(t, pa)
		n.PersonCardLink[0].Card.Description = wayfarer.Some("shared")
		if resp := admin.update(pa, n); resp.Status != 200 {
			t.Fatalf("%d %s", resp.Status, resp.Body)
		}
		after := admin.do("GET", fmt.Sprintf("/person/%d", b), nil)
		if after.Header.Get("ETag") == before || onePerson(t, after).PersonCardLink[0].Card.Description.Value != "shared" {
			t.Fatalf("the other holder's ETag %s -> %s", before, after.Header.Get("ETag"))
		}
	})
}
