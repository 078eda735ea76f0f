package http

import (
	"context"
	"net/http"
	"strings"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// handlerFunc handles a request; an error it returns is answered by writeError.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

type route struct {
	method    string
	pattern   string   // as added: the metrics' and the access log's route label
	segments  []string // literal segments match case-insensitively; "{name}" captures
	shape     string   // one byte per segment: '1' literal, '0' parameter
	handle    handlerFunc
	bodyLimit func() int64 // the route's own body limit when above --body-limit; nil: none
}

// router matches method names case-insensitively, as the reference does,
// while path parameters keep their value. Where several patterns match a
// path, the most specific one owns it: a literal segment beats a parameter
// at the first position where they differ, so /person/refresh is the
// refresh path for every method and never a recNo of /person/{recNo}.
type router struct{ routes []route }

func (rt *router) add(method, pattern string, h handlerFunc) { rt.addLimited(method, pattern, nil, h) }

// addLimited adds a route whose bodies may be larger than --body-limit, up
// to what limit returns (person saves carry files).
func (rt *router) addLimited(method, pattern string, limit func() int64, h handlerFunc) {
	segs := split(pattern)
	shape := make([]byte, len(segs))
	for i, s := range segs {
		shape[i] = '1'
		if strings.HasPrefix(s, "{") {
			shape[i] = '0'
		}
	}
	rt.routes = append(rt.routes, route{method: method, pattern: pattern, segments: segs, shape: string(shape), handle: h, bodyLimit: limit})
}

func split(path string) []string {
	path = strings.Trim(path, "/")
	if path == "" {
		return nil
	}
	return strings.Split(path, "/")
}

// apiContract is the contract a request is served under. Every route is
// served under both: unprefixed as 1.8.2, and below the base path
// contract.BasePath181 (matched case-insensitively, like method names) as
// 1.8.1. A handler whose bodies differ between the two asks contractOf.
type apiContract int

const (
	contract182 apiContract = iota // the unprefixed paths
	contract181                    // below contract.BasePath181
)

var base181 = strings.TrimPrefix(contract.BasePath181, "/")

type contractKey struct{}

// contractOf is the contract the request came under.
func contractOf(r *http.Request) apiContract {
	c, _ := r.Context().Value(contractKey{}).(apiContract)
	return c
}

// servedAs181 runs h with the request marked as contract 1.8.1.
func servedAs181(h handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		return h(w, r.WithContext(context.WithValue(r.Context(), contractKey{}, contract181)))
	}
}

// match finds the handler for r. allowed lists the methods of a path that
// matched with another method. Only the most specific patterns that match
// the path count (patterns matching one path have as many segments, so
// their shapes compare as strings). A path below the 1.8.1 base path
// matches what follows the base path, served as contract 1.8.1.
func (rt *router) match(r *http.Request) (found *route, allowed []string) {
	segs := split(r.URL.Path)
	if len(segs) > 0 && strings.EqualFold(segs[0], base181) {
		ro, allowed := rt.matchSegments(r, segs[1:])
		if ro == nil {
			return nil, allowed
		}
		as181 := *ro
		as181.handle = servedAs181(ro.handle)
		as181.pattern = contract.BasePath181 + ro.pattern
		return &as181, nil
	}
	return rt.matchSegments(r, segs)
}

func (rt *router) matchSegments(r *http.Request, segs []string) (found *route, allowed []string) {
	best := ""
	for _, ro := range rt.routes {
		if ro.shape > best {
			if _, ok := ro.matchPath(segs); ok {
				best = ro.shape
			}
		}
	}
	for i := range rt.routes {
		ro := &rt.routes[i]
		if ro.shape != best {
			continue
		}
		params, ok := ro.matchPath(segs)
		if !ok {
			continue
		}
		if ro.method != r.Method {
			allowed = append(allowed, ro.method)
			continue
		}
		for k, v := range params {
			r.SetPathValue(k, v)
		}
		return ro, nil
	}
	return nil, allowed
}

func (ro route) matchPath(segs []string) (map[string]string, bool) {
	if len(segs) != len(ro.segments) {
		return nil, false
	}
	var params map[string]string
	for i, s := range ro.segments {
		if strings.HasPrefix(s, "{") {
			if params == nil {
				params = map[string]string{}
			}
			params[strings.Trim(s, "{}")] = segs[i]
			continue
		}
		if !strings.EqualFold(s, segs[i]) {
			return nil, false
		}
	}
	return params, true
}
