package http

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// CORS lets browser pages of the listed origins call the interface
// (--cors-origins). It is off unless origins are listed. A short handler
// rather than a package: Wayfarer needs exact origins, no credentials
// (tokens travel in the Authorization header, never in cookies) and fixed
// lists of methods and headers (docs/decisions.md, "CORS").
type CORS struct {
	origins map[string]bool // "scheme://host[:port]", lower case
	any     bool            // "*": every origin
}

// corsMaxAge is how long (seconds) a browser may keep a preflight's answer.
const corsMaxAge = "600"

var (
	corsAllowMethods = "GET, POST, HEAD"
	corsAllowHeaders = strings.Join([]string{"Authorization", "Content-Type", contract.ClientVersionHeader,
		RequestIDHeader, "If-Match", "If-None-Match"}, ", ")
	corsExposeHeaders = strings.Join([]string{RequestIDHeader, "ETag", contract.WayfarerVersionHeader,
		"Retry-After", "Content-Disposition"}, ", ")
)

// ParseCORSOrigins reads a comma-separated list of origins
// ("https://app.example.com, http://localhost:3000"), or "*" for every
// origin. An entry that is not a bare origin (a path, a missing scheme) is
// an error naming it: a typo would otherwise silently allow nothing.
func ParseCORSOrigins(list string) (*CORS, error) {
	c := &CORS{origins: map[string]bool{}}
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		switch {
		case f == "":
			continue
		case f == "*":
			c.any = true
			continue
		}
		u, err := url.Parse(f)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
			(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			return nil, fmt.Errorf("CORS origins: %q is not an origin such as https://app.example.com (a scheme and a host, nothing after)", f)
		}
		c.origins[strings.ToLower(u.Scheme+"://"+u.Host)] = true
	}
	if !c.any && len(c.origins) == 0 {
		return nil, nil
	}
	return c, nil
}

func (c *CORS) allows(origin string) bool {
	return origin != "" && (c.any || c.origins[strings.ToLower(origin)])
}

// handle adds the CORS headers of r's answer and reports whether r was a
// preflight, answered here. A request from an unlisted origin gets no
// allow header: the browser then keeps the answer from the page.
func (c *CORS) handle(w http.ResponseWriter, r *http.Request) (answered bool) {
	if c == nil {
		return false
	}
	origin := r.Header.Get("Origin")
	h := w.Header()
	preflight := r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
	if preflight {
		h.Add("Vary", "Origin")
		h.Add("Vary", "Access-Control-Request-Method")
		h.Add("Vary", "Access-Control-Request-Headers")
		if c.allows(origin) {
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Allow-Methods", corsAllowMethods)
			h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
			h.Set("Access-Control-Max-Age", corsMaxAge)
		}
		w.WriteHeader(http.StatusNoContent)
		return true
	}
	h.Add("Vary", "Origin")
	if c.allows(origin) {
		h.Set("Access-Control-Allow-Origin", origin)
		h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
	}
	return false
}
