package http

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ParseTrustedProxies reads a comma-separated list of CIDR prefixes or
// single addresses (--trusted-proxies).
func ParseTrustedProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("trusted proxies: %q is neither an address nor a CIDR prefix", f)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// clientIP is the address of the client a request comes from: the
// connection's peer, unless that peer is a trusted proxy; then the
// right-most X-Forwarded-For address that is not a trusted proxy (each
// proxy appends the peer it saw, so entries left of the last untrusted one
// are whatever the client wrote). Where every entry is a trusted proxy, or
// an entry is not an address, the last trustworthy hop stands in.
func clientIP(r *http.Request, trusted []netip.Prefix) string {
	peer := remoteAddr(r)
	a, err := netip.ParseAddr(peer)
	if err != nil || !isTrusted(a, trusted) {
		return peer
	}
	hops := r.Header.Values("X-Forwarded-For")
	client := a
	for i := len(hops) - 1; i >= 0; i-- {
		entries := strings.Split(hops[i], ",")
		for j := len(entries) - 1; j >= 0; j-- {
			e := strings.TrimSpace(entries[j])
			if e == "" {
				continue
			}
			hop, err := netip.ParseAddr(e)
			if err != nil {
				return client.String()
			}
			if client = hop.Unmap(); !isTrusted(client, trusted) {
				return client.String()
			}
		}
	}
	return client.String()
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	a = a.Unmap().WithZone("")
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

func remoteAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
