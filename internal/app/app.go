// Package app wires a Wayfarer instance from its configuration: database,
// migrations, keys, services and the HTTP server. The binary and the tests
// build instances the same way.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"time"

	whttp "github.com/wayfarerhq/wayfarer/internal/http"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/metrics"
	"github.com/wayfarerhq/wayfarer/internal/password"
	"github.com/wayfarerhq/wayfarer/internal/sqlite"
	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
	"github.com/wayfarerhq/wayfarer/internal/storage"
	"github.com/wayfarerhq/wayfarer/internal/token"
	"github.com/wayfarerhq/wayfarer/internal/vault"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Config is everything an instance is configured by.
type Config struct {
	DB, DBReplica     string
	NoMigrate         bool   // check that no migration is pending instead of applying them
	TokenKey          string // HMAC key for identity tokens; empty: generated once and kept in the database
	TokenLifetime     time.Duration
	MaxFailures       int // failed logins from one address that lock a name for it
	MaxUserFailures   int // failed logins from all addresses that lock a name for all; negative: no such lock
	LockoutDuration   time.Duration
	LoginFailureRate  int    // failed logins a minute per client address; negative: no limit
	TrustedProxies    string // comma-separated CIDRs whose X-Forwarded-For names the client
	MinClientVersion  string
	BodyLimit         int64
	MaxSearchRows     int64         // rows of one search answer; 0: DefaultMaxSearchRows, negative: no bound
	QueryTimeout      time.Duration // database work of one request; 0: DefaultQueryTimeout, negative: none
	SQLiteSynchronous string        // "full" (default) or "normal"; see sqlite.Options
	SQLiteMmapSize    int64         // bytes of the SQLite file read through a memory map: 0 sqlite.DefaultMmapSize, negative none
	CardKeyFile       string        // key file of the card vault
	CardKeys          string        // key text of the card vault (WAYFARER_CARD_KEYS), wins over the file
	UnknownFields     string        // request members no field table knows: "reject" (default) or "warn"
	BuildVersion      string
	PasswordParams    password.Params
	HashSlots         int           // password checks at once (default: half the cores, at least 1)
	HashWait          time.Duration // how long a login waits for a hashing slot before 429
	HashProcess       bool          // check passwords in a child process at a low CPU priority (serve does)
	HashNice          int           // that process's nice level (default DefaultHashNice)
	SessionCache      int           // sessions kept in memory; negative: none (every request asks the store)
	SessionPoll       time.Duration // how often the revocation log is read

	CORSOrigins      string // browser origins allowed to call (--cors-origins); empty: CORS off
	MetricsElsewhere bool   // /metrics has its own listener (--metrics-addr), not the API's

	// Attachments bound the bytes of file attachments, per file and per
	// person (--attachment-max-bytes, --attachment-max-person-bytes); zero: the defaults.
	Attachments wayfarer.AttachmentLimits
}

// Defaults of the login defences (docs/security.md, "Logins and lockout").
const (
	DefaultMaxUserFailures  = 50
	DefaultLoginFailureRate = 30
	DefaultHashWait         = 500 * time.Millisecond
	DefaultHashNice         = 19
	DefaultSessionCache     = 10_000
	DefaultSessionPoll      = 500 * time.Millisecond
	// hashWaitersPerSlot bounds how many logins wait for a hashing slot.
	hashWaitersPerSlot = 64
	// sessionTTL bounds how long a session is served from memory before it
	// is read again; sessionStaleAfter is how long the cache stays in use
	// while the revocation log cannot be read.
	sessionTTL        = 30 * time.Second
	sessionStaleAfter = 5 * time.Second
	// failureAddresses bounds the addresses the per-address limit remembers.
	failureAddresses = 100_000
)

// DefaultHashSlots is half the cores, at least one: an argon2id check with
// parallelism 2 keeps two cores busy.
func DefaultHashSlots() int { return max(1, runtime.NumCPU()/2) }

// DefaultMaxSearchRows is the most rows one search answers unless
// configured otherwise (docs/search.md, "Paging").
const DefaultMaxSearchRows = 100_000

