package http

import (
	"net/http/httptest"
	"testing"
)

func TestClientIP(t *testing.T) {
	trusted, err := ParseTrustedProxies(" 127.0.0.1/32, 10.1.0.0/16 ,192.168.7.7, ::1 ")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, peer string
		xff        []string
		want       string
	}{
		{"no proxy", "203.0.113.9:5000", nil, "203.0.113.9"},
		{"an untrusted peer's header is ignored", "203.0.113.9:5000", []string{"10.0.0.1"}, "203.0.113.9"},
		{"a trusted proxy names the client", "127.0.0.1:5000", []string{"10.0.0.1"}, "10.0.0.1"},
		{"the right-most untrusted entry wins over what the client wrote", "127.0.0.1:5000", []string{"6.6.6.6, 198.51.100.4, 10.1.2.3"}, "198.51.100.4"},
		{"entries over several headers", "127.0.0.1:5000", []string{"6.6.6.6", "198.51.100.4", "10.1.2.3, 192.168.7.7"}, "198.51.100.4"},
		{"only trusted hops: the left-most of them", "127.0.0.1:5000", []string{"10.1.9.9, 192.168.7.7"}, "10.1.9.9"},
		{"no header from a trusted proxy", "127.0.0.1:5000", nil, "127.0.0.1"},
		{"garbage stops the walk at the last trustworthy hop", "127.0.0.1:5000", []string{"10.0.0.1, not-an-ip, 10.1.0.1"}, "10.1.0.1"},
		{"a mapped IPv4 peer", "[::ffff:127.0.0.1]:5000", []string{"10.0.0.9"}, "10.0.0.9"},
		{"an IPv6 proxy", "[::1]:5000", []string{"2001:db8::7"}, "2001:db8::7"},
	}
	for _, c := range cases {
		r := httptest.NewRequest("GET", "/login", nil)
		r.RemoteAddr = c.peer
		for _, v := range c.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := clientIP(r, trusted); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if _, err := ParseTrustedProxies("10.0.0.0/8, nonsense"); err == nil {
		t.Error("an invalid entry must be refused")
	}
	if p, err := ParseTrustedProxies(""); err != nil || len(p) != 0 {
		t.Errorf("empty list: %v %v", p, err)
	}
}
