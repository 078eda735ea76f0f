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
	KindUnavailable              // 503: the database did not answer within the query time limit
	KindThrottled                // 429: not now; try again after Error.RetryAfter
)

// KindPreconditionFailed is 412: the stored person is not the version the
// client named (If-Match).
const KindPreconditionFailed = KindThrottled + 1

// Methods name the operation in error bodies, as the reference does.
const (
	MethodLogin         = "login"
	MethodIdentityToken = "identityToken"
	MethodParam         = "Param"
	MethodPerson        = "person"
	MethodPersonSearch  = "personSearch"
	MethodRequest       = "request"
	MethodBranch        = "branch"
	MethodBranchSearch  = "branchSearch"
	MethodProfileSearch = "profileSearch"
	MethodAppUserSearch = "appUserSearch"
	MethodAdmin         = "admin" // agency and user administration (CLI, operators' admin API)
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

	limit time.Duration // the time limit a contract.CodeQueryTimeout answer ran past
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %d %s", e.Method, e.Code, e.Message) }

// Errorf builds an *Error with a formatted message. An argument that looks
// like a card number (ContainsCardNumber: a client's identifier or value,
// or a message built from one) is withheld: error texts never hold one.
func Errorf(kind Kind, code int, method, format string, args ...any) *Error {
	shown := args
	for i, a := range args {
		if ContainsCardNumber(fmt.Sprint(a)) {
			if &shown[0] == &args[0] {
				shown = append([]any(nil), args...)
			}
			shown[i] = withheldCardNumber
		}
	}
	return &Error{Kind: kind, Code: code, Method: method, Message: fmt.Sprintf(format, shown...)}
}

// withheldCardNumber stands in error texts for what looks like a card
// number, whatever the verb (%s, %d, %v).
var withheldCardNumber withheld

type withheld struct{}

func (withheld) Format(f fmt.State, _ rune) { f.Write([]byte("(withheld: looks like a card number)")) }

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