// DefaultQueryTimeout bounds the database work of one request unless
// configured otherwise (docs/security.md, "Searches and the database").
const DefaultQueryTimeout = 5 * time.Second

// Defaults fills the zero fields with the documented defaults.
func (c *Config) Defaults() {
	if c.TokenLifetime == 0 {
		c.TokenLifetime = 30 * time.Minute
	}
	if c.MaxFailures == 0 {
		c.MaxFailures = 5
	}
	if c.LockoutDuration == 0 {
		c.LockoutDuration = 15 * time.Minute
	}
	if c.MaxSearchRows == 0 {
		c.MaxSearchRows = DefaultMaxSearchRows
	}
	if c.QueryTimeout == 0 {
		c.QueryTimeout = DefaultQueryTimeout
	}
	if c.BodyLimit == 0 {
		c.BodyLimit = 1 << 20
	}
	if c.PasswordParams == (password.Params{}) {
		c.PasswordParams = password.DefaultParams
	}
	if c.MaxUserFailures == 0 {
		c.MaxUserFailures = DefaultMaxUserFailures
	}
	if c.LoginFailureRate == 0 {
		c.LoginFailureRate = DefaultLoginFailureRate
	}
	if c.HashSlots <= 0 {
		c.HashSlots = DefaultHashSlots()
	}
	if c.HashWait == 0 {
		c.HashWait = DefaultHashWait
	}
	if c.HashNice == 0 {
		c.HashNice = DefaultHashNice
	}
	if c.SessionCache == 0 {
		c.SessionCache = DefaultSessionCache
	}
	if c.SessionPoll <= 0 {
		c.SessionPoll = DefaultSessionPoll
	}
}

// App is one wired instance.
type App struct {
	DB    *sqlstore.DB
	Login *wayfarer.LoginService
	Admin *wayfarer.AdminService
	// Operators are the host's operators (docs/operators.md).
	Operators *wayfarer.OperatorService
	Hasher    *password.Hasher
	Server    *whttp.Server
	Clock     wayfarer.Clock
	// Metrics is the instance's Prometheus registry (GET /metrics).
	Metrics *metrics.Metrics
	// CardKeys is the card keyset in use; nil when none is configured.
	CardKeys *vault.Ring

	stopFollowing func()           // ends the session cache's revocation follower
	hashWorker    *password.Worker // the child process checking passwords, if any
}

// Open opens and migrates the database and wires the services.
func Open(ctx context.Context, cfg Config, log *slog.Logger, clock wayfarer.Clock) (*App, error) {
	cfg.Defaults()
	db, err := storage.OpenWith(cfg.DB, storage.Options{Replica: cfg.DBReplica, SQLiteSynchronous: cfg.SQLiteSynchronous, SQLiteMmapSize: cfg.SQLiteMmapSize,
		SQLiteLockWait: sqliteLockWait(cfg.QueryTimeout)})
	if err != nil {
		return nil, err
	}
	db.SetQueryTimeout(cfg.QueryTimeout) // negative: none
	a, err := wire(ctx, db, cfg, log, clock)
	if err != nil {
		db.Close()
		return nil, err
	}
	return a, nil
}

// sqliteLockWait is how long a SQLite statement waits for the write lock:
// no longer than the query time limit, so that a statement the store runs
// without its context's watcher (sqlstore.DB.SetLockWait) still ends
// within the limit; SQLite's default where the limit is longer or none.
func sqliteLockWait(limit time.Duration) time.Duration {
	if limit <= 0 || limit > sqlite.DefaultLockWait {
		return sqlite.DefaultLockWait
	}
	return limit
}

// ErrMigrationsPending is Open's answer under NoMigrate when the database
// is behind the binary.
var ErrMigrationsPending = errors.New("the database has pending migrations: run 'wayfarer migrate up' first (--no-migrate is set)")

