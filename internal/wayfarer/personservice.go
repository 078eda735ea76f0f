package wayfarer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// PersonStore keeps persons. Every method works inside one agency
// (scope.AgencyID) and treats a person outside scope exactly like a missing
// one: ErrNotFound.
type PersonStore interface {
	// LoadPerson returns the person with every child table and lookup
	// (branchName, advisorName, tag names, appUserId; age is the service's),
	// credit/debit numbers masked with Card.Sealed filled.
	LoadPerson(ctx context.Context, scope Scope, recNo int64) (*Person, error)

	// CreatePerson inserts the person and all its children in one
	// transaction and returns the new recNo.
	CreatePerson(ctx context.Context, scope Scope, w *PersonWrite) (int64, error)

	// UpdatePerson opens one transaction, loads the current person with a
	// row lock (as LoadPerson shows it; without children, its child lists
	// empty, when children is false), calls fn, applies what fn returns
	// and commits. Any error, from fn or the store, rolls everything back;
	// so does a write of child rows when children is false.
	UpdatePerson(ctx context.Context, scope Scope, recNo int64, children bool, fn func(current *Person) (*PersonWrite, error)) error

	// UpdatePersonRow writes w, changes of the person's own fields, to its
	// row in one transaction if the row is in scope and holds what expect
	// says (person_rowsave.go); false: nothing was written, because it
	// does not or because the store cannot apply w as one write.
	UpdatePersonRow(ctx context.Context, scope Scope, recNo int64, expect RowExpect, w *PersonWrite) (bool, error)

	// RecordCardDecrypts writes one audit row per card shown unmasked.
	RecordCardDecrypts(ctx context.Context, a CardDecryptAudit) error

	// LoadAttachmentFile returns the bytes of a file attachment of a person
	// in scope, with the attachment's name; ErrNotFound for a person out of
	// scope, an attachment that is not the person's, or a link.
	LoadAttachmentFile(ctx context.Context, scope Scope, personRecNo, attachmentRecNo int64) (*AttachmentFile, error)
}

// PersonWrite is what a store applies. Besides the changes, the store
// checks that the records they refer to (branch, advisor profile, tag,
// marketing element, affiliation, app users) exist in the agency, answering
// a 407 *Error naming the field otherwise; it sets createDateTime and
// lastModifiedDateTime from Now (attachments' createDateTime too), moves
// the person's Version on (every write of the person or of a child row,
// including a shared card, gives every person holding it a new Version)
// and recomputes action item dates (see ActionItemDate).
type PersonWrite struct {
	Changes *PersonChanges
	Now     time.Time
	UserID  int64 // the app user saving
}

// PersonService loads, creates and updates persons under the caller's
// permissions and scope.
type PersonService struct {
	Store       PersonStore
	Sealer      CardSealer
	Clock       Clock
	Log         *slog.Logger     // card vault failures; nil: slog.Default()
	Attachments AttachmentLimits // zero: the defaults
}

// PersonNotFoundError is the single answer for a person that does not exist,
// belongs to another agency or lies outside the caller's scope.
func PersonNotFoundError() *Error {
	return Errorf(KindNotFound, contract.CodeRecordNotFound, MethodPerson, "Person not found")
}

func (s *PersonService) now() time.Time {
	if s.Clock == nil {
		return time.Now()
	}
	return s.Clock.Now()
}

