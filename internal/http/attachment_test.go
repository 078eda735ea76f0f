package http_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/testserver"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Attachments (issue 12, item 2): links and files kept in the database on
// both engines, their metadata in a load, the bytes from their own call,
// the limits, and the rules of every other child table.

// Small limits, so that the tests reach them: 1000 bytes a file, 2500 a
// person, and a body limit smaller than one file's base64.
const (
	testFileMax   = 1000
	testPersonMax = 2500
	testBodyLimit = 1024
)

func eachAttachmentEngine(t *testing.T, f func(t *testing.T, s *testserver.Server, r personRefs)) {
	for _, e := range testserver.Engines() {
		t.Run(e, func(t *testing.T) {
			s := testserver.Start(t, testserver.Options{Engine: e, Config: func(c *app.Config) {
				c.Attachments = wayfarer.AttachmentLimits{MaxBytes: testFileMax, MaxPersonBytes: testPersonMax}
				c.BodyLimit = testBodyLimit
			}})
			f(t, s, loadRefs(t, s.App))
		})
	}
}

func fileBytes(n int, fill byte) []byte { return bytes.Repeat([]byte{fill}, n) }

// fileLink is a new file attachment as a reference client sends it.
func fileLink(name string, data []byte) map[string]any {
	return map[string]any{"person_recNo": nil, "attachment_recNo": nil, "attachment": map[string]any{
		"recNo": nil, "type": 2, "description": "a file", "fileNameLinkURL": name,
		"fileData": base64.StdEncoding.EncodeToString(data), "size": nil, "compressed": false, "storeExternal": 0,
		"createDateTime": nil, "visibility": 2, "directUrl": nil, "subType": 1}}
}

func urlLink(url string) map[string]any {
	return map[string]any{"attachment": map[string]any{"type": 1, "fileNameLinkURL": url, "visibility": 1, "subType": 3}}
}

func personWith(links ...map[string]any) map[string]any {
	as := make([]any, len(links))
	for i, l := range links {
		as[i] = l
	}
	return map[string]any{"lastName": "Attached", "activeStatus": 1, "personAttachmentLink": as}
}

