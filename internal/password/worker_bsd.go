//go:build darwin || freebsd || netbsd || openbsd

package password

import (
	"os/exec"
	"syscall"
)

// lowerPriority sets the nice level of this process (all its threads).
func lowerPriority(nice int) { _ = syscall.Setpriority(syscall.PRIO_PROCESS, 0, nice) }

// setParentDeath: the worker ends when its stdin closes, which the
// operating system does when the server dies.
func setParentDeath(*exec.Cmd) {}
