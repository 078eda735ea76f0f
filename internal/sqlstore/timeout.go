package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// The query time limit (--query-timeout) bounds the database work of every
// store call that serves a request: a search, a person's load or save, the
// session check, a login's reads and writes. Past it the work is stopped
// and rolled back, and the call answers wayfarer.QueryTimeoutError.
//
// Both engines stop the work through the call's context: SQLite is
// interrupted (modernc's driver calls sqlite3_interrupt, and ends a wait
// for a lock), PostgreSQL receives a cancel request. On PostgreSQL the
// transactions of searches, loads and saves also set statement_timeout, so
// the server stops a statement by itself even if the client's cancel never
// arrives; the context's deadline then comes a little later
// (serverTimeoutGrace), so the server's own error arrives first and the
// connection goes back to the pool unharmed.

// One exception on SQLite: modernc's driver watches a statement's context
// with a goroutine of its own, started and woken for every statement
// (about 30 µs of a 150 µs save of one field on two cores, BENCHMARKS.md).
// A statement whose only long wait can be for the write lock (the
// conditional save, UpdatePersonRow) runs without that watcher where the
// engine ends such a wait by itself within the limit (SetLockWait,
// uncancelable); past the limit the call answers the same
// QueryTimeoutError.

// SetLockWait says that the engine ends a statement's wait for another
// connection's lock by itself after d (SQLite's busy_timeout); 0: it does
// not (the default). Call it before serving.
func (db *DB) SetLockWait(d time.Duration) { db.lockWait = d }

// uncancelable is ctx for a statement whose only long wait is for a lock:
// without its cancellation (and the driver's watcher) where the engine's
// own lock wait ends within the query time limit, ctx itself otherwise.
// The store call's bound still turns a failure past the deadline into
// QueryTimeoutError (timedOut).
func (db *DB) uncancelable(ctx context.Context) context.Context {
	limit := db.QueryTimeout()
	if db.lockWait <= 0 || (limit > 0 && db.lockWait > limit) {
		return ctx
	}
	return context.WithoutCancel(ctx)
}

// serverTimeoutGrace is how much later than the server's statement_timeout
// the caller's deadline falls, where the engine has one.
const serverTimeoutGrace = 250 * time.Millisecond

// SetQueryTimeout sets the query time limit; 0 or less is none. Safe
// while requests run.
func (db *DB) SetQueryTimeout(d time.Duration) { db.queryTimeout.Store(int64(max(d, 0))) }

// QueryTimeout is the query time limit; 0 is none.
func (db *DB) QueryTimeout() time.Duration { return time.Duration(db.queryTimeout.Load()) }

