// Package app wires a Wayfarer instance from its configuration: database,
// migrations, keys, services and the HTTP server. The binary and the tests
// build instances the same way.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	whttp "github.com/wayfarerhq/wayfarer/internal/http"
	"github.com/wayfarerhq/wayfarer/internal/jsoncodec"
	"github.com/wayfarerhq/wayfarer/internal/password"
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
	MaxFailures       int
	LockoutDuration   time.Duration
	MinClientVersion  string
	BodyLimit         int64
	MaxSearchRows     int64         // rows of one search answer; 0: DefaultMaxSearchRows, negative: no bound
	QueryTimeout      time.Duration // database work of one request; 0: DefaultQueryTimeout, negative: none
	SQLiteSynchronous string        // "full" (default) or "normal"; see sqlite.Options
	CardKeyFile       string        // key file of the card vault
	CardKeys          string        // key text of the card vault (WAYFARER_CARD_KEYS), wins over the file
	UnknownFields     string        // request members no field table knows: "reject" (default) or "warn"
	BuildVersion      string
	PasswordParams    password.Params
	HashConcurrency   int

	// Attachments bound the bytes of file attachments, per file and per
	// person (--attachment-max-bytes, --attachment-max-person-bytes); zero: the defaults.
	Attachments wayfarer.AttachmentLimits
}

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
	if c.HashConcurrency == 0 {
		c.HashConcurrency = 4
	}
}

// App is one wired instance.
type App struct {
	DB     *sqlstore.DB
	Login  *wayfarer.LoginService
	Admin  *wayfarer.AdminService
	Hasher *password.Hasher
	Server *whttp.Server
	Clock  wayfarer.Clock
	// CardKeys is the card keyset in use; nil when none is configured.
	CardKeys *vault.Ring
}

// Open opens and migrates the database and wires the services.
func Open(ctx context.Context, cfg Config, log *slog.Logger, clock wayfarer.Clock) (*App, error) {
	cfg.Defaults()
	db, err := storage.OpenWith(cfg.DB, storage.Options{Replica: cfg.DBReplica, SQLiteSynchronous: cfg.SQLiteSynchronous})
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
	if err := migrateOrCheck(ctx, db, cfg.NoMigrate); err != nil {
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
	hasher := password.New(cfg.PasswordParams, cfg.HashConcurrency)
	login := &wayfarer.LoginService{
		Store: db, Hasher: hasher, Tokens: token.NewCodec(key, clock.Now), Clock: clock,
		Config: wayfarer.LoginConfig{
			MaxFailures: cfg.MaxFailures, LockoutDuration: cfg.LockoutDuration,
			TokenLifetime: cfg.TokenLifetime, MinClientVersion: cfg.MinClientVersion, AppName: "Wayfarer",
		},
	}
	ring, err := openCardKeys(ctx, db, cfg, log, clock)
	if err != nil {
		return nil, err
	}
	unknown, err := jsoncodec.ParseUnknownFields(cfg.UnknownFields)
	if err != nil {
		return nil, err
	}
	srv := whttp.NewServer(whttp.Config{BodyLimit: cfg.BodyLimit, BuildVersion: cfg.BuildVersion, UnknownFields: unknown}, log)
	srv.Login = login
	srv.DB = db
	srv.Persons = &wayfarer.PersonService{Store: db, Sealer: sealerOf(ring), Clock: clock, Log: log, Attachments: cfg.Attachments.WithDefaults()}
	srv.Search = &wayfarer.SearchService{Store: db, MaxRows: max(cfg.MaxSearchRows, 0)}
	return &App{
		DB: db, Login: login, Hasher: hasher, Server: srv, Clock: clock, CardKeys: ring,
		Admin: &wayfarer.AdminService{Store: db, Auth: db, Hasher: hasher, Clock: clock},
	}, nil
}

// Close releases the database.
func (a *App) Close() error { return a.DB.Close() }

// SweepTokens deletes expired sessions, and failed logins of unknown names
// a day old, every interval until ctx ends.
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
			if _, err := a.DB.DeleteStaleLoginFailures(ctx, now.Add(-24*time.Hour), now); err != nil {
				log.Warn("login failure sweep failed", "error", err.Error())
			}
		}
	}
}
