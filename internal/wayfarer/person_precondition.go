package wayfarer

import (
	"fmt"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// Optimistic concurrency over HTTP: a load names the stored version of the
// person (an ETag), a save may require it (If-Match). The old/new
// comparison (CheckStale) applies besides.

// VersionTag names the stored version of a loaded person (an HTTP ETag's
// value): its recNo and Version. It changes with every save that writes
// the person or one of its child rows; lookups (branchName, advisorName,
// tag names, app user ids) and age are not part of it.
func (p *Person) VersionTag() string { return fmt.Sprintf("%d-%d", p.RecNo.Value, p.Version) }

// Precondition is what a save requires of the stored person beyond the
// old/new comparison (HTTP If-Match): its VersionTag is one of VersionTags.
// A nil *Precondition requires nothing; one without tags matches nothing.
type Precondition struct {
	VersionTags []string
}

func (pc *Precondition) holds(p *Person) bool {
	if pc == nil {
		return true
	}
	if p == nil {
		return false
	}
	tag := p.VersionTag()
	for _, t := range pc.VersionTags {
		if t == tag {
			return true
		}
	}
	return false
}

// PreconditionFailedError is the answer to a save whose precondition does
// not hold: nothing was written.
func PreconditionFailedError() *Error {
	return Errorf(KindPreconditionFailed, contract.CodePreconditionFailed, MethodPerson,
		"the person is no longer the version If-Match names; nothing was saved: reload it and apply your change again")
}
