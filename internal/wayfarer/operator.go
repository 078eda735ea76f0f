package wayfarer

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// HostAgencyID stands for the host where an agency ID is expected: the
// admin domain of operator sessions, and the failed-login counters of
// operator names (login_attempt), which belong to no agency.
const HostAgencyID = 0

// Operator is a host operator (docs/operators.md): an identity of the host,
// in no agency, who logs in to the admin domain (GET /login/:) or to an
// agency it was granted (GET /login/{alias}:).
type Operator struct {
	ID           int64
	Name         string
	PasswordHash string
	Enabled      bool
	CreatedAt    time.Time
	Grants       []OperatorGrant // ListOperators fills it, by alias
}

// OperatorGrant is what an operator may do in one agency: one bit set per
// area, as an app user's permissions.
type OperatorGrant struct {
	AgencyID int64
	Alias    string
	Perms    Permissions
}

// AuditEntry is one row of the operators' audit: who did what, where, to
// what. Never a password, token or card number.
type AuditEntry struct {
	At           time.Time
	OperatorID   int64
	OperatorName string
	AgencyID     int64 // 0: the admin domain (or the command line), no agency
	Action       string
	Target       string
	Detail       string
}

// OperatorStore is what operators need from storage. Changes to who an
// operator is or may do (password, enabled, grants) end every session of
// the operator in the same transaction, on every instance (a Revocation
// with OperatorID).
type OperatorStore interface {
	CreateOperator(ctx context.Context, name, hash string, at time.Time) (int64, error)
	// OperatorByName finds an operator case-insensitively; ErrNotFound.
	OperatorByName(ctx context.Context, name string) (*Operator, error)
	ListOperators(ctx context.Context) ([]Operator, error)
	SetOperatorEnabled(ctx context.Context, operatorID int64, enabled bool) error
	SetOperatorPassword(ctx context.Context, operatorID int64, hash string) error
	// SetOperatorGrant replaces the bits of the areas in set in one
	// agency, keeping the other areas'; an area set to none is removed.
	SetOperatorGrant(ctx context.Context, operatorID, agencyID int64, set map[Area]Permission) error
	RevokeOperatorGrant(ctx context.Context, operatorID, agencyID int64) error
	// OperatorGrant answers the operator's bits in an agency; ok is false
	// when it holds none there.
	OperatorGrant(ctx context.Context, operatorID, agencyID int64) (_ Permissions, ok bool, _ error)
	CreateOperatorToken(ctx context.Context, agencyID, operatorID int64, createdAt, expiresAt time.Time) (int64, error)
	// OperatorSessionByToken loads the live session of an operator's
	// token: ErrNotFound when the token is gone or expired, the operator
	// disabled, or (in an agency) the agency inactive.
	OperatorSessionByToken(ctx context.Context, agencyID, tokenID, operatorID int64, now time.Time) (*Session, error)
	RecordOperatorAction(ctx context.Context, e AuditEntry) error
	// OperatorAudit lists the newest audit rows, newest first.
	OperatorAudit(ctx context.Context, limit int) ([]AuditEntry, error)
}

// OperatorService creates and changes operators (wayfarer admin operator)
// and records what operators do.
type OperatorService struct {
	Store  OperatorStore
	Auth   AuthStore // agencies by alias
	Hasher PasswordHasher
	Clock  Clock
}

// cliActor is the detail of audit rows written by wayfarer admin.
const cliActor = "by wayfarer admin"

// Create creates an enabled operator with a password.
func (s *OperatorService) Create(ctx context.Context, name, password string) (int64, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > MaxUserNameLength {
		return 0, adminInvalid("operator name must be 1 to %d characters", MaxUserNameLength)
	}
	if ContainsCardNumber(name) {
		return 0, adminInvalid("operator name: looks like a card number")
	}
	if _, err := s.Store.OperatorByName(ctx, name); err == nil {
		return 0, adminInvalid("operator %q already exists", name)
	} else if !errors.Is(err, ErrNotFound) {
		return 0, err
	}
	if err := CheckPassword(password); err != nil {
		return 0, err
	}
	h, err := s.Hasher.Hash(password)
	if err != nil {
		return 0, err
	}
	id, err := s.Store.CreateOperator(ctx, name, h, s.Clock.Now())
	if err != nil {
		return 0, err
	}
	return id, s.record(ctx, AuditEntry{OperatorID: id, OperatorName: name, Action: "operator.create", Detail: cliActor})
}

