package wayfarer

import "testing"

func TestOperatorAlias(t *testing.T) {
	for raw, want := range map[string]struct {
		alias string
		ok    bool
	}{
		":": {"", true}, "AVDB:": {"AVDB", true}, " avdb: ": {"AVDB", true}, "AVDB": {"", false}, "": {"", false}, "A:B": {"", false},
	} {
		alias, ok := OperatorAlias(raw)
		if alias != want.alias || ok != want.ok {
			t.Errorf("OperatorAlias(%q) = %q, %v; want %q, %v", raw, alias, ok, want.alias, want.ok)
		}
	}
}

// An operator's revocation ends its sessions in every agency and the
// admin domain, and nobody else's; agency and user revocations keep
// their reach.
func TestRevocationOfOperators(t *testing.T) {
	opAdmin := &Session{TokenID: 1, OperatorID: 7}
	opDemo := &Session{TokenID: 2, AgencyID: 3, OperatorID: 7}
	other := &Session{TokenID: 3, AgencyID: 3, OperatorID: 8}
	user := &Session{TokenID: 4, AgencyID: 3, UserID: 7}
	for _, c := range []struct {
		r    Revocation
		s    *Session
		want bool
	}{
		{Revocation{OperatorID: 7}, opAdmin, true},
		{Revocation{OperatorID: 7}, opDemo, true},
		{Revocation{OperatorID: 7}, other, false},
		{Revocation{OperatorID: 7}, user, false},
		{Revocation{AgencyID: 3}, opDemo, true}, // an agency leaving the active state
		{Revocation{AgencyID: 3, UserID: 7}, opDemo, false},
		{Revocation{AgencyID: 3, UserID: 7}, user, true},
	} {
		if got := c.r.matches(c.s); got != c.want {
			t.Errorf("%+v matches %+v: %v, want %v", c.r, c.s, got, c.want)
		}
	}
	if !opAdmin.IsAdminDomain() || opDemo.IsAdminDomain() || user.IsOperator() {
		t.Error("IsAdminDomain/IsOperator")
	}
}
