package main

import (
	"strings"
	"testing"
)

// TestAdminOperatorCommands: create, list, grant, revoke, disable, enable,
// set-password and audit of host operators; refusals name what is wrong.
func TestAdminOperatorCommands(t *testing.T) {
	db := migratedDB(t)
	mustAdmin(t, db, "", "agency", "create", "--alias", "acme")
	mustAdmin(t, db, "op-password-1\n", "operator", "create", "--user", "Ops1", "--password-stdin")
	mustAdmin(t, db, "", "operator", "grant", "--user", "ops1", "--alias", "ACME", "--person", "select,read", "--tag", "select")
	out, err := runAdmin(t, db, "", "operator", "list")
	if err != nil || !strings.Contains(out, "Ops1") || !strings.Contains(out, "ACME") || !strings.Contains(out, "person=select,read") {
		t.Fatalf("list: %v\n%s", err, out)
	}
	mustAdmin(t, db, "", "operator", "disable", "--user", "ops1")
	mustAdmin(t, db, "", "operator", "enable", "--user", "ops1")
	mustAdmin(t, db, "op-password-2\n", "operator", "set-password", "--user", "ops1")
	mustAdmin(t, db, "", "operator", "revoke", "--user", "ops1", "--alias", "acme")
	if out, _ := runAdmin(t, db, "", "operator", "list"); strings.Contains(out, "ACME") {
		t.Fatalf("grant still listed after revoke:\n%s", out)
	}
	out, err = runAdmin(t, db, "", "operator", "audit")
	for _, want := range []string{"operator.create", "operator.grant", "operator.disable", "operator.enable", "operator.set-password", "operator.revoke"} {
		if err != nil || !strings.Contains(out, want) {
			t.Fatalf("audit: no %s: %v\n%s", want, err, out)
		}
	}
	if strings.Contains(out, "op-password") {
		t.Fatalf("a password in the audit:\n%s", out)
	}
	for _, bad := range [][]string{
		{"operator", "create", "--user", "ops1", "--password-stdin"},                     // exists (and stdin is empty)
		{"operator", "grant", "--user", "ops1", "--alias", "ACME"},                       // no area
		{"operator", "grant", "--user", "ops1", "--alias", "NOPE", "--person", "select"}, // no agency
		{"operator", "grant", "--user", "nobody", "--alias", "ACME", "--person", "select"},
		{"operator", "disable", "--user", "nobody"},
	} {
		if out, err := runAdmin(t, db, "long-enough-pw\n", bad...); err == nil {
			t.Errorf("admin %v succeeded:\n%s", bad, out)
		}
	}
	if out, err := runAdmin(t, db, "short\n", "operator", "create", "--user", "ops2", "--password-stdin"); err == nil {
		t.Errorf("a short password was taken:\n%s", out)
	}
}
