package http

import (
	"net/http"

	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// flatDecoder reads a flat search's body (internal/wire: DecodeXSearch).
type flatDecoder func(dec *jsoncodec.Decoder, body []byte) (*wayfarer.FlatCriteria, error)

// flatSearch is the handler of a search of the search kit: a route is
//
//	rt.add("POST", "/branchSearch", s.authed(wayfarer.MethodBranchSearch, s.flatSearch(wayfarer.BranchSearchCatalog, wire.DecodeBranchSearch)))
//
// Permission first (a caller who may not search learns nothing about the
// parameters), the body within the search body limit, then the rows as
// the person search writes them (JSON, CSV for reportFormat, 204 for none).
func (s *Server) flatSearch(cat *wayfarer.SearchCatalog, decode flatDecoder) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		r.Body = http.MaxBytesReader(w, r.Body, wayfarer.MaxSearchBodyBytes)
		sess := sessionOf(r)
		if err := s.Flat.Authorize(sess, cat, false); err != nil {
			return err
		}
		body, err := readBody(r)
		if err != nil {
			return err
		}
		c, err := decode(s.codec, body)
		if err != nil {
			return err
		}
		res, err := s.Flat.Search(r.Context(), sess, cat, c)
		if err != nil {
			s.Metrics.Search(cat.Method, searchFormat(c.ReportFormat), "error")
			s.logSearchCutOff(r, cat.Method, c.Shape(), err)
			return err
		}
		s.writeSearchResult(w, r, cat.Method, res, &c.BaseCriteria)
		return nil
	}
}
