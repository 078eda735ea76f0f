package http

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// searchHandlers holds the search services; internal/app sets them.
type searchHandlers struct {
	Search *wayfarer.SearchService
	// Flat runs every search of the search kit (search_kit.go).
	Flat *wayfarer.FlatSearchService
	// Branches loads one branch (GET /branch/{recNo}).
	Branches *wayfarer.BranchService
}

const contentTypeCSV = "text/csv; charset=utf-8"

// ContinuationHeader carries a full page's continuation: the next page of
// the same search sends it back as the body parameter "continuation"
// (docs/search.md, "Walking every person").
const ContinuationHeader = "X-Wayfarer-Continuation"

// handlePersonSearch is POST /personSearch: a JSON array of rows, or CSV
// when reportFormat is true.
func (s *Server) handlePersonSearch(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, wayfarer.MaxSearchBodyBytes)
	// Permission first: a caller who may not search learns nothing about
	// the parameters.
	if err := s.Search.Authorize(sessionOf(r), false); err != nil {
		return err
	}
	body, err := readBody(r)
	if err != nil {
		return err
	}
	c, err := wire.DecodePersonSearch(s.codec, body)
	if err != nil {
		return err
	}
	res, err := s.Search.Search(r.Context(), sessionOf(r), c)
	if err != nil {
		s.Metrics.Search("person", searchFormat(c.ReportFormat), "error")
		s.logSearchCutOff(r, "person search", c.Shape(), err)
		return err
	}
	s.writeSearchResult(w, r, "person", res, &c.BaseCriteria)
	return nil
}

// searchFormat is a search answer's format as the metrics count it.
func searchFormat(reportFormat bool) string {
	if reportFormat {
		return "csv"
	}
	return "json"
}

// writeSearchResult writes a search's rows: a JSON array of objects, or CSV
// when reportFormat is true; nothing found (or a page past the end) is 204
// with no body, JSON or CSV alike, as the reference's searches answer.
// kind names the search in the metrics ("person", or the search kit's method).
func (s *Server) writeSearchResult(w http.ResponseWriter, r *http.Request, kind string, res *wayfarer.SearchResult, c *wayfarer.BaseCriteria) {
	if len(res.Rows) == 0 {
		s.Metrics.Search(kind, searchFormat(c.ReportFormat), "empty")
		noContent(w)
		return
	}
	s.Metrics.Search(kind, searchFormat(c.ReportFormat), "rows")
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	if res.Continuation != "" {
		h.Set(ContinuationHeader, res.Continuation)
	}
	if c.ReportFormat {
		h.Set("Content-Type", contentTypeCSV)
		h.Set("Content-Disposition", attachment(c.ReportName))
		w.WriteHeader(http.StatusOK)
		s.logWriteError(r, wire.WriteSearchCSV(w, res))
		return
	}
	h.Set("Content-Type", contentTypeJSON)
	w.WriteHeader(http.StatusOK)
	s.logWriteError(r, wire.WriteSearchJSON(w, res))
}

// logWriteError notes a failed body write: the status is already sent, so
// there is nothing left to answer, and the client has usually gone away.
func (s *Server) logWriteError(r *http.Request, err error) {
	if err != nil {
		s.log.DebugContext(r.Context(), "search: writing the body failed", "error", err.Error())
	}
}

// attachment is the Content-Disposition of a CSV report: the file name is
// the client's reportName made safe by the core (wayfarer.SafeReportFileName:
// never a card number, safe characters only), non-ASCII names in filename*
// (RFC 6266) beside an ASCII fallback.
func attachment(name string) string { return contentDisposition(wayfarer.SafeReportFileName(name)) }

// rfc5987 percent-encodes every byte but the attr-chars of RFC 5987.
func rfc5987(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}
