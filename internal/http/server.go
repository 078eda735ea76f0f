// Package http is Wayfarer's JSON interface: it decodes requests, calls the
// domain services and encodes their answers. No rule lives here.
package http

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/metrics"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
	"github.com/wayfarerhq/wayfarer/internal/wire"
)

// Pinger reports whether the database answers and is current (for /readyz).
type Pinger interface {
	Ping(ctx context.Context) error
	MigrationsPending(ctx context.Context) (bool, error)
}

// Config is the HTTP side of the configuration.
type Config struct {
	BodyLimit     int64  // bytes; 0 means 1 MiB
	BuildVersion  string // Wayfarer's own version, sent as X-Wayfarer-Version
	UnknownFields jsoncodec.UnknownFields
	// TrustedProxies may name the client in X-Forwarded-For (clientaddr.go).
	TrustedProxies []netip.Prefix
	// CORS lists the browser origins allowed to call (cors.go); nil: none.
	CORS *CORS
	// MetricsElsewhere: /metrics is served on its own listener
	// (--metrics-addr), not on this one.
	MetricsElsewhere bool
}

// Server serves the Wayfarer interface.
type Server struct {
	personHandlers   // person.go: the person services
	searchHandlers   // search.go: the search services
	lookupHandlers   // tag.go: tag definitions and affiliations
	activityHandlers // activity.go: the activity service

	Login *wayfarer.LoginService
	// OperatorAdmin serves the admin domain's routes; Operators records
	// what operators do inside agencies (docs/operators.md).
	OperatorAdmin *wayfarer.OperatorAdmin
	Operators     *wayfarer.OperatorService
	DB            Pinger
	Metrics       *metrics.Metrics // nil: none recorded, /metrics answers 404
	Config        Config

	log    *slog.Logger
	router router
	codec  *jsoncodec.Decoder // reads every request body
}

// NewServer wires the routes; the services are set on the returned value.
func NewServer(cfg Config, log *slog.Logger) *Server {
	if cfg.BodyLimit <= 0 {
		cfg.BodyLimit = 1 << 20
	}
	s := &Server{Config: cfg, log: log, codec: jsoncodec.NewDecoder(cfg.UnknownFields, log)}
	s.routes()
	return s
}

