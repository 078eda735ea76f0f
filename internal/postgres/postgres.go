// Package postgres opens Wayfarer's database on PostgreSQL through pgx's
// database/sql adapter, so the shared sqlstore code runs unchanged.
package postgres

import (
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrations are the goose files of the PostgreSQL schema.
func Migrations() fs.FS {
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		panic(err) // the directory is embedded: cannot happen
	}
	return sub
}

// Open connects to the PostgreSQL database at url (postgres://...).
func Open(url string) (*sqlstore.DB, error) {
	db, err := OpenHandle(url)
	if err != nil {
		return nil, err
	}
	sdb := sqlstore.New(db, sqlstore.Postgres, Migrations())
	sdb.SetPipelines(readPipeline, savePipeline)
	// The revocation listener's connection, outside the pool (see
	// sqlstore.DB.SetListener); opened when the listener starts.
	listener, err := OpenHandle(url)
	if err != nil {
		db.Close()
		return nil, err
	}
	listener.SetMaxOpenConns(1)
	listener.SetMaxIdleConns(1)
	sdb.SetListener(listener)
	return sdb, nil
}

// OpenHandle opens a bare handle, e.g. for a read replica, with the pool
// the URL's pool_* parameters ask for (see Pool).
func OpenHandle(url string) (*sql.DB, error) {
	dsn, pool, err := ParsePool(url)
	if err != nil {
		return nil, err
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		// Never echo the URL: it may hold a password.
		return nil, fmt.Errorf("open postgres: cannot parse the URL")
	}
	// A context that ends (the query time limit, a client gone away) sends
	// the server a cancel request, so the backend stops the statement
	// rather than running it to its end for nobody; the connection is given
	// up only if the server has not answered a second later. pgx's default
	// closes the connection at once and leaves the backend running.
	cfg.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: time.Second}
	}
	db := sql.OpenDB(connector{stdlib.GetConnector(*cfg)})
	pool.Apply(db)
	return db, nil
}

// Pool sizes one instance's connection pool. Every instance holds up to
// MaxConns connections and one more for LISTEN, so N instances need
// N×(MaxConns+1) (plus the replica's) below the server's max_connections.
type Pool struct {
	MaxConns        int           // pool_max_conns
	MaxIdleConns    int           // pool_max_idle_conns
	MaxConnLifetime time.Duration // pool_max_conn_lifetime
	MaxConnIdleTime time.Duration // pool_max_conn_idle_time
}

// DefaultPool bounds an instance that names no pool parameters. database/sql
// alone would open connections without limit and exhaust the server's.
// Idle connections are kept up to the pool's size (and closed after
// MaxConnIdleTime): with fewer, every burst of more concurrent requests
// than that closed the extra connections on their return and opened new
// ones for the next (a backend forked per request: 520-550 sessions in a
// 10 s benchmark at 16 clients with 10 idle, GET /person over HTTP 2,800-
// 3,000 a second against 6,300 without the churn).
var DefaultPool = Pool{MaxConns: 20, MaxIdleConns: 20, MaxConnLifetime: 30 * time.Minute, MaxConnIdleTime: 5 * time.Minute}

// Apply configures db.
func (p Pool) Apply(db *sql.DB) {
	db.SetMaxOpenConns(p.MaxConns)
	db.SetMaxIdleConns(p.MaxIdleConns)
	db.SetConnMaxLifetime(p.MaxConnLifetime)
	db.SetConnMaxIdleTime(p.MaxConnIdleTime)
}

// ParsePool takes the pool_* query parameters (pgxpool's names) out of a
// postgres:// URL, since the server would reject them as unknown settings,
// and returns the rest of the URL with the pool they ask for.
func ParsePool(raw string) (string, Pool, error) {
	p := DefaultPool
	u, err := url.Parse(raw)
	if err != nil {
		// Never echo the URL: it may hold a password.
		return "", p, fmt.Errorf("postgres URL: cannot parse it")
	}
	q := u.Query()
	found, idleGiven := false, false
	for key := range q {
		if !strings.HasPrefix(key, "pool_") {
			continue
		}
		found = true
		v := q.Get(key)
		var err error
		switch key {
		case "pool_max_conns":
			p.MaxConns, err = positive(v)
		case "pool_max_idle_conns":
			p.MaxIdleConns, err = strconv.Atoi(v)
			idleGiven = true
		case "pool_max_conn_lifetime":
			p.MaxConnLifetime, err = time.ParseDuration(v)
		case "pool_max_conn_idle_time":
			p.MaxConnIdleTime, err = time.ParseDuration(v)
		default:
			return "", p, fmt.Errorf("postgres URL: unknown parameter %s (known: pool_max_conns, pool_max_idle_conns, pool_max_conn_lifetime, pool_max_conn_idle_time)", key)
		}
		if err != nil {
			return "", p, fmt.Errorf("postgres URL: %s=%q: %v", key, v, err)
		}
		q.Del(key)
	}
	if !idleGiven || p.MaxIdleConns > p.MaxConns {
		p.MaxIdleConns = p.MaxConns // as many idle as open, unless asked (DefaultPool)
	}
	if !found {
		return raw, p, nil
	}
	u.RawQuery = q.Encode()
	return u.String(), p, nil
}

func positive(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err == nil && n < 1 {
		err = fmt.Errorf("must be at least 1")
	}
	return n, err
}
