package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// areaFlag names the flag of an area's permissions: the area's CLI name
// (--person, --activity, ...), except where the user commands use that
// name already: --branch is the user's branch, so the Branch area's flag
// is --branch-permissions.
func areaFlag(a wayfarer.Area) string {
	if a == wayfarer.AreaBranch {
		return a.CLIName() + "-permissions"
	}
	return a.CLIName()
}

// areaFlags are the permission flags of every area, generated from the
// area table. value is their default ("" for set-permissions, where only
// the areas given change). Per-user data: no env fallbacks, like the other
// user flags.
func areaFlags(value string) []cli.Flag {
	var out []cli.Flag
	for _, a := range wayfarer.Areas() {
		out = append(out, &cli.StringFlag{Name: areaFlag(a), Value: value,
			Usage: fmt.Sprintf("%s permissions, e.g. select,read,insert,update", a)})
	}
	return out
}

// parseAreaFlags reads the area flags the command line sets.
func parseAreaFlags(cmd *cli.Command) (map[wayfarer.Area]wayfarer.Permission, error) {
	set := map[wayfarer.Area]wayfarer.Permission{}
	for _, a := range wayfarer.Areas() {
		name := areaFlag(a)
		if !cmd.IsSet(name) {
			continue
		}
		p, err := wayfarer.ParsePermissions(cmd.String(name))
		if err != nil {
			return nil, fmt.Errorf("--%s: %w", name, err)
		}
		set[a] = p
	}
	return set, nil
}

func areaFlagList() string {
	var names []string
	for _, a := range wayfarer.Areas() {
		names = append(names, "--"+areaFlag(a))
	}
	return strings.Join(names, ", ")
}