func (s *Server) routes() {
	rt := &s.router
	rt.add("POST", "/login", s.handleLogin)
	rt.add("GET", "/login/{alias}", s.handleLoginBasic)
	rt.add("GET", "/login", s.handleLoginNoAlias) // GET /login and GET /login/ (no alias): 404, empty
	rt.add("GET", "/logout", s.authed(wayfarer.MethodIdentityToken, s.handleLogout))
	rt.add("GET", "/refreshIdentityToken", s.authed(wayfarer.MethodIdentityToken, s.handleRefresh))
	rt.add("GET", "/version", s.handleVersion)
	rt.add("POST", "/personSearch", s.authed(wayfarer.MethodPersonSearch, s.handlePersonSearch))
	rt.add("GET", "/person/{recNo}", s.authed(wayfarer.MethodPerson, s.handleLoadPerson))
	rt.add("GET", "/person/{recNo}/attachment/{attachmentRecNo}", s.authed(wayfarer.MethodPerson, s.handleAttachmentFile))
	rt.addLimited("POST", "/person", s.saveBodyLimit, s.authed(wayfarer.MethodPerson, s.handleSavePerson))
	rt.addLimited("POST", "/person/refresh", s.saveBodyLimit, s.authed(wayfarer.MethodPerson, s.handleSavePersonRefresh))
	rt.add("GET", "/activity/{recNo}", s.authed(wayfarer.MethodActivity, s.handleLoadActivity))
	rt.add("POST", "/activity", s.authed(wayfarer.MethodActivity, s.handleSaveActivity))
	rt.add("POST", "/activity/refresh", s.authed(wayfarer.MethodActivity, s.handleSaveActivityRefresh))
	rt.add("POST", "/activitySearch", s.authed(wayfarer.MethodActivitySearch, s.flatSearch(wayfarer.ActivitySearchCatalog, wire.DecodeActivitySearch)))
	rt.add("POST", "/branchSearch", s.authed(wayfarer.MethodBranchSearch, s.flatSearch(wayfarer.BranchSearchCatalog, wire.DecodeBranchSearch)))
	rt.add("GET", "/branch/{recNo}", s.authed(wayfarer.MethodBranch, s.handleLoadBranch))
	rt.add("POST", "/profileSearch", s.authed(wayfarer.MethodProfileSearch, s.flatSearch(wayfarer.ProfileSearchCatalog, wire.DecodeProfileSearch)))
	rt.add("POST", "/appUserSearch", s.authed(wayfarer.MethodAppUserSearch, s.flatSearch(wayfarer.AppUserSearchCatalog, wire.DecodeAppUserSearch)))
	rt.add("POST", "/tagSearch", s.authed(wayfarer.MethodTagSearch, s.flatSearch(wayfarer.TagSearchCatalog, wire.DecodeTagSearch)))
	rt.add("GET", "/tag/{recNo}", s.authed(wayfarer.MethodTag, s.handleLoadTag))
	rt.add("POST", "/tag", s.authed(wayfarer.MethodTag, s.handleSaveTag))
	rt.add("POST", "/tag/refresh", s.authed(wayfarer.MethodTag, s.handleSaveTagRefresh))
	rt.add("GET", "/affiliation/{recNo}", s.authed(wayfarer.MethodAffiliation, s.handleLoadAffiliation))
	rt.add("GET", "/admin/agencies", s.authed(wayfarer.MethodAdmin, s.handleAdminAgencies))
	rt.add("POST", "/admin/agency/{alias}/enable", s.authed(wayfarer.MethodAdmin, s.handleAdminAgencyStatus(wayfarer.AgencyActive)))
	rt.add("POST", "/admin/agency/{alias}/disable", s.authed(wayfarer.MethodAdmin, s.handleAdminAgencyStatus(wayfarer.AgencyDisabled)))
	rt.add("GET", "/admin/agency/{alias}/users", s.authed(wayfarer.MethodAdmin, s.handleAdminUsers))
	rt.add("POST", "/admin/agency/{alias}/user", s.authed(wayfarer.MethodAdmin, s.handleAdminCreateUser))
	rt.add("POST", "/admin/agency/{alias}/user/{userName}/unlock", s.authed(wayfarer.MethodAdmin, s.handleAdminUnlockUser))
	rt.add("GET", "/healthz", s.handleHealth)
	rt.add("GET", "/readyz", s.handleReady)
}

// requestLog collects what the access log line reports beyond the basics;
// handlers fill it as they learn it.
type requestLog struct {
	alias    string // the agency, once known
	user     string // the agency's user, once authenticated
	operator string // the host operator whose session made the request (docs/operators.md)
	status   int
}

type logKey struct{}

func logOf(ctx context.Context) *requestLog {
	l, _ := ctx.Value(logKey{}).(*requestLog)
	if l == nil {
		return &requestLog{}
	}
	return l
}

type statusWriter struct {
	http.ResponseWriter
	rl *requestLog
}

