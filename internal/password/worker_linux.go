package password

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// lowerPriority sets the nice level of every thread of this process: on
// Linux each thread has its own, and threads the runtime starts later
// inherit the level of the thread that starts them. Done twice, for
// threads started while the first pass ran.
func lowerPriority(nice int) {
	for range 2 {
		tasks, err := os.ReadDir("/proc/self/task")
		if err != nil {
			_ = syscall.Setpriority(syscall.PRIO_PROCESS, 0, nice)
			return
		}
		for _, t := range tasks {
			if tid, err := strconv.Atoi(t.Name()); err == nil {
				_ = syscall.Setpriority(syscall.PRIO_PROCESS, tid, nice)
			}
		}
	}
}

// setParentDeath ends the worker if the server dies without closing its
// stdin.
func setParentDeath(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
