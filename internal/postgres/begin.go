package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/wayfarerhq/wayfarer/internal/sqlstore"
)

// A request's transaction sets its query time limit and jit for itself
// (sqlstore.RequestSettings). pgx's database/sql adapter sends BEGIN as a
// statement of its own, and the settings would be one more round trip
// (≈0.05 ms on loopback, a third of the fastest search): this connector's
// connections send them together with the BEGIN, as one simple-protocol
// query, which PostgreSQL runs in order. They stay SET LOCAL, so neither a
// pooled connection nor a transaction-mode pooler keeps them.

// connector wraps pgx's so its connections are conns.
type connector struct{ driver.Connector }

func (c connector) Connect(ctx context.Context) (driver.Conn, error) {
	dc, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	sc, ok := dc.(*stdlib.Conn)
	if !ok {
		return dc, nil
	}
	return &conn{stdlibConn: sc}, nil
}

// conn is pgx's connection with a BeginTx that applies the request's
// settings, or adopts the transaction a save's pipeline began
// (sqlstore.SavePipeline); everything else is pgx's, including Conn() (the
// *pgx.Conn that LISTEN and COPY reach through database/sql's Raw). The
// embedded field is named by the alias, so that it does not hide that
// method.
type conn struct {
	*stdlibConn
	// committed: saveCommit committed the adopted transaction; its
	// Commit has nothing left to send. database/sql holds the
	// connection's lock around both.
	committed bool
}

type stdlibConn = stdlib.Conn

func (c *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if sqlstore.AdoptsOpenTx(ctx) {
		if st := c.Conn().PgConn().TxStatus(); st != 'T' {
			endOpenTx(ctx, c.Conn())
			return nil, fmt.Errorf("postgres: no open transaction to adopt (status %q)", st)
		}
		return &openTx{ctx: ctx, c: c}, nil
	}
	s := sqlstore.RequestSettingsOf(ctx)
	if s == nil || s.SQL == "" || c.Conn().IsClosed() {
		return c.stdlibConn.BeginTx(ctx, opts)
	}
	begin, err := beginSQL(opts)
	if err != nil {
		return nil, err
	}
	tx, err := c.Conn().BeginTx(ctx, pgx.TxOptions{BeginQuery: begin + "; " + s.SQL})
	if err != nil {
		return nil, err
	}
	s.Applied = true
	return pgxTx{ctx: ctx, tx: tx}, nil
}

// beginSQL is the BEGIN pgx's adapter would send for opts.
func beginSQL(opts driver.TxOptions) (string, error) {
	q := "BEGIN"
	switch sql.IsolationLevel(opts.Isolation) {
	case sql.LevelDefault:
	case sql.LevelReadCommitted:
		q += " ISOLATION LEVEL READ COMMITTED"
	case sql.LevelRepeatableRead, sql.LevelSnapshot:
		q += " ISOLATION LEVEL REPEATABLE READ"
	case sql.LevelSerializable:
		q += " ISOLATION LEVEL SERIALIZABLE"
	default:
		return "", fmt.Errorf("unsupported isolation: %v", opts.Isolation)
	}
	if opts.ReadOnly {
		q += " READ ONLY"
	}
	return q, nil
}

// pgxTx is a pgx transaction as database/sql's driver.Tx.
type pgxTx struct {
	ctx context.Context
	tx  pgx.Tx
}

func (t pgxTx) Commit() error   { return t.tx.Commit(t.ctx) }
func (t pgxTx) Rollback() error { return t.tx.Rollback(t.ctx) }

// openTx is the transaction a save's pipeline began (saveBegin), adopted
// by database/sql: it ends it with a statement of its own, or not at all
// when saveCommit committed it with the save's last write.
type openTx struct {
	ctx context.Context
	c   *conn
}

func (t *openTx) Commit() error {
	if t.c.committed {
		t.c.committed = false
		return nil
	}
	pc := t.c.Conn()
	tag, err := pc.Exec(t.ctx, "COMMIT")
	if err != nil {
		endOpenTx(t.ctx, pc)
	}
	return commitAnswer(tag, err)
}

func (t *openTx) Rollback() error {
	t.c.committed = false
	endOpenTx(t.ctx, t.c.Conn())
	return nil
}
