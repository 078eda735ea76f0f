package wayfarer

import (
	"context"
	"fmt"
	"strings"
)

// OperatorAdmin is the admin domain over the API: what an operator logged
// in with GET /login/: may do to every agency of the host. Each call runs
// the rules of AdminService (the same as wayfarer admin's) and records
// itself in the operators' audit with the operator's name.
type OperatorAdmin struct {
	Admin     *AdminService
	Operators *OperatorService
}

// NewUserRequest is a user an operator creates in an agency.
type NewUserRequest struct {
	UserName            string
	Password            string // never logged, never recorded
	Type                UserType
	Branch              string // a branch name; "" for none
	Perms               Permissions
	Disabled            bool
	NonExpiringPassword bool
}

// Check answers what every admin call answers a session outside the
// admin domain (403/600), for callers that refuse before the call.
func (s *OperatorAdmin) Check(sess *Session) error { return s.begin(sess) }

func (s *OperatorAdmin) begin(sess *Session) error {
	if sess == nil || !sess.IsAdminDomain() {
		return errNotAdminDomain()
	}
	return nil
}

// Agencies lists every agency of the host.
func (s *OperatorAdmin) Agencies(ctx context.Context, sess *Session) ([]Agency, error) {
	if err := s.begin(sess); err != nil {
		return nil, err
	}
	list, err := s.Admin.Store.ListAgencies(ctx)
	if err != nil {
		return nil, err
	}
	return list, s.Operators.Record(ctx, sess, "agency.list", "", "")
}

// SetAgencyStatus enables (status active) or disables an agency; leaving
// the active state ends its sessions.
func (s *OperatorAdmin) SetAgencyStatus(ctx context.Context, sess *Session, alias string, st AgencyStatus) error {
	if err := s.begin(sess); err != nil {
		return err
	}
	a, err := s.Admin.Agency(ctx, alias)
	if err != nil {
		return err
	}
	if err := s.record(ctx, sess, a, "agency.status", a.Alias, st.String()); err != nil {
		return err
	}
	return s.Admin.SetAgencyStatus(ctx, a, st)
}

// Users lists an agency's users.
func (s *OperatorAdmin) Users(ctx context.Context, sess *Session, alias string) ([]User, error) {
	if err := s.begin(sess); err != nil {
		return nil, err
	}
	a, err := s.Admin.Agency(ctx, alias)
	if err != nil {
		return nil, err
	}
	users, err := s.Admin.Store.ListUsers(ctx, a.ID, s.Admin.Clock.Now())
	if err != nil {
		return nil, err
	}
	return users, s.record(ctx, sess, a, "user.list", a.Alias, "")
}

// CreateUser creates a user in an agency, with its password when one is
// given (else no login succeeds until one is set).
func (s *OperatorAdmin) CreateUser(ctx context.Context, sess *Session, alias string, req NewUserRequest) (int64, error) {
	if err := s.begin(sess); err != nil {
		return 0, err
	}
	a, err := s.Admin.Agency(ctx, alias)
	if err != nil {
		return 0, err
	}
	if ContainsCardNumber(req.UserName) || ContainsCardNumber(req.Branch) {
		return 0, adminInvalid("userName and branch must not hold what looks like a card number")
	}
	if req.Type == 0 {
		req.Type = UserTypeUser
	}
	if req.Type < UserTypeUser || req.Type > UserTypeAdmin {
		return 0, adminInvalid("type: %d is not a user type (1 user, 2 manager, 3 admin)", int(req.Type))
	}
	nu := NewUser{AgencyID: a.ID, UserName: req.UserName, Type: req.Type, Perms: req.Perms,
		Enabled: !req.Disabled, NonExpiringPassword: req.NonExpiringPassword}
	if b := strings.TrimSpace(req.Branch); b != "" {
		id, err := s.Admin.Store.BranchByName(ctx, a.ID, b)
		if err != nil {
			return 0, errNotFoundAsAdmin(err, "no branch %q", b)
		}
		nu.BranchID = &id
	}
	if err := s.record(ctx, sess, a, "user.create", a.Alias+"/"+strings.TrimSpace(req.UserName),
		fmt.Sprintf("type=%s %s", req.Type, req.Perms)); err != nil {
		return 0, err
	}
	return s.Admin.CreateUser(ctx, nu, req.Password)
}

// UnlockUser lifts a user's lock and every lockout by failed logins.
func (s *OperatorAdmin) UnlockUser(ctx context.Context, sess *Session, alias, userName string) error {
	if err := s.begin(sess); err != nil {
		return err
	}
	a, err := s.Admin.Agency(ctx, alias)
	if err != nil {
		return err
	}
	u, err := s.Admin.User(ctx, a.ID, userName)
	if err != nil {
		return err
	}
	if err := s.record(ctx, sess, a, "user.unlock", a.Alias+"/"+u.UserName, ""); err != nil {
		return err
	}
	return s.Admin.Unlock(ctx, u)
}

// record writes an audit row before the change it names, as an agency
// session's requests are recorded: a change is never made unrecorded (if
// the row cannot be written, nothing is changed). A row whose change then
// fails records what was asked for.
func (s *OperatorAdmin) record(ctx context.Context, sess *Session, a *Agency, action, target, detail string) error {
	e := AuditEntry{OperatorID: sess.OperatorID, OperatorName: sess.UserName, AgencyID: a.ID, Action: action, Target: target, Detail: detail}
	return s.Operators.record(ctx, e)
}
