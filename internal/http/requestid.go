package http

import (
	"context"
	"crypto/rand"
	"log/slog"
	"net/http"
)

// RequestIDHeader carries a request's ID: taken from the request when the
// client (or a proxy in front) sent a usable one, made otherwise, and
// always returned in the answer.
const RequestIDHeader = "X-Request-ID"

// maxRequestIDLen bounds a request ID taken from a client.
const maxRequestIDLen = 128

type requestIDKey struct{}

// requestID is the ID a request is known by: its X-Request-ID when that is
// 1 to 128 printable ASCII characters (so it cannot break a log line or
// smuggle a header), a new random one otherwise.
func requestID(r *http.Request) string {
	if id := r.Header.Get(RequestIDHeader); usableRequestID(id) {
		return id
	}
	return newRequestID()
}

func usableRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 0x21 || id[i] > 0x7e {
			return false
		}
	}
	return true
}

// newRequestID is 22 random lower-case letters (about 103 bits). No
// digits: an ID never reads as part of a card number in a log, where
// Wayfarer's tests and an operator's log scanners look for them.
func newRequestID() string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	var b [22]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read does not fail (Go 1.24+)
	for i := range b {
		b[i] = letters[int(b[i])%len(letters)] // the slight bias is harmless in an ID
	}
	return string(b[:])
}

// RequestIDOf is the ID of the request ctx serves; "" outside a request.
func RequestIDOf(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// WithRequestIDs wraps a log handler so that every line logged with a
// request's context (log.InfoContext(r.Context(), ...)) carries that
// request's ID as request_id: the lines of one request can be found
// together, and beside the client's own logs.
func WithRequestIDs(h slog.Handler) slog.Handler { return requestIDHandler{h} }

type requestIDHandler struct{ slog.Handler }

func (h requestIDHandler) Handle(ctx context.Context, rec slog.Record) error {
	if id := RequestIDOf(ctx); id != "" {
		rec.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, rec)
}

func (h requestIDHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return requestIDHandler{h.Handler.WithAttrs(attrs)}
}

func (h requestIDHandler) WithGroup(name string) slog.Handler {
	return requestIDHandler{h.Handler.WithGroup(name)}
}
