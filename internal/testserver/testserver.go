// Package testserver starts real Wayfarer instances for tests: the real
// HTTP server on a loopback port over a real database file (or a fresh
// PostgreSQL database), seeded with the demo agencies and users, with a
// clock the test moves and the logs captured for inspection.
package testserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/demo"
	whttp "github.com/wayfarerhq/wayfarer/internal/http"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/password"
)

// Clock is a clock the test sets and advances.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock starts at t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// Logs is a goroutine-safe buffer the server logs into.
type Logs struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *Logs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// String is everything logged so far.
func (l *Logs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// Server is one running instance.
type Server struct {
	URL    string
	App    *app.App
	Clock  *Clock
	Logs   *Logs
	Engine string // "sqlite" or "postgres"
	DBPath string // the SQLite file, or the PostgreSQL URL
	Client *http.Client
}

// Options adjust an instance.
type Options struct {
	Engine string               // "" or "sqlite"; "postgres" needs WAYFARER_TEST_POSTGRES_URL
	DB     string               // an existing database to share: a second instance on it
	Config func(*app.Config)    // changes to the configuration
	Seed   func(*app.App) error // extra data after the demo agencies and users
}

// CheapPasswords keeps argon2id real but fast enough for a test suite.
var CheapPasswords = password.Params{MemoryKiB: 1024, Iterations: 1, Parallelism: 1, SaltLen: 16, KeyLen: 32}

// TestCardKeys is a fixed card key document for tests (never used outside
// them): one AES-256-GCM key, id "test1", in a Tink keyset.
const TestCardKeys = `{"format":"wayfarer-card-keys/1","keyIds":[{"id":"test1","tinkKeyId":187042946}],` +
	`"keyset":{"key":[{"keyData":{"keyMaterialType":"SYMMETRIC","typeUrl":"type.googleapis.com/google.crypto.tink.AesGcmKey",` +
	`"value":"GiDdA0DW26G+LDUID7INLJphreJSUAyxeEO3H0ccsw4JPw=="},"keyId":187042946,"outputPrefixType":"TINK","status":"ENABLED"}],` +
	`"primaryKeyId":187042946}}`

// Start runs an instance until the test ends.
func Start(t testing.TB, opt Options) *Server {
	t.Helper()
	s := &Server{Clock: NewClock(templateClock), Logs: &Logs{}, Engine: opt.Engine}
	if s.Engine == "" {
		s.Engine = "sqlite"
	}
	cfg := app.Config{PasswordParams: CheapPasswords, CardKeys: TestCardKeys, BuildVersion: "test"}
	if opt.Config != nil {
		opt.Config(&cfg)
	}
	// A new database starts as a copy of the seeded template when the
	// instance would seed the same data (template.go).
	seeded := opt.DB == "" && templateFits(cfg)
	switch {
	case opt.DB != "":
		s.DBPath = opt.DB
	case s.Engine == "sqlite":
		s.DBPath = filepath.Join(t.TempDir(), "wayfarer.db")
		if seeded {
			if err := sqliteFromTemplate(s.DBPath); err != nil {
				t.Fatal(err)
			}
		}
	case s.Engine == "postgres":
		if seeded {
			s.DBPath = seededPostgres(t)
		} else {
			s.DBPath = FreshPostgres(t)
		}
	default:
		t.Fatalf("unknown engine %q", s.Engine)
	}
	cfg.DB = s.DBPath
	log := slog.New(slog.NewTextHandler(s.Logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ctx := context.Background()
	a, err := app.Open(ctx, cfg, log, s.Clock)
	if err != nil {
		t.Fatalf("open app: %v", err)
	}
	s.App = a
	if !seeded {
		if err := demo.Seed(ctx, a.Admin, a.DB); err != nil {
			t.Fatalf("seed: %v", err)
		}
	}
	if opt.Seed != nil {
		if err := opt.Seed(a); err != nil {
			t.Fatalf("seed: %v", err)
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: a.Server, ReadHeaderTimeout: 10 * time.Second}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = whttp.Run(runCtx, srv, l, "", "", 5*time.Second)
	}()
	s.URL = "http://" + l.Addr().String()
	s.Client = &http.Client{Timeout: 30 * time.Second}
	t.Cleanup(func() {
		stop()
		<-done
		a.Close()
	})
	return s
}

// Engines lists the engines behaviour tests run on: SQLite always,
// PostgreSQL when WAYFARER_TEST_POSTGRES_URL is set.
func Engines() []string {
	if postgresURL() != "" {
		return []string{"sqlite", "postgres"}
	}
	return []string{"sqlite"}
}

// Each runs f as a subtest on a fresh instance of every engine.
func Each(t *testing.T, opt Options, f func(t *testing.T, s *Server)) {
	t.Helper()
	for _, e := range Engines() {
		t.Run(e, func(t *testing.T) {
			o := opt
			o.Engine = e
			f(t, Start(t, o))
		})
	}
}

// Response is an answer as a test sees it.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into a map (or fails the test).
func (r *Response) JSON(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v: %s", err, r.Body)
	}
	return m
}

// Code is the body's resultCode (-1 when absent).
func (r *Response) Code(t testing.TB) int {
	t.Helper()
	if c, ok := r.JSON(t)["resultCode"].(float64); ok {
		return int(c)
	}
	return -1
}

// Do sends a request; body may be nil, a string, []byte or any value to
// encode as JSON. headers come in name, value pairs.
func (s *Server) Do(t testing.TB, method, path string, body any, headers ...string) *Response {
	t.Helper()
	r, err := s.Try(method, path, body, headers...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Try is Do answering an error instead of failing the test, for use in
// goroutines other than the test's.
func (s *Server) Try(method, path string, body any, headers ...string) (*Response, error) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		enc, err := jsoncodec.Marshal(b) // as the server writes: core records encode through the codec
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(enc)
	}
	req, err := http.NewRequest(method, s.URL+path, rd)
	if err != nil {
		return nil, err
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := s.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: b}, nil
}

// Bearer is the header pair carrying token.
func Bearer(token string) []string { return []string{"Authorization", "Bearer " + token} }

// Login logs in and returns the token, failing the test on any other answer.
func (s *Server) Login(t testing.TB, alias, user, password string) string {
	t.Helper()
	r := s.Do(t, "POST", "/login", map[string]string{"alias": alias, "userName": user, "password": password})
	if r.Status != 200 {
		t.Fatalf("login %s/%s: %d %s", alias, user, r.Status, r.Body)
	}
	tok, _ := r.JSON(t)["identityToken"].(string)
	if tok == "" {
		t.Fatalf("login %s/%s: no token in %s", alias, user, r.Body)
	}
	return tok
}

// LoginDemo logs in as a demo user of agency DEMO by name ("admin", "agent", ...).
func (s *Server) LoginDemo(t testing.TB, user string) string {
	t.Helper()
	for _, l := range demo.Logins {
		if l.Alias == demo.Alias && l.User == user {
			return s.Login(t, l.Alias, l.User, l.Password)
		}
	}
	t.Fatalf("no demo user %q", user)
	return ""
}
