package http

import (
	"net/http"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// logSearchCutOff notes a search the query time limit stopped, with who ran
// it and its shape (parameters, conditions, counts; never a value), so that
// an operator can tell which searches are too heavy for the database.
func (s *Server) logSearchCutOff(r *http.Request, what, shape string, err error) {
	limit, ok := wayfarer.QueryTimeoutOf(err)
	if !ok {
		return
	}
	attrs := []any{"limit", limit.String()}
	if sess := sessionOf(r); sess != nil {
		attrs = append(attrs, "agency", sess.AgencyAlias, "user", sess.UserName, "user_id", sess.UserID)
	}
	attrs = append(attrs, "shape", shape)
	s.log.WarnContext(r.Context(), what+" stopped by the query time limit", attrs...)
}