// migrateOrCheck applies pending migrations, or with noMigrate only checks
// that none is pending: hosts behind a transaction-mode pooler, where the
// migration lock cannot work, migrate in a separate step.
func migrateOrCheck(ctx context.Context, db *sqlstore.DB, noMigrate bool) error {
	if !noMigrate {
		_, err := db.Migrate(ctx)
		return err
	}
	pending, err := db.MigrationsPending(ctx)
	if err != nil {
		return err
	}
	if pending {
		return ErrMigrationsPending
	}
	return nil
}

func wire(ctx context.Context, db *sqlstore.DB, cfg Config, log *slog.Logger, clock wayfarer.Clock) (*App, error) {
	log = slog.New(whttp.WithRequestIDs(log.Handler())) // a request's lines carry its ID
	if err := migrateOrCheck(ctx, db, cfg.NoMigrate); err != nil {
		return nil, err
	}
	// A bulk load killed half way left indexes (and on PostgreSQL foreign
	// keys) to build (sqlstore/bulk_defer.go): build them before serving,
	// so no search runs without them.
	if n, err := db.RestoreDeferred(ctx); err != nil {
		return nil, fmt.Errorf("indexes and keys left by a bulk load: %w", err)
	} else if n > 0 {
		log.Info("built the indexes and keys an unfinished bulk load left dropped", "objects", n)
	}
	// Statistics that make SQLite plan every statement again at each run
	// (sqlstore/statistics.go).
	if _, err := db.DropValueHistograms(ctx); err != nil {
		return nil, err
	}
	key := []byte(cfg.TokenKey)
	if len(key) == 0 {
		var err error
		if key, err = db.Secret(ctx, "identity-token-hmac", 32); err != nil {
			return nil, fmt.Errorf("token key: %w", err)
		}
	} else if len(key) < 32 {
		return nil, fmt.Errorf("the token key must be at least 32 bytes long")
	}
	proxies, err := whttp.ParseTrustedProxies(cfg.TrustedProxies)
	if err != nil {
		return nil, err
	}
	cors, err := whttp.ParseCORSOrigins(cfg.CORSOrigins)
	if err != nil {
		return nil, err
	}
	hasher := password.New(cfg.PasswordParams, cfg.HashSlots)
	worker := startHashWorker(cfg, hasher, log)
	login := &wayfarer.LoginService{
		Store: db, Hasher: hasher, Tokens: token.NewCodec(key, clock.Now), Clock: clock,
		Config: wayfarer.LoginConfig{
			Lockout: wayfarer.LockoutPolicy{MaxFailures: cfg.MaxFailures, MaxUserFailures: max(cfg.MaxUserFailures, 0),
				Lockout: cfg.LockoutDuration},
			TokenLifetime: cfg.TokenLifetime, MinClientVersion: cfg.MinClientVersion, AppName: "Wayfarer",
		},
		Hashing: wayfarer.NewHashGate(cfg.HashSlots, cfg.HashWait, cfg.HashSlots*hashWaitersPerSlot),
	}
	if cfg.LoginFailureRate > 0 {
		login.Failures = wayfarer.NewFailureLimiter(cfg.LoginFailureRate, failureAddresses)
	}
	ring, err := openCardKeys(ctx, db, cfg, log, clock)
	if err != nil {
		return nil, err
	}
	unknown, err := jsoncodec.ParseUnknownFields(cfg.UnknownFields)
	if err != nil {
		return nil, err
	}
	m := metrics.New()
	m.WatchDB("primary", db.Primary())
	m.WatchDB("replica", db.Replica())
	db.SetQueryObserver(m.Query)
	srv := whttp.NewServer(whttp.Config{BodyLimit: cfg.BodyLimit, BuildVersion: cfg.BuildVersion, UnknownFields: unknown,
		TrustedProxies: proxies, CORS: cors, MetricsElsewhere: cfg.MetricsElsewhere}, log)
	srv.Login = login
	srv.DB = db
	srv.Metrics = m
	srv.Persons = &wayfarer.PersonService{Store: db, Sealer: sealerOf(ring, m), Clock: clock, Log: log, Attachments: cfg.Attachments.WithDefaults()}
	srv.Search = &wayfarer.SearchService{Store: db, MaxRows: max(cfg.MaxSearchRows, 0)}
	srv.Activities = &wayfarer.ActivityService{Store: db, Clock: clock}
	srv.Flat = &wayfarer.FlatSearchService{Store: db, MaxRows: max(cfg.MaxSearchRows, 0)}
	srv.Branches = &wayfarer.BranchService{Search: srv.Flat}
	srv.Tags = &wayfarer.TagService{Store: db, Clock: clock}
	srv.Affiliations = &wayfarer.AffiliationService{Store: db}
	a := &App{
		DB: db, Login: login, Hasher: hasher, Server: srv, Clock: clock, CardKeys: ring, hashWorker: worker, Metrics: m,
		Admin:     &wayfarer.AdminService{Store: db, Auth: db, Hasher: hasher, Clock: clock},
		Operators: &wayfarer.OperatorService{Store: db, Auth: db, Hasher: hasher, Clock: clock},
	}
	login.Operators = a.Operators
	srv.Operators = a.Operators
	srv.OperatorAdmin = &wayfarer.OperatorAdmin{Admin: a.Admin, Operators: a.Operators}
	if cfg.SessionCache > 0 {
		a.followRevocations(cfg, log)
	}
	return a, nil
}