// Operator finds an operator by name with a readable error.
func (s *OperatorService) Operator(ctx context.Context, name string) (*Operator, error) {
	o, err := s.Store.OperatorByName(ctx, name)
	if errors.Is(err, ErrNotFound) {
		return nil, adminNotFound("no operator %q", name)
	}
	return o, err
}

// SetEnabled enables or disables an operator; its sessions end.
func (s *OperatorService) SetEnabled(ctx context.Context, o *Operator, enabled bool) error {
	if err := s.Store.SetOperatorEnabled(ctx, o.ID, enabled); err != nil {
		return err
	}
	action := "operator.disable"
	if enabled {
		action = "operator.enable"
	}
	return s.record(ctx, AuditEntry{OperatorID: o.ID, OperatorName: o.Name, Action: action, Detail: cliActor})
}

// SetPassword replaces an operator's password; its sessions end.
func (s *OperatorService) SetPassword(ctx context.Context, o *Operator, password string) error {
	if err := CheckPassword(password); err != nil {
		return err
	}
	h, err := s.Hasher.Hash(password)
	if err != nil {
		return err
	}
	if err := s.Store.SetOperatorPassword(ctx, o.ID, h); err != nil {
		return err
	}
	return s.record(ctx, AuditEntry{OperatorID: o.ID, OperatorName: o.Name, Action: "operator.set-password", Detail: cliActor})
}

// Grant gives an operator the bits of set in an agency (the other areas
// keep theirs); its sessions end.
func (s *OperatorService) Grant(ctx context.Context, o *Operator, alias string, set map[Area]Permission) error {
	if len(set) == 0 {
		return adminInvalid("no permission area given")
	}
	a, err := s.agency(ctx, alias)
	if err != nil {
		return err
	}
	if err := s.Store.SetOperatorGrant(ctx, o.ID, a.ID, set); err != nil {
		return err
	}
	return s.record(ctx, AuditEntry{OperatorID: o.ID, OperatorName: o.Name, AgencyID: a.ID, Action: "operator.grant",
		Target: a.Alias, Detail: describeAreas(set) + " " + cliActor})
}

// Revoke takes every right of an operator in an agency away; its sessions end.
func (s *OperatorService) Revoke(ctx context.Context, o *Operator, alias string) error {
	a, err := s.agency(ctx, alias)
	if err != nil {
		return err
	}
	if err := s.Store.RevokeOperatorGrant(ctx, o.ID, a.ID); err != nil {
		return err
	}
	return s.record(ctx, AuditEntry{OperatorID: o.ID, OperatorName: o.Name, AgencyID: a.ID, Action: "operator.revoke",
		Target: a.Alias, Detail: cliActor})
}

func (s *OperatorService) agency(ctx context.Context, alias string) (*Agency, error) {
	a, err := s.Auth.AgencyByAlias(ctx, alias)
	if errors.Is(err, ErrNotFound) {
		return nil, adminNotFound("no agency with alias %q", alias)
	}
	return a, err
}

// Record writes one audit row for an operator's session: its operator,
// its agency (none in the admin domain).
func (s *OperatorService) Record(ctx context.Context, sess *Session, action, target, detail string) error {
	return s.record(ctx, AuditEntry{OperatorID: sess.OperatorID, OperatorName: sess.UserName, AgencyID: sess.AgencyID,
		Action: action, Target: target, Detail: detail})
}

func (s *OperatorService) record(ctx context.Context, e AuditEntry) error {
	e.At = s.Clock.Now()
	// Targets and details come from paths and names a client chose: the
	// card-number guard of every free text applies.
	for _, t := range []*string{&e.Target, &e.Detail} {
		if ContainsCardNumber(*t) {
			*t = "(withheld: looks like a card number)"
		}
	}
	return s.Store.RecordOperatorAction(ctx, e)
}

// describeAreas lists areas and bits as the CLI spells them, in table order.
func describeAreas(set map[Area]Permission) string {
	var parts []string
	for a, p := range set {
		parts = append(parts, fmt.Sprintf("%s=%s", a.CLIName(), p))
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}
