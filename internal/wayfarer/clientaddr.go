package wayfarer

import (
	"net/netip"
	"strings"
)

// unknownClient is the key of a login whose address is not known: all
// such logins share one counter rather than escaping counting.
const unknownClient = "unknown"

// ClientKey is the key failed logins of an address are counted under: an
// IPv4 address as it is, an IPv6 address by its /64. One IPv6 subscriber
// holds a whole /64, so counting single IPv6 addresses would give an
// attacker 2^64 fresh counters.
func ClientKey(ip string) string {
	a, err := netip.ParseAddr(strings.TrimSpace(ip))
	if err != nil {
		return unknownClient
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return a.String()
	}
	p, _ := a.Prefix(64)
	return p.String()
}