// startHashWorker moves password checks into a child process at a low CPU
// priority (password.Worker), so that a flood of logins cannot take the
// cores from other requests. Where the child cannot start, checks run in
// this process, as in tests.
func startHashWorker(cfg Config, hasher *password.Hasher, log *slog.Logger) *password.Worker {
	if !cfg.HashProcess {
		return nil
	}
	exe, err := os.Executable()
	if err == nil {
		var w *password.Worker
		if w, err = password.StartWorker(exe, cfg.HashNice); err == nil {
			hasher.UseWorker(w)
			return w
		}
	}
	log.Warn("password checks run in the server process: no worker process", "error", err.Error())
	return nil
}

// followRevocations gives the login service a session cache and keeps it
// following the revocation log until Close: revocations committed through
// this instance apply at once, those of other processes on the next read
// of the log (woken at once by PostgreSQL's NOTIFY, else every SessionPoll).
func (a *App) followRevocations(cfg Config, log *slog.Logger) {
	cache := wayfarer.NewSessionCache(wayfarer.SessionCacheConfig{
		Size: cfg.SessionCache, TTL: sessionTTL, StaleAfter: sessionStaleAfter}, a.Clock)
	a.Login.Sessions = cache
	a.DB.OnRevoke(cache.Revoke)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		wake, listening := a.DB.RevocationWakeups(ctx, log)
		cache.Follow(ctx, a.DB, cfg.SessionPoll, wake, log)
		<-listening
	}()
	a.stopFollowing = func() { cancel(); <-done }
}

// Close stops following revocations, ends the password worker and
// releases the database.
func (a *App) Close() error {
	if a.stopFollowing != nil {
		a.stopFollowing()
	}
	if a.hashWorker != nil {
		_ = a.hashWorker.Close()
	}
	return a.DB.Close()
}

// SweepTokens deletes expired sessions, failed-login counters a day old
// (unless they still lock) and revocations an hour old, every interval
// until ctx ends.
func (a *App) SweepTokens(ctx context.Context, interval time.Duration, log *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			now := a.Clock.Now()
			if n, err := a.DB.DeleteExpiredTokens(ctx, now); err != nil {
				log.Warn("token sweep failed", "error", err.Error())
			} else if n > 0 {
				log.Info("expired sessions removed", "count", n)
			}
			if _, err := a.DB.DeleteStaleLoginAttempts(ctx, now.Add(-24*time.Hour), now); err != nil {
				log.Warn("login failure sweep failed", "error", err.Error())
			}
			// Revocations are stamped with the real time, not the clock.
			if _, err := a.DB.DeleteOldRevocations(ctx, time.Now().Add(-time.Hour)); err != nil {
				log.Warn("revocation sweep failed", "error", err.Error())
			}
		}
	}
}
