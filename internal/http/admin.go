package http

import (
	"fmt"
	"net/http"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// The operators' admin domain (docs/operators.md): routes for a session
// opened with GET /login/:. The core (wayfarer.OperatorAdmin) refuses
// every other session with 403/600 and records each call in the audit.

func (s *Server) handleAdminAgencies(w http.ResponseWriter, r *http.Request) error {
	list, err := s.OperatorAdmin.Agencies(r.Context(), sessionOf(r))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.AdminAgencies(list))
	return nil
}

// handleAdminAgencyStatus is POST /admin/agency/{alias}/enable and /disable.
func (s *Server) handleAdminAgencyStatus(st wayfarer.AgencyStatus) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		alias := r.PathValue("alias")
		if err := s.OperatorAdmin.SetAgencyStatus(r.Context(), sessionOf(r), alias, st); err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, contract.Result{ResultDescription: fmt.Sprintf("Agency %s is %s", wayfarer.NormalizeAlias(alias), st)})
		return nil
	}
}

func (s *Server) handleAdminUsers(w http.ResponseWriter, r *http.Request) error {
	list, err := s.OperatorAdmin.Users(r.Context(), sessionOf(r), r.PathValue("alias"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, wire.AdminUsers(list))
	return nil
}

// handleAdminCreateUser is POST /admin/agency/{alias}/user. The body holds
// a password: it reaches the hasher only, never a log or the audit.
func (s *Server) handleAdminCreateUser(w http.ResponseWriter, r *http.Request) error {
	sess := sessionOf(r)
	if err := s.OperatorAdmin.Check(sess); err != nil { // before the body is read
		return err
	}
	body, err := readBody(r)
	if err != nil {
		return err
	}
	req, err := wire.DecodeAdminUserCreate(s.codec, body)
	if err != nil {
		return err
	}
	id, err := s.OperatorAdmin.CreateUser(r.Context(), sess, r.PathValue("alias"), req)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, contract.AdminUserCreateResult{RecNo: id, ResultDescription: "User created"})
	return nil
}

func (s *Server) handleAdminUnlockUser(w http.ResponseWriter, r *http.Request) error {
	if err := s.OperatorAdmin.UnlockUser(r.Context(), sessionOf(r), r.PathValue("alias"), r.PathValue("userName")); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, contract.Result{ResultDescription: "User unlocked"})
	return nil
}