func (w *statusWriter) WriteHeader(code int) {
	if w.rl.status == 0 {
		w.rl.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.rl.status == 0 {
		w.rl.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// ServeHTTP gives a request its ID, routes it, and writes one access-log
// line and the request metrics for it. The line holds the route and the
// path without its query and never a header, body or token.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rl := &requestLog{}
	id := requestID(r)
	ctx, endSpan := startSpan(r, id)
	ctx = context.WithValue(ctx, logKey{}, rl)
	ctx = context.WithValue(ctx, requestIDKey{}, id)
	r = r.WithContext(ctx)
	sw := &statusWriter{ResponseWriter: w, rl: rl}
	route, method := "unmatched", "other"
	defer func() {
		if p := recover(); p != nil {
			s.log.ErrorContext(ctx, "panic", "method", r.Method, "path", loggedPath(r), "panic", p)
			if rl.status == 0 {
				s.writeError(sw, r, errors.New("panic"), wayfarer.MethodRequest)
			}
		}
		took := time.Since(start)
		if rl.status == 0 {
			rl.status = http.StatusOK // nothing written: net/http answers 200
		}
		endSpan(route, rl.status)
		s.Metrics.Request(route, method, rl.status, took)
		// Typed attributes: one line per request, so no value is boxed.
		s.log.LogAttrs(ctx, slog.LevelInfo, "request", slog.String("method", r.Method), slog.String("path", loggedPath(r)),
			slog.Int("status", rl.status), slog.Float64("duration_ms", float64(took.Microseconds())/1000), slog.String("route", route),
			slog.String("client", clientIP(r, s.Config.TrustedProxies)), slog.String("alias", rl.alias), slog.String("user", rl.user),
			slog.String("operator", rl.operator))
	}()

	h := sw.Header()
	h.Set(contract.WayfarerVersionHeader, s.Config.BuildVersion)
	h.Set(RequestIDHeader, id)
	if s.Config.CORS.handle(sw, r) {
		route, method = "preflight", http.MethodOptions
		return
	}
	if opsRoute, ok := s.serveOps(sw, r); ok {
		route = opsRoute
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			method = r.Method
		}
		return
	}
	ro, allowed := s.router.match(r)
	if ro == nil {
		if len(allowed) > 0 {
			h.Set("Allow", strings.Join(allowed, ", "))
			h.Set("Content-Type", "text/plain; charset=utf-8")
			sw.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		notFound(sw)
		return
	}
	route, method = ro.pattern, ro.method
	limit := s.Config.BodyLimit
	if ro.bodyLimit != nil {
		limit = max(limit, ro.bodyLimit())
	}
	r.Body = http.MaxBytesReader(sw, r.Body, limit)
	if err := ro.handle(sw, r); err != nil {
		s.writeError(sw, r, err, wayfarer.MethodRequest)
	}
}

// loggedPath is the path as logs show it: withheld when a client put
// something that looks like a card number into it.
func loggedPath(r *http.Request) string {
	if wayfarer.ContainsCardNumber(r.URL.Path) {
		return "(withheld: looks like a card number)"
	}
	return r.URL.Path
}

// readBody reads the request body within the limit.
func readBody(r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return nil, wayfarer.Errorf(wayfarer.KindTooLarge, contract.CodeRequestTooLarge, wayfarer.MethodRequest,
			"Request body is larger than %d bytes", tooBig.Limit)
	}
	return b, err
}

type sessionKey struct{}
type claimsKey struct{}

// authed requires a live identity token before h runs; the session is in
// the request context. Token failures are answered with the reference's
// identity-token codes.
func (s *Server) authed(method string, h handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		sess, claims, err := s.Login.Authenticate(r.Context(), bearerToken(r))
		if err != nil {
			return err
		}
		rl := logOf(r.Context())
		rl.alias = sess.AgencyAlias
		if sess.IsOperator() {
			rl.operator = sess.UserName
			if err := s.auditInAgency(r, sess); err != nil {
				return err
			}
		} else {
			rl.user = sess.UserName
		}
		ctx := context.WithValue(r.Context(), sessionKey{}, sess)
		ctx = context.WithValue(ctx, claimsKey{}, claims)
		if err := h(w, r.WithContext(ctx)); err != nil {
			if e := wayfarer.AsError(err); e != nil && e.Method == "" {
				e.Method = method
			}
			return err
		}
		return nil
	}
}

// auditInAgency records a request an operator makes inside an agency
// before it runs: no action of an operator there goes unrecorded (the
// access log line carries its outcome, with the operator's name). The
// admin domain's routes record themselves, with what they did.
func (s *Server) auditInAgency(r *http.Request, sess *wayfarer.Session) error {
	if sess.IsAdminDomain() || s.Operators == nil {
		return nil
	}
	return s.Operators.Record(r.Context(), sess, r.Method+" "+routeName(r), loggedPath(r), "")
}

// routeName is the request's path without the 1.8.1 base path and path
// parameters' values: what kind of call it is ("/person/{recNo}" is
// "/person"), for the audit's action.
func routeName(r *http.Request) string {
	segs := split(r.URL.Path)
	if len(segs) > 0 && strings.EqualFold(segs[0], base181) {
		segs = segs[1:]
	}
	if len(segs) > 0 {
		return "/" + segs[0]
	}
	return "/"
}

func sessionOf(r *http.Request) *wayfarer.Session {
	s, _ := r.Context().Value(sessionKey{}).(*wayfarer.Session)
	return s
}

func bearerToken(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

// Run serves on l until ctx ends, then stops accepting and lets requests in
// flight finish (up to grace).
func Run(ctx context.Context, srv *http.Server, l net.Listener, certFile, keyFile string, grace time.Duration) error {
	errc := make(chan error, 1)
	go func() {
		if certFile != "" {
			errc <- srv.ServeTLS(l, certFile, keyFile)
		} else {
			errc <- srv.Serve(l)
		}
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	return srv.Shutdown(shutdownCtx)
}
