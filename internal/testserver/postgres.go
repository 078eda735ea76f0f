package testserver

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// PostgresURLEnv names the PostgreSQL server behaviour tests also run on.
const PostgresURLEnv = "WAYFARER_TEST_POSTGRES_URL"

// ciUnset stands for the server under CI=true when none is named: CI must
// run on PostgreSQL, so the engine stays on and FreshPostgres fails.
const ciUnset = "ci-without-" + PostgresURLEnv

// CI reports whether the tests run in CI (CI=true), where a missing or
// unreachable PostgreSQL fails the run instead of skipping it.
func CI() bool { return os.Getenv("CI") == "true" }

func postgresURL() string {
	if u := os.Getenv(PostgresURLEnv); u != "" {
		return u
	}
	if CI() {
		return ciUnset
	}
	return ""
}

// FreshPostgres creates an empty database of its own for one test on the
// server WAYFARER_TEST_POSTGRES_URL names, returns its URL and drops it when
// the test ends. Without a server the test is skipped, or fails under CI=true.
func FreshPostgres(t testing.TB) string {
	t.Helper()
	return newPostgres(t, false)
}

// seededPostgres is FreshPostgres with the database a copy of this
// process's migrated and seeded template (template.go).
func seededPostgres(t testing.TB) string {
	t.Helper()
	return newPostgres(t, true)
}

func newPostgres(t testing.TB, seeded bool) string {
	t.Helper()
	admin := postgresURL()
	unavailable := func(format string, args ...any) {
		t.Helper()
		if CI() {
			t.Fatalf("CI=true requires PostgreSQL: "+format, args...)
		}
		t.Skipf(format, args...)
	}
	if admin == "" || admin == ciUnset {
		unavailable("%s not set", PostgresURLEnv)
	}
	u, err := url.Parse(admin)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		t.Fatalf("%s must be a postgres:// URL", PostgresURLEnv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := sql.Open("pgx", admin)
	if err != nil {
		t.Fatalf("open %s: %v", PostgresURLEnv, err)
	}
	defer db.Close()
	if err := db.PingContext(ctx); err != nil {
		unavailable("PostgreSQL at %s unreachable: %v", redact(u), err)
	}

	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	name := fmt.Sprintf("wayfarer_test_%d_%s", os.Getpid(), hex.EncodeToString(rnd[:]))
	if seeded {
		tpl, err := postgresTemplate(ctx, db, u)
		if err != nil {
			t.Fatalf("postgres template: %v", err)
		}
		if err := createFromTemplate(ctx, t, db, name, tpl); err != nil {
			t.Fatalf("create database %s: %v", name, err)
		}
	} else if _, err := db.ExecContext(ctx, `CREATE DATABASE `+name+` TEMPLATE template0 ENCODING 'UTF8'`); err != nil {
		// template0: nothing copied from template1, and no clash with
		// other sessions connected to it.
		t.Fatalf("create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		db, err := sql.Open("pgx", admin)
		if err != nil {
			t.Errorf("drop database %s: %v", name, err)
			return
		}
		defer db.Close()
		// FORCE ends connections a failed test may have left open.
		if _, err := db.ExecContext(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})

	fresh := *u
	fresh.Path = "/" + name
	// A small pool per instance: many tests share one server's max_connections.
	q := fresh.Query()
	if !q.Has("pool_max_conns") {
		q.Set("pool_max_conns", "8")
		q.Set("pool_max_idle_conns", "2")
	}
	fresh.RawQuery = q.Encode()
	return fresh.String()
}

func redact(u *url.URL) string {
	r := *u
	if _, ok := r.User.Password(); ok {
		r.User = url.UserPassword(r.User.Username(), "xxx")
	}
	return r.String()
}