// Load returns one person. With decrypt, credit/debit numbers are shown in
// clear (Decrypt permission) and every card so shown is audited.
func (s *PersonService) Load(ctx context.Context, sess *Session, recNo int64, decrypt bool) (*Person, error) {
	if err := sess.Require(AreaPerson, PermRead, MethodPerson); err != nil {
		return nil, err
	}
	if decrypt {
		if err := sess.Require(AreaPerson, PermDecrypt, MethodPerson); err != nil {
			return nil, err
		}
	}
	p, err := s.load(ctx, sess, recNo)
	if err != nil {
		return nil, err
	}
	if !decrypt {
		return p, nil
	}
	var ids []int64
	for _, l := range p.PersonCardLink {
		c := l.Card
		if c == nil || c.Sealed == nil || !c.Type.Valid || c.Type.Value != CardTypeCreditDebit {
			continue
		}
		digits, err := s.open(sess.AgencyID, c.RecNo.Value, c.Sealed)
		if err != nil {
			return nil, err
		}
		c.CardNumber = Some(digits)
		ids = append(ids, c.RecNo.Value)
	}
	if len(ids) > 0 {
		a := CardDecryptAudit{AgencyID: sess.AgencyID, UserID: sess.UserID, PersonID: recNo, CardIDs: ids, At: s.now()}
		if err := s.Store.RecordCardDecrypts(ctx, a); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func (s *PersonService) load(ctx context.Context, sess *Session, recNo int64) (*Person, error) {
	if recNo <= 0 {
		return nil, PersonNotFoundError()
	}
	p, err := s.Store.LoadPerson(ctx, sess.Scope(AreaPerson), recNo)
	if errors.Is(err, ErrNotFound) {
		return nil, PersonNotFoundError()
	}
	if err != nil {
		return nil, rewordTimeout(err, MethodPerson, "Loading the person took longer than the %s limit; try again")
	}
	if age, ok := AgeOn(p.BirthdayYear, p.BirthdayMonth, p.BirthdayDay, DateOf(s.now().UTC())); ok {
		p.Age = Some(age)
	} else {
		p.Age = Null[int]()
	}
	// cvvCode is never stored; a loaded card shows it null, as the
	// reference does, so strict clients see the reference's members.
	for _, l := range p.PersonCardLink {
		if l.Card != nil {
			l.Card.CVVCode = Null[string]()
		}
	}
	return p, nil
}

// Save creates (old nil) or updates a person and returns its recNo.
func (s *PersonService) Save(ctx context.Context, sess *Session, old, new *Person) (int64, error) {
	return s.SaveIf(ctx, sess, old, new, nil)
}

// SaveIf is Save under a precondition (nil: none). A create with one is
// refused: no version of a person that does not exist can match.
func (s *PersonService) SaveIf(ctx context.Context, sess *Session, old, new *Person, pre *Precondition) (int64, error) {
	if old == nil {
		if pre != nil {
			if err := sess.Require(AreaPerson, PermInsert, MethodPerson); err != nil {
				return 0, err
			}
			return 0, PreconditionFailedError()
		}
		return s.Create(ctx, sess, new)
	}
	return s.update(ctx, sess, old, new, pre)
}

// SaveAndLoad saves and returns the person as Load shows it. Read is
// checked before anything is written.
func (s *PersonService) SaveAndLoad(ctx context.Context, sess *Session, old, new *Person) (*Person, error) {
	return s.SaveAndLoadIf(ctx, sess, old, new, nil)
}

// SaveAndLoadIf is SaveAndLoad under a precondition (nil: none).
func (s *PersonService) SaveAndLoadIf(ctx context.Context, sess *Session, old, new *Person, pre *Precondition) (*Person, error) {
	if err := sess.Require(AreaPerson, PermRead, MethodPerson); err != nil {
		return nil, err
	}
	recNo, err := s.SaveIf(ctx, sess, old, new, pre)
	if err != nil {
		return nil, err
	}
	p, err := s.load(ctx, sess, recNo)
	if limit, ok := QueryTimeoutOf(err); ok {
		// Saved all the same: sending the save again would create the
		// person twice, or be refused as stale.
		e := QueryTimeoutError(limit)
		e.Method = MethodPerson
		e.Message = fmt.Sprintf("The person was saved (recNo %d), but loading it back took longer than the %s limit; load it with GET /person/%d",
			recNo, limit, recNo)
		return nil, e
	}
	return p, err
}

// Create inserts a new person with its children. Where the caller is bound
// to a branch or to advisors, an absent branch_recNo or advisorProfile_recNo
// defaults to the caller's own (the only advisor, when there is one); a
// person that would lie outside the caller's scope is refused (403).
func (s *PersonService) Create(ctx context.Context, sess *Session, p *Person) (int64, error) {
	if err := sess.Require(AreaPerson, PermInsert, MethodPerson); err != nil {
		return 0, err
	}
	if p == nil {
		return 0, invalidValue("the person to save is missing")
	}
	if err := ValidatePerson(p, true); err != nil {
		return 0, err
	}
	n := clonePerson(p)
	ignoreCompletedBy(n)
	scope := sess.Scope(AreaPerson)
	if !n.BranchRecNo.Present && scope.OnlyBranch && scope.BranchID != nil {
		n.BranchRecNo = Some(*scope.BranchID)
	}
	if !n.AdvisorProfileRecNo.Present && scope.OnlySelf && len(scope.AdvisorIDs) == 1 {
		n.AdvisorProfileRecNo = Some(scope.AdvisorIDs[0])
	}
	if !scope.Allows(n.BranchRecNo.Ptr(), n.AdvisorProfileRecNo.Ptr()) {
		return 0, outOfScope("a person outside your branch or advisors cannot be created")
	}
	ch, err := DiffPerson(nil, n)
	if err != nil {
		return 0, err
	}
	if err := applyAttachmentRules(ch, nil, s.Attachments); err != nil {
		return 0, err
	}
	StampCompletedBy(ch, nil, sess.UserID)
	if err := s.seal(sess.AgencyID, ch); err != nil {
		return 0, err
	}
	recNo, err := s.Store.CreatePerson(ctx, scope, &PersonWrite{Changes: ch, Now: s.now(), UserID: sess.UserID})
	return recNo, saveTimeout(err)
}

// saveTimeout rewords a query timeout for a save: the store rolled it
// back, so the client may send it again as it was.
func saveTimeout(err error) error {
	return rewordTimeout(err, MethodPerson, "Saving the person took longer than the %s limit; nothing was saved, try again")
}

// Update applies the difference between old (the person as the client
// loaded it) and new, in one transaction, refusing a stale save (409).
func (s *PersonService) Update(ctx context.Context, sess *Session, old, new *Person) (int64, error) {
	return s.update(ctx, sess, old, new, nil)
}

// update is Update; a precondition that does not hold for the stored
// person (checked under the save's lock) refuses it with 412.
func (s *PersonService) update(ctx context.Context, sess *Session, old, new *Person, pre *Precondition) (int64, error) {
	if err := sess.Require(AreaPerson, PermUpdate, MethodPerson); err != nil {
		return 0, err
	}
	if old == nil || new == nil {
		return 0, invalidValue("an update needs oldData and newData")
	}
	if err := ValidatePerson(new, false); err != nil {
		return 0, err
	}
	for _, l := range old.PersonCardLink {
		if l.Card != nil && l.Card.CVVCode.Valid && l.Card.CVVCode.Value != "" {
			return 0, cardRuleError("cvvCode must not be sent: it is never stored (oldData personCardLink)")
		}
	}
	if !old.RecNo.Valid {
		return 0, mismatch("oldData recNo is required")
	}
	recNo := old.RecNo.Value
	if recNo <= 0 {
		return 0, PersonNotFoundError()
	}
	scope := sess.Scope(AreaPerson)
	// A save whose own diff changes no child row decides on the person's
	// row alone: every check of the stored children (CheckStale, the card
	// and attachment rules, StampCompletedBy) looks only at the child rows
	// a save changes, and what the whole way does to the sides first
	// (ignoreCompletedBy, fillOldCardTypes, reconcileClearNumbers) never
	// adds a child change to a diff without one (TestSaveOfPersonFieldsOnly).
	// The store refuses a child write it was not given to read.
	diff, err := DiffPerson(old, new)
	children := err != nil || !diff.PersonOnly() // an error: the whole way answers it
	if !children {
		done, err := s.updateRow(ctx, sess, scope, recNo, diff, pre)
		if err != nil {
			return 0, saveTimeout(err)
		}
		if done {
			return recNo, nil
		}
	}
	err = s.Store.UpdatePerson(ctx, scope, recNo, children, func(current *Person) (*PersonWrite, error) {
		if !pre.holds(current) {
			return nil, PreconditionFailedError()
		}
		// Work on copies: nothing of the caller's records is changed.
		o, n := clonePerson(old), clonePerson(new)
		ignoreCompletedBy(o)
		ignoreCompletedBy(n)
		fillOldCardTypes(o, current)
		// Only a caller who may see clear numbers can have loaded them. For
		// anyone else a clear number is a new number (new token), even when
		// it equals the stored one: otherwise an unchanged token would
		// confirm a guessed card number.
		if sess.Can(AreaPerson, PermDecrypt) {
			if err := s.reconcileClearNumbers(sess.AgencyID, o, n, current); err != nil {
				return nil, err
			}
		}
		ch, err := DiffPerson(o, n)
		if err != nil {
			return nil, err
		}
		if err := CheckStale(current, o, ch); err != nil {
			return nil, err
		}
		if err := applyAttachmentRules(ch, current, s.Attachments); err != nil {
			return nil, err
		}
		branch, advisor := current.BranchRecNo, current.AdvisorProfileRecNo
		if hasField(ch.Fields, "branch_recNo") {
			branch = n.BranchRecNo
		}
		if hasField(ch.Fields, "advisorProfile_recNo") {
			advisor = n.AdvisorProfileRecNo
		}
		if !scope.Allows(branch.Ptr(), advisor.Ptr()) {
			return nil, outOfScope("the change would move the person outside your branch or advisors")
		}
		StampCompletedBy(ch, current, sess.UserID)
		if err := s.seal(sess.AgencyID, ch); err != nil {
			return nil, err
		}
		return &PersonWrite{Changes: ch, Now: s.now(), UserID: sess.UserID}, nil
	})
	if errors.Is(err, ErrNotFound) {
		return 0, PersonNotFoundError()
	}
	if err != nil {
		return 0, saveTimeout(err)
	}
	return recNo, nil
}

func outOfScope(msg string) *Error {
	return Errorf(KindForbidden, contract.CodePermissionDenied, MethodPerson, "Permission denied: %s", msg)
}

func (s *PersonService) logger() *slog.Logger {
	if s.Log == nil {
		return slog.Default()
	}
	return s.Log
}
