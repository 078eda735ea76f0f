package http

import (
	"errors"
	"math"
	"net/http"
	"strconv"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// statusOf is the one table from error kinds to HTTP statuses.
var statusOf = map[wayfarer.Kind]int{
	wayfarer.KindInvalid:            http.StatusBadRequest,
	wayfarer.KindUnauthorized:       http.StatusUnauthorized,
	wayfarer.KindForbidden:          http.StatusForbidden,
	wayfarer.KindNotFound:           http.StatusNotFound,
	wayfarer.KindConflict:           http.StatusConflict,
	wayfarer.KindPreconditionFailed: http.StatusPreconditionFailed,
	wayfarer.KindTooLarge:           http.StatusRequestEntityTooLarge,
	wayfarer.KindUnavailable:        http.StatusServiceUnavailable,
	wayfarer.KindThrottled:          http.StatusTooManyRequests,
	wayfarer.KindInternal:           http.StatusInternalServerError,
}

const contentTypeJSON = "application/json; charset=utf-8"

// writeJSON answers v with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := jsoncodec.Marshal(v)
	writeBody(w, status, body, err)
}

// writeBody answers an encoded body, or a 500 when encoding failed.
func writeBody(w http.ResponseWriter, status int, body []byte, err error) {
	if err != nil {
		status = http.StatusInternalServerError
		body = []byte(`{"resultCode":900,"resultDescription":"Internal error"}`)
	}
	h := w.Header()
	h.Set("Content-Type", contentTypeJSON)
	// Answers carry tokens and personal data: no cache may keep them.
	h.Set("Cache-Control", "no-store")
	// Known length: net/http would chunk a body over 2 KB written before
	// the handler returns, and end it in a write of its own.
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// writeError answers err: a *wayfarer.Error as its kind and code say,
// anything else as a 500 whose cause goes to the log only.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error, method string) {
	var e *wayfarer.Error
	if !errors.As(err, &e) {
		s.log.ErrorContext(r.Context(), "internal error", "method", r.Method, "path", loggedPath(r), "error", err.Error())
		e = &wayfarer.Error{Kind: wayfarer.KindInternal, Code: contract.CodeInternal, Method: method, Message: "Internal error"}
	}
	if e.Method == "" {
		e.Method = method
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(e.RetryAfter.Seconds()))))
	}
	writeJSON(w, statusOf[e.Kind], contract.Result{ResultCode: e.Code, ResultDescription: e.Message, Method: e.Method})
}

// noContent is the reference's answer when there is nothing to return (a
// person out of reach, a search matching nothing): 204 with no body and no
// Content-Type.
func noContent(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}

// notFound is the reference's answer to an unknown method: 404, empty text/plain.
func notFound(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
}
