package http

import (
	"net/http"
	"strconv"

	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// handleLoadBranch is GET /branch/{recNo}: an array holding the branch. A
// branch out of reach (missing, another agency's, another branch for a
// user bound to its own, a recNo that is not a number) is 204 with no
// body, one answer for all, as a person is.
func (s *Server) handleLoadBranch(w http.ResponseWriter, r *http.Request) error {
	recNo, _ := strconv.ParseInt(r.PathValue("recNo"), 10, 64)
	res, err := s.Branches.Load(r.Context(), sessionOf(r), recNo)
	if isNotFound(err) {
		noContent(w)
		return nil
	}
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", contentTypeJSON)
	w.WriteHeader(http.StatusOK)
	s.logWriteError(r, wire.WriteSearchJSON(w, res))
	return nil
}
