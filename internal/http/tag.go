package http

import (
	"context"
	"net/http"
	"strconv"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// lookupHandlers holds the services of the look-ups a person form needs:
// tag definitions and affiliations. It is embedded in Server.
type lookupHandlers struct {
	Tags         *wayfarer.TagService
	Affiliations *wayfarer.AffiliationService
}

func (s *Server) tagService() (*wayfarer.TagService, error) {
	if s.Tags == nil {
		return nil, wayfarer.Errorf(wayfarer.KindInternal, contract.CodeInternal, wayfarer.MethodTag, "the tag service is not configured")
	}
	return s.Tags, nil
}

// handleLoadTag is GET /tag/{recNo}: an array holding the tag; a tag that
// is missing or another agency's (or a recNo that is not a number) is 204
// with no body, as for a person.
func (s *Server) handleLoadTag(w http.ResponseWriter, r *http.Request) error {
	svc, err := s.tagService()
	if err != nil {
		return err
	}
	return serveLoad(w, r, svc.Load, wire.TagJSON)
}

// serveLoad answers the load of one record by the recNo of the path: the
// record as encode writes it, or 204 with no body when load finds none
// within reach (a recNo that is not a number is 0, found by none).
func serveLoad[T any](w http.ResponseWriter, r *http.Request,
	load func(context.Context, *wayfarer.Session, int64) (T, error), encode func(T) ([]byte, error)) error {
	recNo, _ := strconv.ParseInt(r.PathValue("recNo"), 10, 64)
	rec, err := load(r.Context(), sessionOf(r), recNo)
	if isNotFound(err) {
		noContent(w)
		return nil
	}
	if err != nil {
		return err
	}
	body, err := encode(rec)
	writeBody(w, http.StatusOK, body, err)
	return nil
}

// decodeTagSave reads a tag save body and hands its sides to save.
func (s *Server) decodeTagSave(r *http.Request, save func(svc *wayfarer.TagService, old, n *wayfarer.Tag) error) error {
	svc, err := s.tagService()
	if err != nil {
		return err
	}
	body, err := readBody(r)
	if err != nil {
		return err
	}
	old, n, err := wire.DecodeTagSave(s.codec, body)
	if err != nil {
		return err
	}
	return save(svc, old, n)
}

// handleSaveTag is POST /tag: create or update, answering the recNo.
func (s *Server) handleSaveTag(w http.ResponseWriter, r *http.Request) error {
	var recNo int64
	var created bool
	err := s.decodeTagSave(r, func(svc *wayfarer.TagService, old, n *wayfarer.Tag) (err error) {
		created = old == nil
		recNo, err = svc.Save(r.Context(), sessionOf(r), old, n)
		return err
	})
	if err != nil {
		return err
	}
	desc := "Tag updated"
	if created {
		desc = "Tag created"
	}
	writeJSON(w, http.StatusOK, wire.SaveResult{ResultCode: contract.CodeOK, ResultDescription: desc, RecNo: recNo})
	return nil
}

// handleSaveTagRefresh is POST /tag/refresh: the same save, answering the
// tag as GET /tag/{recNo} shows it.
func (s *Server) handleSaveTagRefresh(w http.ResponseWriter, r *http.Request) error {
	var t *wayfarer.Tag
	err := s.decodeTagSave(r, func(svc *wayfarer.TagService, old, n *wayfarer.Tag) (err error) {
		t, err = svc.SaveAndLoad(r.Context(), sessionOf(r), old, n)
		return err
	})
	if err != nil {
		return err
	}
	body, err := wire.TagJSON(t)
	writeBody(w, http.StatusOK, body, err)
	return nil
}

// handleLoadAffiliation is GET /affiliation/{recNo}: an array holding the
// affiliation with its marketing categories and elements; missing or
// another agency's is 204 with no body.
func (s *Server) handleLoadAffiliation(w http.ResponseWriter, r *http.Request) error {
	if s.Affiliations == nil {
		return wayfarer.Errorf(wayfarer.KindInternal, contract.CodeInternal, wayfarer.MethodAffiliation, "the affiliation service is not configured")
	}
	return serveLoad(w, r, s.Affiliations.Load, wire.AffiliationJSON)
}