func TestAttachmentsLinksAndFiles(t *testing.T) {
	eachAttachmentEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		pdf := append([]byte("%PDF-1.4\n"), fileBytes(testFileMax-9, 'x')...) // exactly the per-file limit
		body := personWith(urlLink("https://intranet.example.com/docs?id=7"), fileLink("Reisepass Müller.pdf", pdf))
		body["branch_recNo"], body["advisorProfile_recNo"] = r.main, r.mark
		resp := admin.do("POST", "/person/refresh", body)
		if resp.Status != 200 {
			t.Fatalf("save: %d %s", resp.Status, resp.Body)
		}
		wantShape(t, "saved person", resp.Body, "person", true)
		p := onePerson(t, resp)
		if len(p.PersonAttachmentLink) != 2 {
			t.Fatalf("attachments %s", resp.Body)
		}
		link, file := p.PersonAttachmentLink[0], p.PersonAttachmentLink[1]
		if a := link.Attachment; a.Type.Value != 1 || a.FileNameLinkURL.Value != "https://intranet.example.com/docs?id=7" ||
			a.Size.Valid || a.FileData.Valid || a.StoreExternal.Value != 0 || a.DirectURL.Valid || !a.CreateDateTime.Valid {
			t.Fatalf("link %s", mustJSON(t, a))
		}
		if a := file.Attachment; a.Size.Value != testFileMax || a.FileData.Present && a.FileData.Valid || a.Visibility.Value != 2 ||
			a.SubType.Value != 1 || a.Compressed.Value || a.Description.Value != "a file" {
			t.Fatalf("file %s", mustJSON(t, a))
		}
		// The body was larger than --body-limit: saves have room for files.
		if enc := base64.StdEncoding.EncodedLen(len(pdf)); enc <= testBodyLimit {
			t.Fatalf("test bug: the file's base64 (%d) fits the body limit", enc)
		}

		// The bytes, as a download that no browser runs or sniffs.
		bytesPath := func(recNo, id int64) string { return fmt.Sprintf("/person/%d/attachment/%d", recNo, id) }
		recNo, fileID, linkID := p.RecNo.Value, file.AttachmentRecNo.Value, link.AttachmentRecNo.Value
		got := admin.do("GET", bytesPath(recNo, fileID), nil)
		if got.Status != 200 || !bytes.Equal(got.Body, pdf) {
			t.Fatalf("bytes: %d %d bytes", got.Status, len(got.Body))
		}
		for h, want := range map[string]string{
			"Content-Type":            "application/pdf",
			"Content-Disposition":     `attachment; filename="Reisepass M_ller.pdf"; filename*=UTF-8''Reisepass%20M%C3%BCller.pdf`,
			"X-Content-Type-Options":  "nosniff",
			"Content-Length":          fmt.Sprint(len(pdf)),
			"Cache-Control":           "no-store",
			"Content-Security-Policy": "default-src 'none'; sandbox",
		} {
			if got.Header.Get(h) != want {
				t.Errorf("%s: %q, want %q", h, got.Header.Get(h), want)
			}
		}
		// One answer, 204 with no body, for everything that is not a file of a person in reach.
		other := personClient{t, s, testserver.Bearer(s.Login(t, "OTHER", "admin", "demo-admin"))}
		agent := clientFor(t, s, "agent") // OnlySelf: Alice's persons; this one is Mark's
		second := admin.create(personWith(fileLink("other.txt", []byte("hello"))))
		for _, c := range []struct {
			c    personClient
			path string
		}{
			{admin, bytesPath(recNo, linkID)},                      // a link has no bytes
			{admin, bytesPath(recNo, 999999)},                      // no such attachment
			{admin, bytesPath(second, fileID)},                     // another person's attachment
			{admin, bytesPath(999999, fileID)},                     // no such person
			{admin, fmt.Sprintf("/person/%d/attachment/x", recNo)}, // not a number
			{agent, bytesPath(recNo, fileID)},                      // out of scope
			{other, bytesPath(recNo, fileID)},                      // another agency
		} {
			wantNoContent(t, c.c.do("GET", c.path, nil))
		}
		viewer := clientFor(t, s, "viewer") // no Read
		wantResult(t, viewer.do("GET", bytesPath(recNo, fileID), nil), 403, 600, "person")
		if r := s.Do(t, "GET", bytesPath(recNo, fileID), nil); r.Status != 401 {
			t.Fatalf("without a token: %d", r.Status)
		}

		// An edit: new bytes replace the old ones; null keeps them.
		loaded := decodeAny(t, admin.do("GET", fmt.Sprintf("/person/%d", recNo), nil).Body).([]any)[0]
		edited := decodeAny(t, admin.do("GET", fmt.Sprintf("/person/%d", recNo), nil).Body).([]any)[0]
		objAt(t, edited, "personAttachmentLink.1.attachment")["fileData"] = base64.StdEncoding.EncodeToString([]byte("new scan"))
		objAt(t, edited, "personAttachmentLink.1.attachment")["fileNameLinkURL"] = "scan.png"
		objAt(t, edited, "personAttachmentLink.0.attachment")["description"] = "intranet"
		upd := admin.do("POST", "/person/refresh", oldNew(loaded.(map[string]any), edited.(map[string]any)))
		if upd.Status != 200 {
			t.Fatalf("update: %d %s", upd.Status, upd.Body)
		}
		if a := onePerson(t, upd).PersonAttachmentLink[1].Attachment; a.Size.Value != 8 {
			t.Fatalf("size after replace: %s", mustJSON(t, a))
		}
		got = admin.do("GET", bytesPath(recNo, fileID), nil)
		if string(got.Body) != "new scan" || got.Header.Get("Content-Type") != "image/png" || got.Header.Get("Content-Disposition") != `attachment; filename="scan.png"` {
			t.Fatalf("after replace: %q %q %q", got.Body, got.Header.Get("Content-Type"), got.Header.Get("Content-Disposition"))
		}
		loaded = decodeAny(t, upd.Body).([]any)[0]
		edited = decodeAny(t, upd.Body).([]any)[0]
		objAt(t, edited, "personAttachmentLink.1.attachment")["description"] = "renamed only"
		if r := admin.do("POST", "/person", oldNew(loaded.(map[string]any), edited.(map[string]any))); r.Status != 200 {
			t.Fatalf("update: %d %s", r.Status, r.Body)
		}
		if got := admin.do("GET", bytesPath(recNo, fileID), nil); string(got.Body) != "new scan" {
			t.Fatalf("fileData null dropped the bytes: %q", got.Body)
		}

		// Removing the attachments removes their bytes.
		loaded = decodeAny(t, admin.do("GET", fmt.Sprintf("/person/%d", recNo), nil).Body).([]any)[0]
		edited = decodeAny(t, admin.do("GET", fmt.Sprintf("/person/%d", recNo), nil).Body).([]any)[0]
		edited.(map[string]any)["personAttachmentLink"] = []any{}
		if r := admin.do("POST", "/person", oldNew(loaded.(map[string]any), edited.(map[string]any))); r.Status != 200 {
			t.Fatalf("remove: %d %s", r.Status, r.Body)
		}
		wantNoContent(t, admin.do("GET", bytesPath(recNo, fileID), nil))
		var rows int
		if err := s.App.DB.Primary().QueryRow(s.App.DB.Dialect.Rebind(`SELECT COUNT(*) FROM attachment_data WHERE attachment_id = ?`), fileID).Scan(&rows); err != nil || rows != 0 {
			t.Fatalf("bytes left behind: %d %v", rows, err)
		}
	})
}