// bound limits a store call serving a request: it returns ctx with the
// call's deadline, and end, which releases it and turns a timeout into
// wayfarer.QueryTimeoutError. Use as
//
//	ctx, end := db.bound(ctx)
//	defer end(&err)
func (db *DB) bound(ctx context.Context) (context.Context, func(*error)) {
	start := time.Now()
	limit := db.QueryTimeout()
	if limit <= 0 {
		return ctx, func(errp *error) { db.observe(start, errp, false) }
	}
	d := limit
	if db.Dialect.requestSettings != "" {
		d += serverTimeoutGrace
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(parent, d)
	return ctx, func(errp *error) {
		timeout := errp != nil && *errp != nil && timedOut(parent, ctx, *errp)
		if timeout {
			*errp = wayfarer.QueryTimeoutError(limit)
		}
		cancel()
		db.observe(start, errp, timeout)
	}
}

// QueryObserver learns the time and outcome ("ok", "error", "timeout") of
// every store call that serves a request (the /metrics query time).
type QueryObserver func(d time.Duration, outcome string)

// SetQueryObserver sets the observer; call it before serving.
func (db *DB) SetQueryObserver(o QueryObserver) { db.queryObserver = o }

func (db *DB) observe(start time.Time, errp *error, timeout bool) {
	if db.queryObserver == nil {
		return
	}
	outcome := "ok"
	switch {
	case timeout:
		outcome = "timeout"
	case errp != nil && *errp != nil && wayfarer.AsError(*errp) == nil &&
		!errors.Is(*errp, wayfarer.ErrNotFound) && !errors.Is(*errp, sql.ErrNoRows):
		outcome = "error" // a failure of the database, not an answer such as "not found"
	}
	db.queryObserver(time.Since(start), outcome)
}

// timedOut reports whether err ended a call because its time ran out, not
// because its caller gave up (the client went away): then the error stays
// what it is.
func timedOut(parent, ctx context.Context, err error) bool {
	if parent.Err() != nil {
		return false
	}
	var we *wayfarer.Error
	if errors.As(err, &we) {
		return false // an answer of the call itself
	}
	return errors.Is(err, context.DeadlineExceeded) || ctx.Err() == context.DeadlineExceeded || pastDeadline(ctx) || isStatementTimeout(err)
}

// pastDeadline reports whether ctx's deadline has passed, whether or not
// its timer has fired yet: a statement run without ctx (uncancelable) that
// failed waiting for a lock until then timed out.
func pastDeadline(ctx context.Context) bool {
	d, ok := ctx.Deadline()
	return ok && !time.Now().Before(d)
}

// isStatementTimeout reports PostgreSQL's query_canceled (57014): its
// statement_timeout, or the cancel request of a context that ended.
func isStatementTimeout(err error) bool {
	var pe interface{ SQLState() string }
	return errors.As(err, &pe) && pe.SQLState() == "57014"
}

// RequestSettings travel in the context of a request's BeginTx to a
// driver that can send them with the BEGIN in one round trip (the
// PostgreSQL driver of internal/postgres): SQL holds SET LOCAL statements
// without arguments; the driver sets Applied once they ran. Where no driver
// applies them, limitTx sends them as a statement of their own: three
// round trips around a search (BEGIN, settings, ROLLBACK) became two.
type RequestSettings struct {
	SQL     string
	Applied bool
	plans   string // a search's transaction: Dialect.searchPlans set to it too
}

type requestSettingsKey struct{}

// RequestSettingsOf is the settings a BeginTx in ctx should apply; nil:
// none.
func RequestSettingsOf(ctx context.Context) *RequestSettings {
	s, _ := ctx.Value(requestSettingsKey{}).(*RequestSettings)
	return s
}

// ContextWithRequestSettings is ctx carrying s for the next BeginTx.
func ContextWithRequestSettings(ctx context.Context, s *RequestSettings) context.Context {
	return context.WithValue(ctx, requestSettingsKey{}, s)
}

// withRequestSettings is ctx carrying the settings of the next request
// transaction begun in it, on the engines that have any.
func (db *DB) withRequestSettings(ctx context.Context) context.Context {
	return db.withSettings(ctx, "")
}

// withSearchSettings is withRequestSettings for a search's transaction,
// which also sets how its statements are planned (Dialect.searchPlans:
// for their values, or once where generic, searchPlansFor).
func (db *DB) withSearchSettings(ctx context.Context, generic bool) context.Context {
	return db.withSettings(ctx, db.searchPlansFor(generic))
}

func (db *DB) withSettings(ctx context.Context, plans string) context.Context {
	if db.Dialect.requestSettings == "" || db.Dialect.localSettings == nil {
		return ctx
	}
	s := &RequestSettings{SQL: db.Dialect.localSettings(db.timeoutMillis()), plans: plans}
	if plans != "" {
		s.SQL += "; SET LOCAL " + db.Dialect.searchPlans + " = " + plans
	}
	return ContextWithRequestSettings(ctx, s)
}

// searchPlansFor is the value of Dialect.searchPlans for a search, generic
// when its plan cannot depend on its values (genericPlanned); "" where the
// engine has no such setting.
func (db *DB) searchPlansFor(generic bool) string {
	switch {
	case db.Dialect.searchPlans == "":
		return ""
	case generic && db.Dialect.genericPlansValue != "":
		return db.Dialect.genericPlansValue
	}
	return db.Dialect.searchPlansValue
}

// timeoutMillis is the query time limit in whole milliseconds (rounded
// up), 0 for none.
func (db *DB) timeoutMillis() int64 {
	limit := db.QueryTimeout()
	if limit <= 0 {
		return 0
	}
	return int64(max((limit+time.Millisecond-1)/time.Millisecond, 1))
}

// timeoutSetting is the argument of Dialect.requestSettings: the query
// time limit as statement_timeout, or NULL to keep the server's setting.
func (db *DB) timeoutSetting() any {
	if ms := db.timeoutMillis(); ms > 0 {
		return strconv.FormatInt(ms, 10) + "ms"
	}
	return nil
}

// limitTx puts the request's settings in force for the rest of tx, on the
// engines that have any (Dialect.requestSettings), unless the driver did
// so with the BEGIN (RequestSettings in ctx).
func (db *DB) limitTx(ctx context.Context, tx *sql.Tx) error {
	if db.Dialect.requestSettings == "" {
		return nil
	}
	if s := RequestSettingsOf(ctx); s != nil && s.Applied {
		return nil
	}
	settings := db.requestSettingsStep()
	if _, err := tx.ExecContext(ctx, settings.SQL, settings.Args...); err != nil {
		return err
	}
	if s := RequestSettingsOf(ctx); s != nil && s.plans != "" {
		plans := db.searchPlansStep(s.plans)
		_, err := tx.ExecContext(ctx, plans.SQL, plans.Args...)
		return err
	}
	return nil
}

// requestSettingsStep puts the request's settings in force for the rest of
// its transaction (Dialect.requestSettings; call it only when set).
func (db *DB) requestSettingsStep() ReadStep {
	return ReadStep{SQL: db.q(db.Dialect.requestSettings), Args: []any{db.timeoutSetting()}}
}

// searchPlansStep sets, for the transaction only, how a search's
// statements are planned: Dialect.searchPlans to plans (searchPlansFor;
// call it only when that is not "").
func (db *DB) searchPlansStep(plans string) ReadStep {
	return ReadStep{SQL: db.q("SELECT set_config(?, ?, true)"), Args: []any{db.Dialect.searchPlans, plans}}
}

// requestTx is Tx for a request: the request's settings come first.
func (db *DB) requestTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	ctx = db.withRequestSettings(ctx)
	return db.Tx(ctx, func(tx *sql.Tx) error {
		if err := db.limitTx(ctx, tx); err != nil {
			return err
		}
		return fn(tx)
	})
}

// read runs fn, reads only, on h: within a read-only transaction holding
// the request's settings where the engine has any (one snapshot for all of
// fn's reads, too), directly on h otherwise.
func (db *DB) read(ctx context.Context, h *sql.DB, fn func(q personQuerier) error) error {
	if db.Dialect.requestSettings == "" {
		return fn(h)
	}
	ctx = db.withRequestSettings(ctx)
	tx, err := h.BeginTx(ctx, &sql.TxOptions{ReadOnly: true, Isolation: db.Dialect.snapshot})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := db.limitTx(ctx, tx); err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}
