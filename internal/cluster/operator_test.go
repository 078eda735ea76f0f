package cluster

import (
	"encoding/base64"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// operatorDisabledOnBoth: a host operator (docs/operators.md) logged in
// through one instance into an agency, used on both; `wayfarer admin
// operator disable` in a process of its own ends the session on both
// within the bound, as users' revocations do (the revocation log's
// operator_id).
func operatorDisabledOnBoth(t *testing.T, a, b *instance) {
	admin := func(stdin string, args ...string) {
		t.Helper()
		cmd := exec.Command(wayfarerBinary(t), append([]string{"--db", a.DBPath, "admin", "operator"}, args...)...)
		cmd.Stdin = strings.NewReader(stdin)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("admin operator %v: %v\n%s", args, err, out)
		}
	}
	admin("cluster-op-pw-1\n", "create", "--user", "cluster-op", "--password-stdin")
	admin("", "grant", "--user", "cluster-op", "--alias", "DEMO", "--person", "select")
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("cluster-op:cluster-op-pw-1"))
	tok := token(t, a.Do(t, "GET", "/login/DEMO:", nil, "Authorization", basic))
	useOn(t, tok, a, b, a, b)
	admin("", "disable", "--user", "cluster-op")
	done := time.Now()
	for _, s := range []*instance{a, b} {
		t.Logf("operator disabled: %s refused its session %s after the command ended", s.name,
			refusedWithin(t, s, tok, done, revocationBound).Round(time.Millisecond))
	}
	wantCode(t, "login of the disabled operator on B", b.Do(t, "GET", "/login/DEMO:", nil, "Authorization", basic), 401, 104)
}
