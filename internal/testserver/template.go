package testserver

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/app"
	"github.com/wayfarerhq/wayfarer/internal/demo"
)

// Migrating and seeding a database costs more than most tests that use it
// (on PostgreSQL about half a second, several hundred times a run). So each
// test process migrates and seeds one template per engine, once, and every
// instance that would seed the same data starts on a copy of it: a file
// copy on SQLite, CREATE DATABASE ... TEMPLATE on PostgreSQL. The data is
// the same as a fresh seed: the template is made with the same clock,
// password parameters and card keys (templateFits).

// templateClock is the time Start's clocks begin at, and the template is seeded at.
var templateClock = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

// templateMaxAge is how old another process's leftover template may grow
// before a new process removes it (a process cannot drop its own at exit).
const templateMaxAge = time.Hour

type template struct {
	once sync.Once
	db   string // the SQLite file, or the PostgreSQL database name
	err  error
}

var templates = map[string]*template{"sqlite": {}, "postgres": {}}

// templateFits reports whether an instance configured as cfg seeds exactly
// what the template holds.
func templateFits(cfg app.Config) bool {
	return cfg.CardKeys == TestCardKeys && cfg.CardKeyFile == "" && cfg.PasswordParams == CheapPasswords &&
		cfg.TokenKey == "" && !cfg.NoMigrate
}

// templateConfig is the configuration the template is made with.
func templateConfig(db string) app.Config {
	return app.Config{DB: db, PasswordParams: CheapPasswords, CardKeys: TestCardKeys, BuildVersion: "test", SessionCache: -1}
}

// seedTemplate migrates and seeds the database db, and closes it.
func seedTemplate(db string) error {
	ctx := context.Background()
	a, err := app.Open(ctx, templateConfig(db), slog.New(slog.NewTextHandler(io.Discard, nil)), NewClock(templateClock))
	if err != nil {
		return err
	}
	if err := demo.Seed(ctx, a.Admin, a.DB); err != nil {
		a.Close()
		return err
	}
	return a.Close()
}

// sqliteFromTemplate writes a copy of the seeded SQLite template to path.
func sqliteFromTemplate(path string) error {
	tp := templates["sqlite"]
	tp.once.Do(func() {
		removeOldSQLiteTemplates()
		dir, err := os.MkdirTemp("", "wayfarer-testtpl-")
		if err != nil {
			tp.err = err
			return
		}
		tp.db = filepath.Join(dir, "wayfarer.db")
		tp.err = seedTemplate(tp.db)
	})
	if tp.err != nil {
		return fmt.Errorf("sqlite template: %w", tp.err)
	}
	src, err := os.Open(tp.db)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}

func removeOldSQLiteTemplates() {
	old, _ := filepath.Glob(filepath.Join(os.TempDir(), "wayfarer-testtpl-*"))
	for _, dir := range old {
		if fi, err := os.Stat(dir); err == nil && time.Since(fi.ModTime()) > templateMaxAge {
			_ = os.RemoveAll(dir)
		}
	}
}

// postgresTemplate returns the name of this process's seeded PostgreSQL
// template database on the server admin names, making it on first use.
func postgresTemplate(ctx context.Context, db *sql.DB, admin *url.URL) (string, error) {
	tp := templates["postgres"]
	tp.once.Do(func() {
		removeOldPostgresTemplates(ctx, db)
		tp.db = fmt.Sprintf("wayfarer_tpl_%d_%d", time.Now().Unix(), os.Getpid())
		if _, err := db.ExecContext(ctx, `CREATE DATABASE `+tp.db+` TEMPLATE template0 ENCODING 'UTF8'`); err != nil {
			tp.err = err
			return
		}
		u := *admin
		u.Path = "/" + tp.db
		tp.err = seedTemplate(u.String())
	})
	return tp.db, tp.err
}

// removeOldPostgresTemplates drops templates other processes left behind
// more than templateMaxAge ago (their names carry their creation time).
func removeOldPostgresTemplates(ctx context.Context, db *sql.DB) {
	rows, err := db.QueryContext(ctx, `SELECT datname FROM pg_database WHERE datname LIKE 'wayfarer\_tpl\_%'`)
	if err != nil {
		return
	}
	var old []string
	for rows.Next() {
		var name string
		if rows.Scan(&name) != nil {
			continue
		}
		parts := strings.Split(name, "_")
		if len(parts) != 4 {
			continue
		}
		if at, err := strconv.ParseInt(parts[2], 10, 64); err == nil && time.Since(time.Unix(at, 0)) > templateMaxAge {
			old = append(old, name)
		}
	}
	rows.Close()
	for _, name := range old {
		_, _ = db.ExecContext(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`)
	}
}

// createFromTemplate creates database name as a copy of template. The
// template's last connections may take a moment to end after it was
// closed; PostgreSQL refuses the copy meanwhile, so it is retried briefly.
func createFromTemplate(ctx context.Context, t testing.TB, db *sql.DB, name, template string) error {
	t.Helper()
	var err error
	for wait := time.Millisecond; wait < 5*time.Second; wait *= 2 {
		_, err = db.ExecContext(ctx, `CREATE DATABASE `+name+` TEMPLATE `+template)
		if err == nil || !strings.Contains(err.Error(), "is being accessed by other users") {
			return err
		}
		time.Sleep(wait)
	}
	return err
}
