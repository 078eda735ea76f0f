package bench

import (
	"os"
	"strconv"
	"strings"
)

// peakRSS is the process's peak resident set (VmHWM) in bytes since the
// start or the last resetPeakRSS, 0 where /proc does not tell (target 6 of
// issue 15: the benchmark process holds the server, its database driver
// and the clients, so this bounds the server's own from above).
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return 0
			}
			return kb * 1024
		}
	}
	return 0
}

// resetPeakRSS starts a new peak at the current resident set (Linux 4.0 and
// later: "5" to clear_refs), so that each measurement's peak is its own,
// not that of opening, migrating or loading the database before it.
// Reports whether it could.
func resetPeakRSS() bool {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}
