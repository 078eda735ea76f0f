//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd

package password

import "os/exec"

// lowerPriority: no portable way here; the worker still keeps the checks'
// memory out of the server's heap.
func lowerPriority(int) {}

func setParentDeath(*exec.Cmd) {}
