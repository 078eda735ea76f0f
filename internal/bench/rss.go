package bench

import (
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// peakRSS is the process's peak resident set (VmHWM) in bytes since the
// start or the last resetPeakRSS, 0 where /proc does not tell (target 6 of
// issue 15: the benchmark process holds the server, its database driver
// and the clients, so this bounds the server's own from above). It counts
// the pages of mapped files too: with SQLite's memory map, every page of
// the database file a query touched (the kernel's page cache, shared and
// dropped under pressure), hence anonRSS beside it.
func peakRSS() int64 { return statusBytes("VmHWM:") }

// anonRSS is the process's anonymous resident memory (RssAnon) now: its
// heap, stacks and the connections' own page caches, without mapped files.
func anonRSS() int64 { return statusBytes("RssAnon:") }

// statusBytes reads one "kB" field of /proc/self/status; 0 where there is
// none.
func statusBytes(field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
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

// sampleAnonRSS samples anonRSS every 10 ms until stop is called, which
// returns the highest sample (Linux keeps no peak of it).
func sampleAnonRSS() (stop func() int64) {
	var peak atomic.Int64
	peak.Store(anonRSS())
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if n := anonRSS(); n > peak.Load() {
					peak.Store(n)
				}
			}
		}
	}()
	return func() int64 {
		close(done)
		<-finished
		return max(peak.Load(), anonRSS())
	}
}
