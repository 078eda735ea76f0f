package http

import (
	"net/http"
	"strconv"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// handleAttachmentFile is GET /person/{recNo}/attachment/{attachmentRecNo}:
// the bytes of a file attached to the person, under the person's Read
// permission and scope. They are served as a download (Content-Disposition
// attachment, a safe file name), with the media type of the file's name,
// and never sniffed or run by a browser. A person out of reach, an
// attachment not the person's, a link (no bytes) and a number that is not
// one are 204 with no body, as a load of a person out of reach.
func (s *Server) handleAttachmentFile(w http.ResponseWriter, r *http.Request) error {
	svc, err := s.personService()
	if err != nil {
		return err
	}
	recNo, _ := strconv.ParseInt(r.PathValue("recNo"), 10, 64)
	attachmentRecNo, _ := strconv.ParseInt(r.PathValue("attachmentRecNo"), 10, 64)
	f, err := svc.AttachmentFile(r.Context(), sessionOf(r), recNo, attachmentRecNo)
	if isNotFound(err) {
		noContent(w)
		return nil
	}
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", f.ContentType)
	h.Set("Content-Disposition", contentDisposition(wayfarer.SafeAttachmentFileName(f.Name, attachmentRecNo)))
	h.Set("Content-Length", strconv.Itoa(len(f.Data)))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(f.Data)
	return nil
}

// contentDisposition is an attachment's Content-Disposition: the ASCII
// file name, and the full one in filename* (RFC 6266) when it differs.
func contentDisposition(ascii, full string) string {
	v := `attachment; filename="` + ascii + `"`
	if full != ascii {
		v += "; filename*=UTF-8''" + rfc5987(full)
	}
	return v
}
