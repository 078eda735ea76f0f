package http

import (
	"io/fs"
	"net/http"
	"strings"

	"github.com/wayfarerhq/wayfarer/docs"
	"github.com/wayfarerhq/wayfarer/internal/apidocs"
)

// The operator's endpoints live beside the API, not in it: /metrics,
// /openapi.json and /docs/ are matched by exact path (case-sensitive, not
// below /v1.8.1/), are not part of the contract and so not in
// openapi.json's paths, and need no token (docs/deployment.md,
// "Observing it"). /healthz and /readyz are API routes, as they were.

var swaggerUI = http.FileServerFS(apidocs.SwaggerUI())

// serveOps answers r when it asks for an operator endpoint, reporting
// whether it did.
func (s *Server) serveOps(w http.ResponseWriter, r *http.Request) (route string, served bool) {
	p := r.URL.Path
	switch {
	case p == "/metrics" && !s.Config.MetricsElsewhere:
		route = "/metrics"
	case p == "/openapi.json":
		route = "/openapi.json"
	case p == "/docs" || strings.HasPrefix(p, "/docs/"):
		route = "/docs/"
	default:
		return "", false
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusMethodNotAllowed)
		return route, true
	}
	switch route {
	case "/metrics":
		s.Metrics.Handler().ServeHTTP(w, r)
	case "/openapi.json":
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(docs.OpenAPI)
	default:
		serveDocsPage(w, r)
	}
	return route, true
}

// serveDocsPage serves the embedded Swagger UI below /docs/. The page may
// load only what the server itself serves.
func serveDocsPage(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/docs" {
		http.Redirect(w, r, "/docs/", http.StatusMovedPermanently)
		return
	}
	name := strings.TrimPrefix(r.URL.Path, "/docs/")
	if name != "" {
		if _, err := fs.Stat(apidocs.SwaggerUI(), name); err != nil {
			notFound(w)
			return
		}
	}
	w.Header().Set("Content-Security-Policy",
		"default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	r2 := r.Clone(r.Context())
	r2.URL.Path = "/" + name
	swaggerUI.ServeHTTP(w, r2)
}
