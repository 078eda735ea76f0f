package wayfarer

import (
	"github.com/wayfarerhq/wayfarer/client/contract"

	"fmt"
	"time"
)

// QueryTimeoutError is the answer when the database work of a request ran
// past the query time limit (--query-timeout): 503, resultCode 420. The
// store stopped the work and rolled it back; services reword the message
// for what was cut off (SearchTimeoutError, a save).
func QueryTimeoutError(limit time.Duration) *Error {
	return &Error{Kind: KindUnavailable, Code: contract.CodeQueryTimeout, limit: limit,
		Message: fmt.Sprintf("The database took longer than the %s limit to answer; try again", limit)}
}

// QueryTimeoutOf reports whether err is a QueryTimeoutError, and its limit.
func QueryTimeoutOf(err error) (time.Duration, bool) {
	if e := AsError(err); e != nil && e.Code == contract.CodeQueryTimeout {
		return e.limit, true
	}
	return 0, false
}

// rewordTimeout returns err, or when it is a query timeout, the same
// answer with the message for what was cut off: format takes the limit.
func rewordTimeout(err error, method, format string) error {
	limit, ok := QueryTimeoutOf(err)
	if !ok {
		return err
	}
	e := QueryTimeoutError(limit)
	e.Method = method
	e.Message = fmt.Sprintf(format, limit)
	return e
}
