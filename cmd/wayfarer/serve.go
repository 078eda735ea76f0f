package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/demo"
	whttp "github.com/wayfarerhq/wayfarer/internal/http"
	"github.com/wayfarerhq/wayfarer/internal/sqlite"
	"github.com/wayfarerhq/wayfarer/internal/storage"
	"github.com/wayfarerhq/wayfarer/internal/tracing"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "run the HTTP server",
		Description: `Applies pending migrations, then serves the JSON interface.

With --demo it first creates the demo agencies, users and persons if they are
missing (restarting does not duplicate them) and prints the demo logins.`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "addr", Value: "127.0.0.1:8080", Usage: "listen address", Sources: cli.EnvVars("WAYFARER_ADDR")},
			&cli.BoolFlag{Name: "demo", Usage: "create the demo data if missing and print the demo logins", Sources: cli.EnvVars("WAYFARER_DEMO")},
			&cli.StringFlag{Name: "tls-cert", Usage: "certificate file: serve HTTPS directly", Sources: cli.EnvVars("WAYFARER_TLS_CERT")},
			&cli.StringFlag{Name: "tls-key", Usage: "private key file for --tls-cert", Sources: cli.EnvVars("WAYFARER_TLS_KEY")},
			&cli.DurationFlag{Name: "shutdown-grace", Value: 20 * time.Second, Usage: "how long requests in flight may take to finish on SIGINT/SIGTERM", Sources: cli.EnvVars("WAYFARER_SHUTDOWN_GRACE")},
			&cli.StringFlag{Name: "metrics-addr", Usage: "serve /metrics on this address only, not on --addr (default: /metrics on --addr)", Sources: cli.EnvVars("WAYFARER_METRICS_ADDR")},
			&cli.StringFlag{Name: "cors-origins", Usage: "comma-separated browser origins allowed to call, e.g. https://app.example.com (\"*\": any; default: none, CORS off)", Sources: cli.EnvVars("WAYFARER_CORS_ORIGINS")},
			&cli.StringFlag{Name: "otlp-endpoint", Usage: "send OpenTelemetry traces to this OTLP/HTTP collector, e.g. http://127.0.0.1:4318 (default: no tracing)", Sources: cli.EnvVars("WAYFARER_OTLP_ENDPOINT")},
		}, instanceFlags()...),
		Action: runServe,
	}
}

