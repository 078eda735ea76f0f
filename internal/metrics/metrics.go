// Package metrics holds an instance's Prometheus metrics (GET /metrics):
// requests, logins, searches, database and vault work. Every label takes
// its values from a small fixed set (route patterns, result codes, status
// codes, a few words), never from a raw path, a user name or an alias, so
// the number of series stays bounded whatever clients send.
//
// Each instance has its own registry (tests run several instances in one
// process); every method is safe on a nil *Metrics, which records nothing.
package metrics

import (
	"database/sql"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/wayfarerhq/wayfarer/client/contract"
)

// Metrics is one instance's collectors.
type Metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec   // route, method, status
	latency  *prometheus.HistogramVec // route, method
	logins   *prometheus.CounterVec   // result code
	lockouts prometheus.Counter
	searches *prometheus.CounterVec   // kind, format, outcome
	queries  *prometheus.HistogramVec // outcome
	vault    *prometheus.CounterVec   // operation, outcome
}

// latencyBuckets reach from a cached token check (well under a
// millisecond) to a search cut off by the default query time limit (5s).
var latencyBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// New registers Wayfarer's metrics and the Go runtime's and process's.
func New() *Metrics {
	m := &Metrics{registry: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "wayfarer_http_requests_total",
		Help: "HTTP requests answered, by route pattern, method and status.",
	}, []string{"route", "method", "status"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "wayfarer_http_request_duration_seconds", Buckets: latencyBuckets,
		Help: "Time from a request's arrival to its answer's end, by route pattern and method.",
	}, []string{"route", "method"})
	m.logins = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "wayfarer_logins_total",
		Help: "Login attempts by outcome: the answer's resultCode (0: success).",
	}, []string{"code"})
	m.lockouts = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "wayfarer_login_lockouts_total",
		Help: "Logins refused because the user name is locked out (resultCode 103).",
	})
	m.searches = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "wayfarer_searches_total",
		Help: "Searches by kind (person, or the look-up's method), answer format (json, csv) and outcome (rows, empty, error).",
	}, []string{"kind", "format", "outcome"})
	m.queries = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "wayfarer_db_query_duration_seconds", Buckets: latencyBuckets,
		Help: "Database work of one store call serving a request, by outcome (ok, error, timeout).",
	}, []string{"outcome"})
	m.vault = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "wayfarer_vault_operations_total",
		Help: "Card vault operations by operation (encrypt, decrypt) and outcome (ok, error).",
	}, []string{"operation", "outcome"})
	m.registry.MustRegister(m.requests, m.latency, m.logins, m.lockouts, m.searches, m.queries, m.vault,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	if m == nil {
		return http.NotFoundHandler()
	}
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{Registry: m.registry})
}

// WatchDB reports a connection pool's use (open, in use, idle, waits) as
// go_sql_* series labelled db_name; role names the handle ("primary",
// "replica"). Both engines go through database/sql, so both are covered.
func (m *Metrics) WatchDB(role string, db *sql.DB) {
	if m == nil || db == nil {
		return
	}
	m.registry.MustRegister(collectors.NewDBStatsCollector(db, role))
}

// Request records one answered request. route is the router's pattern
// ("/person/{recNo}", "/v1.8.1/person/{recNo}") or "unmatched"; method
// the route's method, or "other" for a request no route took.
func (m *Metrics) Request(route, method string, status int, d time.Duration) {
	if m == nil {
		return
	}
	m.requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(route, method).Observe(d.Seconds())
}

// Login records a login's outcome by its resultCode.
func (m *Metrics) Login(code int) {
	if m == nil {
		return
	}
	m.logins.WithLabelValues(strconv.Itoa(code)).Inc()
	if code == contract.CodeUserLocked {
		m.lockouts.Inc()
	}
}

// Search records a search: kind "person" or a look-up's method (a fixed
// set), format "json" or "csv", outcome "rows", "empty" or "error".
func (m *Metrics) Search(kind, format, outcome string) {
	if m == nil {
		return
	}
	m.searches.WithLabelValues(kind, format, outcome).Inc()
}

// Query records the database work of one store call; outcome is "ok",
// "error" or "timeout".
func (m *Metrics) Query(d time.Duration, outcome string) {
	if m == nil {
		return
	}
	m.queries.WithLabelValues(outcome).Observe(d.Seconds())
}

// Vault records a card vault operation ("encrypt", "decrypt").
func (m *Metrics) Vault(operation string, err error) {
	if m == nil {
		return
	}
	outcome := "ok"
	if err != nil {
		outcome = "error"
	}
	m.vault.WithLabelValues(operation, outcome).Inc()
}
