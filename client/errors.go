package client

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// Error is an answer of the server other than success.
type Error struct {
	Status      int    // HTTP status
	ResultCode  int    // the body's resultCode; 0 when the body had none
	Description string // the body's resultDescription, or the status text
	Method      string // the body's method: "login", "identityToken", "person", ...
}

func (e *Error) Error() string {
	if e.Method != "" {
		return fmt.Sprintf("wayfarer %s: %d %s (resultCode %d)", e.Method, e.Status, e.Description, e.ResultCode)
	}
	return fmt.Sprintf("wayfarer: %d %s (resultCode %d)", e.Status, e.Description, e.ResultCode)
}

// Result codes a caller may want to act on (the full table is
// contract's and the server's docs/api.md).
const (
	CodeInvalidClientVersion = contract.CodeInvalidClientVersion
	CodeInvalidCredentials   = contract.CodeInvalidCredentials
	CodePasswordExpired      = contract.CodePasswordExpired
	CodeUserLocked           = contract.CodeUserLocked
	CodeUserDisabled         = contract.CodeUserDisabled
	CodeInvalidAlias         = contract.CodeInvalidAlias
	CodeTokenInvalid         = contract.CodeTokenInvalid
	CodeTokenExpired         = contract.CodeTokenExpired
	CodeTokenMissing         = contract.CodeTokenMissing
	CodeTokenNotInStore      = contract.CodeTokenNotInStore
	CodeMissingParameter     = contract.CodeMissingParameter
	CodeInvalidColumn        = contract.CodeInvalidColumn
	CodeDeserialization      = contract.CodeDeserialization
	CodeInvalidValue         = contract.CodeInvalidValue
	CodeNotSupported         = contract.CodeNotSupported
	CodeCardRule             = contract.CodeCardRule
	CodeIdentifierMismatch   = contract.CodeIdentifierMismatch
	CodePermissionDenied     = contract.CodePermissionDenied
	CodeRecordNotFound       = contract.CodeRecordNotFound
	CodeConcurrencyConflict  = contract.CodeConcurrencyConflict
	CodePreconditionFailed   = contract.CodePreconditionFailed
)

// Errors the client returns before sending anything. They are wrapped with
// details; test with errors.Is.
var (
	// ErrServerTooOld: the server's contract predates 1.8.2, so person
	// payloads with personCardLink must not be sent to it.
	ErrServerTooOld = errors.New("server contract is older than 1.8.2")
	// ErrMaskedNumber: a masked card number was about to be sent as a new
	// or changed number.
	ErrMaskedNumber = errors.New("a masked card number cannot be saved as a card number")
	// ErrIdentifierMismatch: identifiers of a person or card disagree, or an
	// existing card is not one the person was loaded with.
	ErrIdentifierMismatch = errors.New("card or person identifiers disagree")
	// ErrCardRule: another card rule of contract §4.6 would be broken.
	ErrCardRule = errors.New("card rule broken")
	// ErrNotLoggedIn: a call needs a token and the client has neither a
	// token nor credentials to log in with.
	ErrNotLoggedIn = errors.New("not logged in")
	// ErrNotFound: no such person (or branch) within the caller's reach (the server
	// answered 204: it does not exist, or lies outside the caller's scope).
	ErrNotFound = errors.New("no such person within your reach")
)

func asError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// ResultCode returns the server's resultCode in err, or -1 when err is not
// an answer of the server.
func ResultCode(err error) int {
	if e := asError(err); e != nil {
		return e.ResultCode
	}
	return -1
}

// IsConflict reports a save refused because the person changed since it was
// loaded (409, 602; or 412 when the save named a version with If-Match):
// reload and apply the change again.
func IsConflict(err error) bool {
	e := asError(err)
	return e != nil && (e.Status == http.StatusConflict || e.ResultCode == CodeConcurrencyConflict ||
		e.Status == http.StatusPreconditionFailed)
}

// IsNotFound reports a person that does not exist or is outside the
// caller's reach: a load answered 204 (ErrNotFound), or a save 404/601.
func IsNotFound(err error) bool {
	if errors.Is(err, ErrNotFound) {
		return true
	}
	e := asError(err)
	return e != nil && (e.Status == http.StatusNotFound || e.ResultCode == CodeRecordNotFound)
}

// IsForbidden reports a missing permission (403).
func IsForbidden(err error) bool {
	e := asError(err)
	return e != nil && e.Status == http.StatusForbidden
}

// IsUnauthorized reports a failed login or a token the server refused (401).
func IsUnauthorized(err error) bool {
	e := asError(err)
	return e != nil && e.Status == http.StatusUnauthorized
}

// IsInvalid reports a request the server refused as malformed or breaking a
// rule (400); the description names the field.
func IsInvalid(err error) bool {
	e := asError(err)
	return e != nil && e.Status == http.StatusBadRequest
}

// IsSessionEnded reports a token that expired (301) or that the server no
// longer holds (305, e.g. after a logout): log in again.
func IsSessionEnded(err error) bool {
	e := asError(err)
	return e != nil && e.Status == http.StatusUnauthorized &&
		(e.ResultCode == CodeTokenExpired || e.ResultCode == CodeTokenNotInStore)
}
