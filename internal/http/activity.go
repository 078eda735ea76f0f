package http

import (
	"net/http"
	"strconv"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// activityHandlers holds the activity service; it is embedded in Server,
// so the wiring sets srv.Activities.
type activityHandlers struct {
	Activities *wayfarer.ActivityService
}

func (s *Server) activityService() (*wayfarer.ActivityService, error) {
	if s.Activities == nil {
		return nil, wayfarer.Errorf(wayfarer.KindInternal, contract.CodeInternal, wayfarer.MethodActivity, "the activity service is not configured")
	}
	return s.Activities, nil
}

// handleLoadActivity is GET /activity/{recNo}: an array holding the
// activity; one out of reach (missing, another agency's, private to
// someone else, outside the caller's scope, not a number) is 204 with no
// body, as persons are.
func (s *Server) handleLoadActivity(w http.ResponseWriter, r *http.Request) error {
	svc, err := s.activityService()
	if err != nil {
		return err
	}
	recNo, _ := strconv.ParseInt(r.PathValue("recNo"), 10, 64)
	a, err := svc.Load(r.Context(), sessionOf(r), recNo)
	if isNotFound(err) {
		noContent(w)
		return nil
	}
	if err != nil {
		return err
	}
	return writeActivity(w, a)
}

func writeActivity(w http.ResponseWriter, a *wayfarer.Activity) error {
	body, err := wire.ActivityJSON(a)
	w.Header().Set("Cache-Control", "no-store")
	writeBody(w, http.StatusOK, body, err)
	return nil
}

// handleSaveActivity is POST /activity: create or update, answering the recNo.
func (s *Server) handleSaveActivity(w http.ResponseWriter, r *http.Request) error {
	svc, old, n, err := s.decodeActivitySave(r)
	if err != nil {
		return err
	}
	recNo, err := svc.Save(r.Context(), sessionOf(r), old, n)
	if err != nil {
		return err
	}
	desc := "Activity updated"
	if old == nil {
		desc = "Activity created"
	}
	writeJSON(w, http.StatusOK, wire.SaveResult{ResultCode: contract.CodeOK, ResultDescription: desc, RecNo: recNo})
	return nil
}

// handleSaveActivityRefresh is POST /activity/refresh: the same save,
// answering the activity as GET /activity/{recNo} shows it.
func (s *Server) handleSaveActivityRefresh(w http.ResponseWriter, r *http.Request) error {
	svc, old, n, err := s.decodeActivitySave(r)
	if err != nil {
		return err
	}
	a, err := svc.SaveAndLoad(r.Context(), sessionOf(r), old, n)
	if err != nil {
		return err
	}
	return writeActivity(w, a)
}

func (s *Server) decodeActivitySave(r *http.Request) (*wayfarer.ActivityService, *wayfarer.Activity, *wayfarer.Activity, error) {
	svc, err := s.activityService()
	if err != nil {
		return nil, nil, nil, err
	}
	body, err := readBody(r)
	if err != nil {
		return nil, nil, nil, err
	}
	old, n, err := wire.DecodeActivitySave(s.codec, body)
	return svc, old, n, err
}
