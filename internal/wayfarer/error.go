package wayfarer

import (
	"errors"
	"fmt"
	"time"
)

// Kind classifies an error; the HTTP layer maps each kind to one status.
type Kind int

const (
	KindInternal     Kind = iota // 500
	KindInvalid                  // 400: bad input, nothing written
	KindUnauthorized             // 401: login or identity token failure
	KindForbidden                // 403: authenticated but not permitted
	KindNotFound                 // 404: no such record in the caller's reach
	KindConflict                 // 409: stored data changed since the client loaded it
	KindTooLarge                 // 413: request body over the limit
	KindThrottled                // 429: not now; try again after Error.RetryAfter
)

// Result codes. 0 and 100..108 are the contract's login codes, 300..305 the
// reference's identity-token codes, 405/406 its parameter codes. The rest are
// Wayfarer's own, documented in docs/api.md.
const (
	CodeOK                     = 0
	CodeInvalidClientVersion   = 100
	CodeInvalidCredentials     = 101
	CodePasswordExpired        = 102
	CodeUserLocked             = 103
	CodeUserDisabled           = 104
	CodeInvalidAlias           = 105
	CodeAgencyNotInitialized   = 106
	CodeAgencyDisabled         = 107
	CodeAgencyCancelled        = 108
	CodeTooManyLogins          = 109 // Wayfarer's own: a login refused for now (429), docs/security.md
	CodeTokenInvalid           = 300
	CodeTokenExpired           = 301
	CodeTokenMissing           = 302
	CodeTokenSignatureMismatch = 303
	CodeTokenMissingSecret     = 304
	CodeTokenNotInStore        = 305
	CodeInvalidColumn          = 405
	CodeDeserialization        = 406
	CodeInvalidValue           = 407 // a field fails validation (too long, required, out of range)
	CodeNotSupported           = 408 // a parameter Wayfarer does not support yet
	CodeCardRule               = 410 // a card rule of contract §4.6 is broken
	CodeIdentifierMismatch     = 411 // identifiers in a save disagree
	CodeRequestTooLarge        = 413
	CodePermissionDenied       = 600
	CodeRecordNotFound         = 601
	CodeConcurrencyConflict    = 602
	CodeInternal               = 900
)

// Methods name the operation in error bodies, as the reference does.
const (
	MethodLogin         = "login"
	MethodIdentityToken = "identityToken"
	MethodParam         = "Param"
	MethodPerson        = "person"
	MethodPersonSearch  = "personSearch"
	MethodRequest       = "request"
)

// Error is an error a client is meant to see: its Code and Message go out as
// resultCode and resultDescription, its Kind picks the HTTP status.
type Error struct {
	Kind    Kind
	Code    int
	Method  string
	Message string
	// RetryAfter, when positive, is when the client may try again
	// (KindThrottled: the Retry-After header).
	RetryAfter time.Duration
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %d %s", e.Method, e.Code, e.Message) }

// Errorf builds an *Error with a formatted message.
func Errorf(kind Kind, code int, method, format string, args ...any) *Error {
	return &Error{Kind: kind, Code: code, Method: method, Message: fmt.Sprintf(format, args...)}
}

// AsError returns the *Error inside err, or nil.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// ErrNotFound is what stores return for a missing row; services translate it.
var ErrNotFound = errors.New("not found")
