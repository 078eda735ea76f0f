package wayfarer

import (
	"errors"
	"time"
)

// LoginAttemptKey names the failed-login counters one attempt touches:
// those of the user name from the client's address, and those of the user
// name from all addresses together. The name is counted whether or not it
// names a user, so a lockout never tells which names exist.
type LoginAttemptKey struct {
	AgencyID int64
	NameKey  string // NormalizeUserName
	Client   string // ClientKey
}

// LoginCounter is the failed-login state of a user name, from one address
// or from all addresses together.
type LoginCounter struct {
	// Failures: from one address, the attempts since the last success or
	// lockout; from all addresses, the attempts of the current window.
	// Attempts are counted before their password is checked and taken
	// back when it was right.
	Failures    int
	WindowStart time.Time // all addresses: when the current window began
	LockedUntil time.Time // zero: not locked
	LastAttempt time.Time
}

func (c *LoginCounter) lockedAt(now time.Time) bool { return now.Before(c.LockedUntil) }

// LockoutPolicy holds the lockout numbers (docs/security.md, "Logins and
// lockout").
type LockoutPolicy struct {
	// MaxFailures from one address lock the name for that address (0: never).
	MaxFailures int
	// MaxUserFailures from all addresses within one Lockout-long window
	// lock the name for every address (0: never).
	MaxUserFailures int
	Lockout         time.Duration
}

// errLockedOut is what the counting step answers for a locked name.
var errLockedOut = errors.New("locked out")

// Attempt counts one login attempt before its password is checked: it
// answers errLockedOut, changing nothing, while the name is locked for the
// address or for everybody; otherwise it counts the attempt on both
// counters, locking a counter that reaches its maximum. The attempt that
// reaches a maximum is still checked: a right password takes it back.
func (p LockoutPolicy) Attempt(all, addr *LoginCounter, now time.Time) error {
	if all.lockedAt(now) || addr.lockedAt(now) {
		return errLockedOut
	}
	if all.WindowStart.IsZero() || !now.Before(all.WindowStart.Add(p.Lockout)) {
		all.Failures, all.WindowStart, all.LockedUntil = 0, now, time.Time{}
	}
	all.Failures++
	if p.MaxUserFailures > 0 && all.Failures >= p.MaxUserFailures {
		all.LockedUntil = now.Add(p.Lockout)
	}
	if !addr.LockedUntil.IsZero() { // a lockout that ended: count afresh
		addr.Failures, addr.LockedUntil = 0, time.Time{}
	}
	addr.Failures++
	if p.MaxFailures > 0 && addr.Failures >= p.MaxFailures {
		addr.LockedUntil = now.Add(p.Lockout)
	}
	all.LastAttempt, addr.LastAttempt = now, now
	return nil
}

// Succeeded takes back the attempt of a right password: the address's
// count starts over (and a lock this attempt set ends), and the attempt
// leaves the count of all addresses.
func (p LockoutPolicy) Succeeded(all, addr *LoginCounter) {
	addr.Failures, addr.LockedUntil = 0, time.Time{}
	all.Failures = max(all.Failures-1, 0)
	if !all.LockedUntil.IsZero() && (p.MaxUserFailures <= 0 || all.Failures < p.MaxUserFailures) {
		all.LockedUntil = time.Time{}
	}
}
