package wayfarer

import (
	"net/url"
	"path"
	"strconv"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// The rules of attachments: on one side of a save (validateAttachment,
// from ValidatePerson) and on the changes, where the stored type and the
// sizes of the person's other files are known (applyAttachmentRules).

// validateAttachment checks one attachment of the new side: the enum
// fields, storeExternal, and the fields a new attachment needs.
func validateAttachment(a *Attachment, p string, isNew bool) error {
	if err := enumField(a.Type, p, "type", 1, 2, isNew, true, "Link 1, File 2"); err != nil {
		return err
	}
	if err := enumField(a.SubType, p, "subType", 1, 3, isNew, true, "Document 1, Image 2, Other 3"); err != nil {
		return err
	}
	if err := enumField(a.Visibility, p, "visibility", 1, 3, isNew, true, "Public 1, Private 2, Internal 3"); err != nil {
		return err
	}
	if s := a.StoreExternal; s.Valid && s.Value != StoreDatabase {
		if s.Value == 1 || s.Value == 2 {
			return Errorf(KindInvalid, contract.CodeNotSupported, MethodPerson,
				"%s %d: not yet supported by Wayfarer; files are kept in the database (Database 0)", joinPath(p, "storeExternal"), s.Value)
		}
		return invalidValue("%s must be one of Database 0, PrivateStorage 1, PublicStorage 2", joinPath(p, "storeExternal"))
	}
	name := a.FileNameLinkURL
	if isNew && !name.Valid || name.Present && (!name.Valid || strings.TrimSpace(name.Value) == "") {
		return invalidValue("%s is required", joinPath(p, "fileNameLinkURL"))
	}
	return nil
}

// applyAttachmentRules checks the attachment changes of ch against the
// stored attachments (current; nil for a new person) and the limits, and
// gives every file whose bytes a save writes its size.
// The type of an existing attachment never changes; a link's
// fileNameLinkURL is an http or https URL and it has no bytes; a file has
// bytes, each file at most MaxBytes, all files of the person at most
// MaxPersonBytes after a save that writes bytes (one that writes none
// passes even where files stored under a higher limit exceed it: it only
// needs the stored attachments when it changes them).
func applyAttachmentRules(ch *PersonChanges, current *Person, limits AttachmentLimits) error {
	if len(ch.Attachments) == 0 {
		return nil
	}
	limits = limits.WithDefaults()
	stored := map[int64]*Attachment{}
	var total int64
	writes := false // bytes of a file
	if current != nil {
		for _, l := range current.PersonAttachmentLink {
			if a := l.Attachment; a != nil && l.AttachmentRecNo.Valid {
				stored[l.AttachmentRecNo.Value] = a
				if a.Size.Valid {
					total += int64(a.Size.Value)
				}
			}
		}
	}
	for i := range ch.Attachments {
		c := &ch.Attachments[i]
		if c.Op == OpDelete {
			if a := stored[c.RecNo]; a != nil && a.Size.Valid {
				total -= int64(a.Size.Value)
			}
			continue
		}
		typ := c.New.Type
		if c.Op == OpUpdate {
			if hasField(c.Fields, "type") {
				return invalidValue("attachment type is insert-only: remove the attachment and add a new one (%s.type)", c.Path)
			}
			if a := stored[c.RecNo]; a != nil {
				typ = a.Type
			} else if c.Old != nil && c.Old.Type.Valid {
				typ = c.Old.Type
			}
		}
		if !typ.Valid {
			return invalidValue("%s.type is required (Link 1, File 2)", c.Path)
		}
		bytes := hasField(c.Fields, "fileData") && c.New.FileData.Valid
		switch typ.Value {
		case AttachmentTypeLink:
			if bytes && c.New.FileData.Value.Len() > 0 {
				return invalidValue("%s.fileData is for files (type 2); a link (type 1) has no bytes", c.Path)
			}
			c.Fields = removeField(c.Fields, "fileData")
			if hasField(c.Fields, "fileNameLinkURL") {
				if err := checkLinkURL(c.New.FileNameLinkURL.Value, c.Path+".fileNameLinkURL"); err != nil {
					return err
				}
			}
		case AttachmentTypeFile:
			if c.Op == OpInsert && !bytes {
				return invalidValue("%s.fileData is required for a file (type 2): its bytes, base64", c.Path)
			}
			if !bytes {
				c.Fields = removeField(c.Fields, "fileData")
				continue
			}
			n := int64(c.New.FileData.Value.Len())
			if n > limits.MaxBytes {
				return invalidValue("%s.fileData holds %d bytes; a file may hold at most %d (--attachment-max-bytes)", c.Path, n, limits.MaxBytes)
			}
			if a := stored[c.RecNo]; c.Op == OpUpdate && a != nil && a.Size.Valid {
				total -= int64(a.Size.Value)
			}
			total += n
			c.New.Size = Some(int(n))
			writes = true
		}
	}
	if writes && total > limits.MaxPersonBytes {
		return invalidValue("personAttachmentLink: the files of one person may hold at most %d bytes (--attachment-max-person-bytes); after this save they would hold %d",
			limits.MaxPersonBytes, total)
	}
	return nil
}

// checkLinkURL accepts an absolute http or https URL with a host and
// without credentials: a link is opened by people, so javascript:, data:,
// file: and the like are refused, and a password is never kept in clear.
func checkLinkURL(s, p string) error {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || u.Host == "" || u.Opaque != "" {
		return invalidValue("%s must be an absolute http or https URL for a link (type 1)", p)
	}
	if scheme := strings.ToLower(u.Scheme); scheme != "http" && scheme != "https" {
		return invalidValue("%s must be an http or https URL for a link (type 1)", p)
	}
	if u.User != nil {
		return invalidValue("%s must not hold a user name or password", p)
	}
	return nil
}

// fileTypes are the media types files are served with, by extension.
// Types a browser would run (HTML, SVG, scripts) are not in it: such files
// are served as application/octet-stream.
var fileTypes = map[string]string{
	".pdf": "application/pdf", ".txt": "text/plain; charset=utf-8", ".csv": "text/csv; charset=utf-8",
	".rtf": "application/rtf", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
	".gif": "image/gif", ".webp": "image/webp", ".heic": "image/heic", ".tif": "image/tiff", ".tiff": "image/tiff",
	".bmp": "image/bmp", ".doc": "application/msword",
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".xls":  "application/vnd.ms-excel",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".ppt":  "application/vnd.ms-powerpoint",
	".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	".odt":  "application/vnd.oasis.opendocument.text", ".ods": "application/vnd.oasis.opendocument.spreadsheet",
	".zip": "application/zip", ".eml": "message/rfc822", ".msg": "application/vnd.ms-outlook",
	".ics": "text/calendar; charset=utf-8", ".json": "application/json",
}

// FileContentType is the media type a file of this name is served with:
// by its extension, application/octet-stream when unknown. The bytes are
// never sniffed, so the type does not depend on what a client uploads.
func FileContentType(name string) string {
	if t, ok := fileTypes[strings.ToLower(path.Ext(strings.TrimSpace(name)))]; ok {
		return t
	}
	return "application/octet-stream"
}

// SafeAttachmentFileName is the file name a file attachment's bytes are
// served under (Content-Disposition): ascii for filename, full for
// filename* (RFC 6266). The stored name is free text; it gets the rules of
// SafeReportFileName (never a card number, safe characters only, at most
// 100 characters, no Windows device names), keeping its extension when
// that is a short run of letters and digits; attachment-<recNo> when
// nothing of it is left.
func SafeAttachmentFileName(name string, attachmentRecNo int64) (ascii, full string) {
	name = strings.TrimSpace(name)
	if ContainsCardNumber(name) {
		name = ""
	}
	name = norm.NFKC.String(name)
	ext := path.Ext(name)
	if len(ext) < 2 || len(ext) > 10 || strings.IndexFunc(ext[1:], func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) >= 0 {
		ext = ""
	}
	return safeFileName(strings.TrimSuffix(name, ext), "attachment-"+strconv.FormatInt(attachmentRecNo, 10), ext)
}
