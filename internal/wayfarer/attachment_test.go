package wayfarer

import (
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

func wantErr(t *testing.T, err error, code int, contains string) {
	t.Helper()
	e := AsError(err)
	if e == nil || e.Code != code || !strings.Contains(e.Message, contains) {
		t.Fatalf("want %d containing %q, got %v", code, contains, err)
	}
}

const newFile = `{"type":2,"subType":1,"visibility":2,"fileNameLinkURL":"a.pdf","fileData":"12345"}`

func attachmentPerson(t *testing.T, attachments ...string) *Person {
	t.Helper()
	return mustPerson(t, `{"activeStatus":1,"personAttachmentLink":[`+joinAttachments(attachments)+`]}`)
}

func joinAttachments(as []string) string {
	var b strings.Builder
	for i, a := range as {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"attachment":` + a + `}`)
	}
	return b.String()
}

func TestValidateAttachment(t *testing.T) {
	if err := ValidatePerson(attachmentPerson(t, newFile), true); err != nil {
		t.Fatal(err)
	}
	for a, want := range map[string]string{
		`{"subType":1,"visibility":2,"fileNameLinkURL":"a"}`:                                                                           "attachment.type is required",
		`{"type":3,"subType":1,"visibility":2,"fileNameLinkURL":"a"}`:                                                                  "type must be one of Link 1, File 2",
		`{"type":2,"visibility":2,"fileNameLinkURL":"a"}`:                                                                              "subType is required",
		`{"type":2,"subType":1,"fileNameLinkURL":"a"}`:                                                                                 "visibility is required",
		`{"type":2,"subType":1,"visibility":2}`:                                                                                        "fileNameLinkURL is required",
		`{"type":2,"subType":1,"visibility":2,"fileNameLinkURL":"  "}`:                                                                 "fileNameLinkURL is required",
		`{"type":2,"subType":1,"visibility":2,"fileNameLinkURL":"a","storeExternal":9}`:                                                "storeExternal must be one of",
		`{"type":1,"subType":1,"visibility":2,"fileNameLinkURL":"https://x.example","description":"` + strings.Repeat("d", 257) + `"}`: "longer than 256",
	} {
		wantErr(t, ValidatePerson(attachmentPerson(t, a), true), contract.CodeInvalidValue, want)
	}
	wantErr(t, ValidatePerson(attachmentPerson(t, `{"type":2,"subType":1,"visibility":2,"fileNameLinkURL":"a","storeExternal":2}`), true),
		contract.CodeNotSupported, "storeExternal 2: not yet supported by Wayfarer")
	wantErr(t, ValidatePerson(attachmentPerson(t, `{"type":1,"subType":1,"visibility":2,"fileNameLinkURL":"https://x.example/4111111111111111"}`), true),
		contract.CodeCardRule, "personAttachmentLink[0].attachment.fileNameLinkURL")
	wantErr(t, ValidatePerson(mustPerson(t, `{"activeStatus":1,"personAttachmentLink":[{"attachment_recNo":null}]}`), true),
		contract.CodeInvalidValue, "attachment is required for a new attachment")
}

func TestAttachmentRulesOnChanges(t *testing.T) {
	limits := AttachmentLimits{MaxBytes: 10, MaxPersonBytes: 15}
	create := func(as ...string) error {
		ch, err := DiffPerson(nil, attachmentPerson(t, as...))
		if err != nil {
			return err
		}
		return applyAttachmentRules(ch, nil, limits)
	}
	if err := create(newFile); err != nil {
		t.Fatal(err)
	}
	wantErr(t, create(`{"type":2,"subType":1,"visibility":2,"fileNameLinkURL":"a","fileData":"12345678901"}`), contract.CodeInvalidValue,
		"holds 11 bytes; a file may hold at most 10 (--attachment-max-bytes)")
	wantErr(t, create(newFile, newFile, newFile, newFile), contract.CodeInvalidValue, "after this save they would hold 20")
	wantErr(t, create(`{"type":2,"subType":1,"visibility":2,"fileNameLinkURL":"a"}`), contract.CodeInvalidValue, "fileData is required")
	wantErr(t, create(`{"type":1,"subType":1,"visibility":2,"fileNameLinkURL":"https://x.example","fileData":"1"}`), contract.CodeInvalidValue, "has no bytes")
	for _, url := range []string{"javascript:alert(1)", "data:text/plain,x", "mailto:a@b.example", "https://u:p@x.example", "http://", "x.example/a"} {
		wantErr(t, create(`{"type":1,"subType":3,"visibility":1,"fileNameLinkURL":"`+url+`"}`), contract.CodeInvalidValue, "fileNameLinkURL")
	}
	for _, url := range []string{"https://x.example", "HTTP://X.EXAMPLE/a?b=c#d", "https://x.example:8443/path"} {
		if err := create(`{"type":1,"subType":3,"visibility":1,"fileNameLinkURL":"` + url + `"}`); err != nil {
			t.Errorf("%s: %v", url, err)
		}
	}
	// A link keeps no empty bytes; a file gets its size.
	ch, _ := DiffPerson(nil, attachmentPerson(t, `{"type":1,"subType":3,"visibility":1,"fileNameLinkURL":"https://x.example","fileData":""}`, newFile))
	if err := applyAttachmentRules(ch, nil, limits); err != nil {
		t.Fatal(err)
	}
	if hasField(ch.Attachments[0].Fields, "fileData") || ch.Attachments[1].New.Size.Value != 5 {
		t.Fatalf("changes %s", dumpJSON(ch.Attachments))
	}

	// Updates: the stored type decides; it never changes; the person's total counts what stays.
	stored := mustPerson(t, `{"recNo":1,"personAttachmentLink":[
		{"person_recNo":1,"attachment_recNo":5,"attachment":{"recNo":5,"type":2,"subType":1,"visibility":2,"fileNameLinkURL":"a.pdf","fileData":null,"size":8}},
		{"person_recNo":1,"attachment_recNo":6,"attachment":{"recNo":6,"type":1,"subType":3,"visibility":1,"fileNameLinkURL":"https://x.example","fileData":null,"size":null}}]}`)
	update := func(n string) error {
		ch, err := DiffPerson(stored, mustPerson(t, n))
		if err != nil {
			return err
		}
		if err := CheckStale(stored, stored, ch); err != nil {
			return err
		}
		return applyAttachmentRules(ch, stored, limits)
	}
	wantErr(t, update(`{"recNo":1,"personAttachmentLink":[{"attachment_recNo":5,"attachment":{"recNo":5,"type":1}}]}`), contract.CodeInvalidValue, "insert-only")
	wantErr(t, update(`{"recNo":1,"personAttachmentLink":[{"attachment_recNo":6,"attachment":{"recNo":6,"fileData":"x"}},
		{"attachment_recNo":5,"attachment":{"recNo":5}}]}`), contract.CodeInvalidValue, "a link (type 1) has no bytes")
	wantErr(t, update(`{"recNo":1,"personAttachmentLink":[{"attachment_recNo":6,"attachment":{"recNo":6,"fileNameLinkURL":"javascript:x"}},
		{"attachment_recNo":5,"attachment":{"recNo":5}}]}`), contract.CodeInvalidValue, "http or https")
	// Replacing 8 bytes by 10 and adding 5 is 15: within; adding 6 more is not.
	if err := update(`{"recNo":1,"personAttachmentLink":[{"attachment_recNo":5,"attachment":{"recNo":5,"fileData":"1234567890"}},
		{"attachment_recNo":6},` + `{"attachment":` + newFile + `}]}`); err != nil {
		t.Fatal(err)
	}
	wantErr(t, update(`{"recNo":1,"personAttachmentLink":[{"attachment_recNo":5},{"attachment_recNo":6},
		{"attachment":`+newFile+`},{"attachment":{"type":2,"subType":1,"visibility":2,"fileNameLinkURL":"b","fileData":"123"}}]}`),
		contract.CodeInvalidValue, "would hold 16")
	// Removing a file frees its bytes.
	if err := update(`{"recNo":1,"personAttachmentLink":[{"attachment_recNo":6},{"attachment":{"type":2,"subType":1,"visibility":2,"fileNameLinkURL":"c","fileData":"1234567890"}},{"attachment":` + newFile + `}]}`); err != nil {
		t.Fatal(err)
	}
}

// The bytes are never compared as stale and a null never clears them: every
// load shows fileData null.
func TestFileDataDiff(t *testing.T) {
	old := mustPerson(t, `{"recNo":1,"personAttachmentLink":[{"attachment_recNo":5,"attachment":{"recNo":5,"type":2,"fileData":"old bytes","description":"d"}}]}`)
	ch, err := DiffPerson(old, mustPerson(t, `{"recNo":1,"personAttachmentLink":[{"attachment_recNo":5,"attachment":{"recNo":5,"fileData":null,"description":"d"}}]}`))
	if err != nil || len(ch.Attachments) != 0 {
		t.Fatalf("a null fileData is a change: %s %v", dumpJSON(ch), err)
	}
	ch, err = DiffPerson(old, mustPerson(t, `{"recNo":1,"personAttachmentLink":[{"attachment_recNo":5,"attachment":{"recNo":5,"fileData":"new","description":"e"}}]}`))
	if err != nil || len(ch.Attachments) != 1 || strings.Join(ch.Attachments[0].Fields, ",") != "description,fileData" {
		t.Fatalf("changes %s %v", dumpJSON(ch), err)
	}
	current := mustPerson(t, `{"recNo":1,"personAttachmentLink":[{"attachment_recNo":5,"attachment":{"recNo":5,"type":2,"fileData":null,"description":"d"}}]}`)
	if err := CheckStale(current, old, ch); err != nil {
		t.Fatalf("the loaded null fileData made the save stale: %v", err)
	}
	stale := mustPerson(t, `{"recNo":1,"personAttachmentLink":[{"attachment_recNo":5,"attachment":{"recNo":5,"type":2,"fileData":null,"description":"x"}}]}`)
	wantErr(t, CheckStale(stale, old, ch), contract.CodeConcurrencyConflict, "changed by someone else")
}

func TestFileContentTypeAndName(t *testing.T) {
	for name, want := range map[string]string{
		"a.pdf": "application/pdf", "A.PDF": "application/pdf", "x.html": "application/octet-stream", "x.svg": "application/octet-stream",
		"x.js": "application/octet-stream", "noext": "application/octet-stream", "scan.jpeg": "image/jpeg", "notes.txt": "text/plain; charset=utf-8",
	} {
		if got := FileContentType(name); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	for name, want := range map[string][2]string{
		"passport.pdf":         {"passport.pdf", "passport.pdf"},
		"../../etc/passwd":     {"etc_passwd", "etc_passwd"},
		"Müller.pdf":           {"M_ller.pdf", "Müller.pdf"},
		"4111111111111111.pdf": {"attachment-7", "attachment-7"}, // never a card number, not even its extension
		"nul.txt":              {"_nul.txt", "_nul.txt"},
		"x.tar.verylongext123": {"x.tar.verylongext123", "x.tar.verylongext123"},
		"":                     {"attachment-7", "attachment-7"},
		"evil\".pdf\r\nX-Y: z": {"evil_.pdf_X-Y_ z", "evil_.pdf_X-Y_ z"},
	} {
		ascii, full := SafeAttachmentFileName(name, 7)
		if ascii != want[0] || full != want[1] {
			t.Errorf("%q: %q %q, want %q %q", name, ascii, full, want[0], want[1])
		}
	}
}

func TestPrecondition(t *testing.T) {
	p := &Person{RecNo: Some[int64](12), Version: 3}
	if p.VersionTag() != "12-3" {
		t.Fatal(p.VersionTag())
	}
	var none *Precondition
	if !none.holds(p) || (&Precondition{}).holds(p) || !(&Precondition{VersionTags: []string{"1-1", "12-3"}}).holds(p) ||
		(&Precondition{VersionTags: []string{"12-2"}}).holds(p) || (&Precondition{VersionTags: []string{"12-3"}}).holds(nil) {
		t.Fatal("holds")
	}
}
