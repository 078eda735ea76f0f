package contract

import (
	"strconv"
	"strings"
)

// ContractVersion is the interface version a Wayfarer server reports.
const ContractVersion = "1.8.2.6"

// CardLinkVersion is the first contract version with personCardLink.
const CardLinkVersion = "1.8.2"

// A Wayfarer server also serves contract 1.8.1 (the flat card array) on
// every route under BasePath181, where GET version reports
// ContractVersion181: the build the reference's 1.8.1 production reports
// (contract §9.4), so a client that checks for it finds what it expects.
const (
	BasePath181        = "/v1.8.1"
	ContractVersion181 = "1.8.1.6"
)

// ClientVersionHeader is how a client announces its version at login.
const ClientVersionHeader = "X-Client-Version"

// WayfarerVersionHeader carries a Wayfarer server's own build on every
// answer (the body of /version holds only the reference's members).
const WayfarerVersionHeader = "X-Wayfarer-Version"

// ParseVersion reads a dotted version ("1.8.2", "1.8.2.6"); missing parts are 0.
func ParseVersion(s string) ([]int, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, false
	}
	parts := strings.Split(s, ".")
	out := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}

// CompareVersions returns -1, 0 or 1; a shorter version is padded with zeros.
func CompareVersions(a, b []int) int {
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y int
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// AtLeast reports whether version v is min or later; an unreadable
// version is never at least anything.
func AtLeast(v, min string) bool {
	a, ok1 := ParseVersion(v)
	b, ok2 := ParseVersion(min)
	return ok1 && ok2 && CompareVersions(a, b) >= 0
}