// instanceFlags configure a Wayfarer instance; serve and the tools share them.
func instanceFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "db-replica", Usage: "postgres:// URL of a read replica for searches with readOnlyIntent", Sources: cli.EnvVars("WAYFARER_DB_REPLICA")},
		&cli.StringFlag{Name: "token-key", Usage: "HMAC key (32+ bytes) for identity tokens; default: generated once and kept in the database", Sources: cli.EnvVars("WAYFARER_TOKEN_KEY")},
		&cli.DurationFlag{Name: "token-lifetime", Value: 30 * time.Minute, Usage: "identity token lifetime", Sources: cli.EnvVars("WAYFARER_TOKEN_LIFETIME")},
		&cli.IntFlag{Name: "max-failed-logins", Value: 5, Usage: "failed logins from one address that lock a user name for that address", Sources: cli.EnvVars("WAYFARER_MAX_FAILED_LOGINS")},
		&cli.IntFlag{Name: "max-failed-logins-per-user", Value: app.DefaultMaxUserFailures, Usage: "failed logins from all addresses within --lockout that lock a user name for everybody (0: never)", Sources: cli.EnvVars("WAYFARER_MAX_FAILED_LOGINS_PER_USER")},
		&cli.DurationFlag{Name: "lockout", Value: 15 * time.Minute, Usage: "how long a lockout lasts", Sources: cli.EnvVars("WAYFARER_LOCKOUT")},
		&cli.IntFlag{Name: "login-failure-rate", Value: app.DefaultLoginFailureRate, Usage: "failed logins a minute per client address, then 429 (0: no limit)", Sources: cli.EnvVars("WAYFARER_LOGIN_FAILURE_RATE")},
		&cli.StringFlag{Name: "trusted-proxies", Usage: "comma-separated CIDRs of proxies whose X-Forwarded-For names the client (default: none; the connection's address is the client)", Sources: cli.EnvVars("WAYFARER_TRUSTED_PROXIES")},
		&cli.IntFlag{Name: "hash-slots", Usage: "password checks at once (default: half the cores, at least 1)", Sources: cli.EnvVars("WAYFARER_HASH_SLOTS")},
		&cli.DurationFlag{Name: "hash-wait", Value: app.DefaultHashWait, Usage: "how long a login waits for a password-check slot before 429 (0: not at all)", Sources: cli.EnvVars("WAYFARER_HASH_WAIT")},
		&cli.BoolFlag{Name: "hash-process", Value: true, Usage: "check passwords in a child process at a low CPU priority, so a login flood cannot slow other requests (false: in the server process)", Sources: cli.EnvVars("WAYFARER_HASH_PROCESS")},
		&cli.IntFlag{Name: "hash-nice", Value: app.DefaultHashNice, Usage: "nice level of that process, 1-19 (lower: logins keep more CPU while other requests load the server)", Sources: cli.EnvVars("WAYFARER_HASH_NICE")},
		&cli.IntFlag{Name: "session-cache", Value: app.DefaultSessionCache, Usage: "sessions kept in memory (0: none; every request reads the database)", Sources: cli.EnvVars("WAYFARER_SESSION_CACHE")},
		&cli.StringFlag{Name: "min-client-version", Usage: "refuse logins whose " + contract.ClientVersionHeader + " header is lower (default: accept all)", Sources: cli.EnvVars("WAYFARER_MIN_CLIENT_VERSION")},
		&cli.Int64Flag{Name: "body-limit", Value: 1 << 20, Usage: "largest request body in bytes", Sources: cli.EnvVars("WAYFARER_BODY_LIMIT")},
		&cli.Int64Flag{Name: "max-search-rows", Value: app.DefaultMaxSearchRows, Usage: "most rows one search answers; larger answers are refused, asking for pages (0: no limit)", Sources: cli.EnvVars("WAYFARER_MAX_SEARCH_ROWS")},
		&cli.StringFlag{Name: "card-key-file", Usage: "card vault key file (default with --demo on SQLite: <db>.cardkey)", Sources: cli.EnvVars("WAYFARER_CARD_KEY_FILE")},
		&cli.StringFlag{Name: "unknown-fields", Value: "reject", Usage: "a request member no field table knows: reject (400) or warn (skipped, logged once per field)", Sources: cli.EnvVars("WAYFARER_UNKNOWN_FIELDS")},
		&cli.DurationFlag{Name: "query-timeout", Value: app.DefaultQueryTimeout, Usage: "longest database work of one request (a search, a save); longer ones are stopped and answer 503 (0: no limit)", Sources: cli.EnvVars("WAYFARER_QUERY_TIMEOUT")},
		&cli.Int64Flag{Name: "attachment-max-bytes", Value: wayfarer.DefaultAttachmentMaxBytes, Usage: "largest file a person's attachment may hold, in bytes; person saves may carry that much more than --body-limit", Sources: cli.EnvVars("WAYFARER_ATTACHMENT_MAX_BYTES")},
		&cli.Int64Flag{Name: "attachment-max-person-bytes", Value: wayfarer.DefaultAttachmentMaxPersonBytes, Usage: "most bytes all file attachments of one person may hold", Sources: cli.EnvVars("WAYFARER_ATTACHMENT_MAX_PERSON_BYTES")},
		&cli.StringFlag{Name: "sqlite-synchronous", Value: "full", Usage: "SQLite only: full (a saved change survives a power cut) or normal (faster saves; a power cut may lose the last ones)", Sources: cli.EnvVars("WAYFARER_SQLITE_SYNCHRONOUS")},
		sqliteMmapFlag(),
	}
}

// instanceConfig reads the instance flags; WAYFARER_CARD_KEYS, a secret,
// is read from the environment only, never from a flag.
func instanceConfig(cmd *cli.Command) app.Config {
	return app.Config{
		DB:                cmd.String("db"),
		DBReplica:         cmd.String("db-replica"),
		NoMigrate:         cmd.Bool("no-migrate"),
		TokenKey:          cmd.String("token-key"),
		TokenLifetime:     cmd.Duration("token-lifetime"),
		MaxFailures:       int(cmd.Int("max-failed-logins")),
		MaxUserFailures:   zeroOff(cmd.Int("max-failed-logins-per-user")),
		LockoutDuration:   cmd.Duration("lockout"),
		LoginFailureRate:  zeroOff(cmd.Int("login-failure-rate")),
		TrustedProxies:    cmd.String("trusted-proxies"),
		HashSlots:         int(cmd.Int("hash-slots")),
		HashWait:          zeroOff(cmd.Duration("hash-wait")),
		HashProcess:       cmd.Bool("hash-process"),
		HashNice:          int(cmd.Int("hash-nice")),
		SessionCache:      zeroOff(cmd.Int("session-cache")),
		MinClientVersion:  cmd.String("min-client-version"),
		BodyLimit:         cmd.Int64("body-limit"),
		MaxSearchRows:     zeroOff(cmd.Int64("max-search-rows")),
		QueryTimeout:      zeroOff(cmd.Duration("query-timeout")),
		SQLiteSynchronous: cmd.String("sqlite-synchronous"),
		SQLiteMmapSize:    zeroOff(cmd.Int64("sqlite-mmap-size")),
		CardKeyFile:       cmd.String("card-key-file"),
		CardKeys:          cardKeysFromEnv(),
		UnknownFields:     cmd.String("unknown-fields"),
		BuildVersion:      version,
		Attachments: wayfarer.AttachmentLimits{
			MaxBytes: cmd.Int64("attachment-max-bytes"), MaxPersonBytes: cmd.Int64("attachment-max-person-bytes"),
		},
	}
}