func TestAttachmentRules(t *testing.T) {
	eachAttachmentEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		count := func() int {
			var n int
			if err := s.App.DB.Primary().QueryRow(`SELECT COUNT(*) FROM attachment`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		refused := func(body any, status, code int, contains string) {
			t.Helper()
			before := count()
			m := wantResult(t, admin.do("POST", "/person", body), status, code, "person")
			if d, _ := m["resultDescription"].(string); !strings.Contains(d, contains) {
				t.Fatalf("description %q, want %q", d, contains)
			}
			if count() != before {
				t.Fatal("a refused save wrote an attachment")
			}
		}
		with := func(mod func(a map[string]any)) map[string]any {
			l := fileLink("f.txt", []byte("x"))
			mod(l["attachment"].(map[string]any))
			return personWith(l)
		}
		// Limits: per file and per person, naming the flag.
		refused(personWith(fileLink("big.bin", fileBytes(testFileMax+1, 1))), 400, 407, "at most 1000 (--attachment-max-bytes)")
		refused(personWith(fileLink("a", fileBytes(834, 1)), fileLink("b", fileBytes(834, 2)), fileLink("c", fileBytes(834, 3))),
			400, 407, "--attachment-max-person-bytes); after this save they would hold 2502")
		// Links: http and https only, no credentials; no bytes.
		for _, url := range []string{"javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<script>x</script>", "file:///etc/passwd",
			"ftp://example.com/x", "//example.com/x", "example.com", "https://user:secret@example.com/"} {
			refused(personWith(urlLink(url)), 400, 407, "fileNameLinkURL")
		}
		refused(with(func(a map[string]any) { a["type"] = 1; a["fileNameLinkURL"] = "https://x.example" }), 400, 407, "a link (type 1) has no bytes")
		// Files need their bytes; every new attachment its type, sub type, visibility and name.
		refused(with(func(a map[string]any) { a["fileData"] = nil }), 400, 407, "fileData is required for a file")
		for _, field := range []string{"type", "subType", "visibility", "fileNameLinkURL"} {
			refused(with(func(a map[string]any) { delete(a, field) }), 400, 407, field)
		}
		refused(with(func(a map[string]any) { a["visibility"] = 4 }), 400, 407, "visibility must be one of")
		// Only the database stores files: the other stores are not yet supported.
		refused(with(func(a map[string]any) { a["storeExternal"] = 1 }), 400, 408, "storeExternal 1: not yet supported by Wayfarer")
		refused(with(func(a map[string]any) { a["storeExternal"] = 2 }), 400, 408, "not yet supported")
		refused(with(func(a map[string]any) { a["storeExternal"] = 7 }), 400, 407, "storeExternal must be one of")
		// Card numbers are refused in names and descriptions, as in every text field.
		refused(with(func(a map[string]any) { a["description"] = "card 4111 1111 1111 1111" }), 400, 410, "attachment.description")
		refused(with(func(a map[string]any) { a["fileNameLinkURL"] = "visa-4111111111111111.pdf" }), 400, 410, "fileNameLinkURL")
		refused(personWith(urlLink("https://pay.example.com/?pan=4111111111111111")), 400, 410, "fileNameLinkURL")
		// Sizes.
		refused(with(func(a map[string]any) { a["description"] = strings.Repeat("d", 257) }), 400, 407, "longer than 256")
		refused(with(func(a map[string]any) { a["fileNameLinkURL"] = strings.Repeat("n", 257) }), 400, 407, "longer than 256")
		// Not base64: 406 naming the field.
		refused(with(func(a map[string]any) { a["fileData"] = "%%%" }), 400, 406, "Path 'personAttachmentLink[0].attachment.fileData'")

		// storeExternal null is the database; read-only members are ignored.
		p := onePerson(t, admin.do("POST", "/person/refresh", with(func(a map[string]any) {
			a["storeExternal"], a["size"], a["directUrl"], a["createDateTime"] = nil, 99, "https://elsewhere", "2001-01-01T00:00:00Z"
		})))
		a := p.PersonAttachmentLink[0].Attachment
		if a.StoreExternal.Value != 0 || a.Size.Value != 1 || a.DirectURL.Valid || a.CreateDateTime.Value.Time() != s.Clock.Now() {
			t.Fatalf("attachment %s", mustJSON(t, a))
		}
		// The type is insert-only; the person's total counts the files kept.
		// (The bodies send recNo and the attachments only: the rest is left alone.)
		only := func() map[string]any {
			full := decodeAny(t, admin.do("GET", fmt.Sprintf("/person/%d", p.RecNo.Value), nil).Body).([]any)[0].(map[string]any)
			return map[string]any{"recNo": full["recNo"], "personAttachmentLink": full["personAttachmentLink"]}
		}
		loaded, edited := only(), only()
		objAt(t, edited, "personAttachmentLink.0.attachment")["type"] = 1
		refused(oldNew(loaded, edited), 400, 407, "attachment type is insert-only")
		edited = only()
		edited["personAttachmentLink"] = append(edited["personAttachmentLink"].([]any), fileLink("g", fileBytes(1000, 5)), fileLink("h", fileBytes(1000, 6)))
		if r := admin.do("POST", "/person", oldNew(loaded, edited)); r.Status != 200 { // 1 + 2000 bytes
			t.Fatalf("within the person's limit: %d %s", r.Status, r.Body)
		}
		loaded, edited = only(), only()
		objAt(t, edited, "personAttachmentLink.0.attachment")["fileData"] = base64.StdEncoding.EncodeToString(fileBytes(600, 7))
		refused(oldNew(loaded, edited), 400, 407, "after this save they would hold 2600")

		// Only saves have the room for files: other bodies keep --body-limit.
		big := fmt.Sprintf(`{"alias":"DEMO","userName":"admin","password":%q}`, strings.Repeat("p", testBodyLimit))
		if r := s.Do(t, "POST", "/login", big); r.Status != 413 {
			t.Fatalf("login body over the limit: %d %s", r.Status, r.Body)
		}
		if r := admin.do("POST", "/personSearch", `{"reportName":"`+strings.Repeat("r", testBodyLimit)+`"}`); r.Status != 413 {
			t.Fatalf("search body over the limit: %d %s", r.Status, r.Body)
		}
		// ... and a save has no more than the person's files' base64 beyond it.
		huge := personWith(fileLink("x", fileBytes(testPersonMax+testBodyLimit, 1)))
		if r := admin.do("POST", "/person", huge); r.Status != 413 {
			t.Fatalf("save body over its limit: %d %s", r.Status, r.Body)
		}
	})
}

