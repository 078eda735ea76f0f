package main

import (
	"strings"
	"testing"
)

func TestAdminLookupCommands(t *testing.T) {
	db := migratedDB(t)
	mustAdmin(t, db, "", "agency", "create", "--alias", "acme", "--name", "Acme Travel")
	mustAdmin(t, db, "", "tag", "create", "--alias", "ACME", "--name", "Seat preference", "--value", "aisle", "--value", "window",
		"--requirement", "recommended", "--description", "Where the traveler sits", "--area-flags", "2", "--fixed-values")
	mustAdmin(t, db, "", "tag", "create", "--alias", "ACME", "--name", "Dietary", "--inactive")
	out, err := runAdmin(t, db, "", "tag", "list", "--alias", "ACME")
	if err != nil || !strings.Contains(out, "Seat preference") || !strings.Contains(out, "recommended") ||
		!strings.Contains(out, "inactive") {
		t.Fatalf("tag list: %v\n%s", err, out)
	}
	mustAdmin(t, db, "", "affiliation", "create", "--alias", "ACME", "--name", "Virtuoso")
	mustAdmin(t, db, "", "marketing", "create", "--alias", "ACME", "--affiliation", "Virtuoso", "--category", "Interests",
		"--id", "12575", "--name", "Golf", "--sort", "1")
	mustAdmin(t, db, "", "marketing", "create", "--alias", "ACME", "--affiliation", "Virtuoso", "--category", "Interests",
		"--id", "12576", "--name", "Hiking", "--sort", "2")
	out, err = runAdmin(t, db, "", "affiliation", "list", "--alias", "ACME")
	if err != nil || !strings.Contains(out, "Virtuoso") || !strings.Contains(out, "2 marketing elements") {
		t.Fatalf("affiliation list: %v\n%s", err, out)
	}
	out, err = runAdmin(t, db, "", "marketing", "list", "--alias", "ACME", "--affiliation", "Virtuoso")
	if err != nil || !strings.Contains(out, "Golf") || !strings.Contains(out, "Virtuoso / Interests") {
		t.Fatalf("marketing list: %v\n%s", err, out)
	}
	for _, bad := range []struct {
		args     []string
		contains string
	}{
		{[]string{"tag", "create", "--alias", "ACME", "--name", "Dietary"}, "already the name"},
		{[]string{"tag", "create", "--alias", "ACME", "--name", strings.Repeat("n", 65)}, "longer than 64"},
		{[]string{"tag", "create", "--alias", "ACME", "--name", "X", "--requirement", "always"}, "--requirement"},
		{[]string{"tag", "create", "--alias", "ACME", "--name", "X", "--area-flags", "99999"}, "areaFlags"},
		{[]string{"tag", "create", "--alias", "ACME", "--name", "X", "--description", "4111 1111 1111 1111"}, "card numbers"},
		{[]string{"marketing", "create", "--alias", "ACME", "--affiliation", "Nope", "--category", "C", "--id", "1", "--name", "N"}, "no affiliation"},
		{[]string{"marketing", "create", "--alias", "ACME", "--affiliation", "Virtuoso", "--category", "C", "--id", strings.Repeat("1", 17), "--name", "N"}, "--id is longer than 16"},
		{[]string{"affiliation", "create", "--alias", "ACME", "--name", " "}, "--name is required"},
	} {
		out, err := runAdmin(t, db, "", bad.args...)
		if err == nil || !strings.Contains(err.Error()+out, bad.contains) {
			t.Fatalf("%v: want an error containing %q, got %v\n%s", bad.args, bad.contains, err, out)
		}
	}
}