// sqliteMmapFlag is --sqlite-mmap-size, for serve and bench alike; a
// negative size is refused, not read as "none".
func sqliteMmapFlag() cli.Flag {
	return &cli.Int64Flag{Name: "sqlite-mmap-size", Value: sqlite.DefaultMmapSize, Sources: cli.EnvVars("WAYFARER_SQLITE_MMAP_SIZE"),
		Usage: "SQLite only: bytes of the database file read through a memory map, shared by all connections (0: none, every connection reads into its own cache)",
		Validator: func(n int64) error {
			if n < 0 {
				return fmt.Errorf("--sqlite-mmap-size %d: a size in bytes, or 0 for no map", n)
			}
			return nil
		}}
}

// zeroOff maps a flag's "0: off" (none, no limit, at once) onto
// app.Config's negative (its 0 is the default).
func zeroOff[T int | int64 | time.Duration](flag T) T {
	if flag == 0 {
		return -1
	}
	return flag
}

func runServe(ctx context.Context, cmd *cli.Command) error {
	log, err := newLogger(cmd)
	if err != nil {
		return err
	}
	cfg := instanceConfig(cmd)
	cfg.CORSOrigins = cmd.String("cors-origins")
	cfg.MetricsElsewhere = cmd.String("metrics-addr") != ""
	isDemo := cmd.Bool("demo")
	if !isDemo { // only --demo may create the database
		if err := storage.MustExist(cfg.DB); err != nil {
			return err
		}
	}
	if cert, key := cmd.String("tls-cert"), cmd.String("tls-key"); (cert == "") != (key == "") {
		return errors.New("--tls-cert and --tls-key go together")
	}
	if ep := cmd.String("otlp-endpoint"); ep != "" {
		stop, err := tracing.Start(ctx, ep, version)
		if err != nil {
			return err
		}
		defer func() { _ = stop(context.WithoutCancel(ctx)) }()
		log.Info("tracing", "otlp_endpoint", ep)
	}
	if isDemo && cfg.CardKeyFile == "" && cfg.CardKeys == "" && !storage.IsPostgres(cfg.DB) {
		cfg.CardKeyFile = cfg.DB + ".cardkey"
		created, err := ensureCardKeyFile(cfg.CardKeyFile)
		if err != nil {
			return err
		}
		if created {
			fmt.Printf("Demo mode: created the card encryption key file %s (back it up; it is not in the database).\n", cfg.CardKeyFile)
		}
	}
	if !cfg.HasCardKey() {
		return app.ErrNoCardKey
	}
	a, err := app.Open(ctx, cfg, log, wayfarer.SystemClock{})
	if err != nil {
		return err
	}
	defer a.Close()
	if isDemo {
		if err := seedDemo(ctx, a); err != nil {
			return fmt.Errorf("demo data: %w", err)
		}
	}
	l, err := net.Listen("tcp", cmd.String("addr"))
	if err != nil {
		return err
	}
	if addr := cmd.String("metrics-addr"); addr != "" {
		if err := serveMetrics(ctx, addr, a, log); err != nil {
			return err
		}
	}
	scheme := "http"
	if cmd.String("tls-cert") != "" {
		scheme = "https"
	}
	base := scheme + "://" + l.Addr().String()
	printBanner(base, cfg.DB, isDemo)
	log.Info("serving", "addr", l.Addr().String(), "tls", scheme == "https", "db_engine", a.DB.Dialect.Name, "version", version)

	go a.SweepTokens(ctx, 10*time.Minute, log)
	srv := &http.Server{
		Handler:           a.Server,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	err = whttp.Run(ctx, srv, l, cmd.String("tls-cert"), cmd.String("tls-key"), cmd.Duration("shutdown-grace"))
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	log.Info("stopped")
	return err
}

// serveMetrics serves /metrics alone on addr (--metrics-addr) until ctx
// ends, so that the metrics can stay on an internal interface.
func serveMetrics(ctx context.Context, addr string, a *app.App, log *slog.Logger) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("--metrics-addr: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", a.Metrics.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	log.Info("serving metrics", "addr", l.Addr().String())
	go func() {
		if err := whttp.Run(ctx, srv, l, "", "", time.Second); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics listener stopped", "error", err.Error())
		}
	}()
	return nil
}

func printBanner(base, db string, isDemo bool) {
	fmt.Printf("Wayfarer %s listening on %s (database: %s)\n", version, base, storage.Redact(db))
	if !isDemo {
		return
	}
	fmt.Println("Demo mode: these demo logins exist only because --demo created them:")
	for _, l := range demo.Logins {
		fmt.Printf("  %-10s %-9s / %-14s %s\n", l.Alias, l.User, l.Password, l.Note)
	}
	fmt.Printf("Try:\n  curl -s -X POST %s/login -H 'Content-Type: application/json' -d '{\"alias\":\"DEMO\",\"userName\":\"admin\",\"password\":\"demo-admin\"}'\n", base)
}