// TestAttachmentFileNames: the download's file name is made safe from the
// stored name, and types a browser would run are served as bytes.
func TestAttachmentFileNames(t *testing.T) {
	eachAttachmentEngine(t, func(t *testing.T, s *testserver.Server, r personRefs) {
		admin := clientFor(t, s, "admin")
		for name, want := range map[string][2]string{
			"../../etc/passwd": {`attachment; filename="etc_passwd"`, "application/octet-stream"},
			"page.HTML":        {`attachment; filename="page.HTML"`, "application/octet-stream"},
			"x.svg":            {`attachment; filename="x.svg"`, "application/octet-stream"},
			`quo"te\r.txt`:     {`attachment; filename="quo_te_r.txt"`, "text/plain; charset=utf-8"},
			"CON.txt":          {`attachment; filename="_CON.txt"`, "text/plain; charset=utf-8"},
			"???":              {`attachment; filename="attachment-%d"`, "application/octet-stream"},
			"scan.JPG":         {`attachment; filename="scan.JPG"`, "image/jpeg"},
		} {
			p := onePerson(t, admin.do("POST", "/person/refresh", personWith(fileLink(name, []byte("data")))))
			id := p.PersonAttachmentLink[0].AttachmentRecNo.Value
			got := admin.do("GET", fmt.Sprintf("/person/%d/attachment/%d", p.RecNo.Value, id), nil)
			disp := want[0]
			if strings.Contains(disp, "%d") {
				disp = fmt.Sprintf(disp, id)
			}
			if got.Status != 200 || got.Header.Get("Content-Disposition") != disp || got.Header.Get("Content-Type") != want[1] {
				t.Errorf("%q: %d %q %q, want %q %q", name, got.Status, got.Header.Get("Content-Disposition"), got.Header.Get("Content-Type"), disp, want[1])
			}
		}
	})
}
