package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfarerhq/wayfarer/internal/testserver"
)

// TestClientLookupsCLI: client branches|profiles|users against the demo data.
func TestClientLookupsCLI(t *testing.T) {
	s := testserver.Start(t, testserver.Options{})
	t.Setenv("WAYFARER_SESSION", filepath.Join(t.TempDir(), "session.json"))
	runClientCLI(t, "demo-admin\n", "login", "--url", s.URL, "--alias", "DEMO", "--user", "admin", "--password-stdin").must(t)

	r := runClientCLI(t, "", "branches").must(t)
	if !strings.Contains(r.out, "Harbor") || !strings.Contains(r.out, "Main") || !strings.Contains(r.out, "active") {
		t.Errorf("branches:\n%s", r.out)
	}
	r = runClientCLI(t, "", "branches", "--name", "har", "--json", "--cols", "name").must(t)
	if strings.Join(strings.Fields(r.out), "") != `[{"name":"Harbor"}]` {
		t.Errorf("branches --json: %s", r.out)
	}
	r = runClientCLI(t, "", "profiles", "--type", "advisor").must(t)
	if !strings.Contains(r.out, "Alice Advisor") || strings.Contains(r.out, "Acme Travel Dept") {
		t.Errorf("advisors:\n%s", r.out)
	}
	r = runClientCLI(t, "", "users", "--name", "alice", "--enabled").must(t)
	if !strings.Contains(r.out, "agent") || !strings.Contains(r.out, "Alice Agent") || strings.Contains(r.out, "viewer") {
		t.Errorf("users:\n%s", r.out)
	}
	if r := runClientCLI(t, "", "users", "--cols", "passwordHash"); r.fail == nil || !strings.Contains(r.fail.Error(), "Invalid column: passwordHash") {
		t.Errorf("an unknown column: %v", r.fail)
	}
	if r := runClientCLI(t, "", "profiles", "--type", "supplier"); r.fail == nil || !strings.Contains(r.fail.Error(), "--type") {
		t.Errorf("an unknown type: %v", r.fail)
	}
	if r := runClientCLI(t, "", "branches", "--name", "Nowhere").must(t); strings.Contains(r.out, "Main") {
		t.Errorf("nothing found: %s", r.out)
	}
}
