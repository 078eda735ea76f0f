package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"log/slog"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// revocationChannel is what PostgreSQL notifies when revocations commit
// (the trigger of migration 00006).
const revocationChannel = "wayfarer_session_revoked"

// OnRevoke sets what runs after a transaction of this handle that recorded
// revocations commits: the instance's session cache applies them at once,
// before the revocation log brings them round.
func (db *DB) OnRevoke(fn func(...wayfarer.Revocation)) { db.onRevoke = fn }

// revokingTx runs fn in one transaction in which revoke records a
// Revocation in session_revocation; the change and its revocations commit
// together. On PostgreSQL the transaction first locks the log against other
// writers until it commits, so sequence numbers follow commit order and a
// reader that saw seq n has seen every revocation before it.
func (db *DB) revokingTx(ctx context.Context, fn func(tx *sql.Tx, revoke func(wayfarer.Revocation) error) error) error {
	var revs []wayfarer.Revocation
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		revs = revs[:0]
		if db.Dialect.lockRevocations != "" {
			if _, err := tx.ExecContext(ctx, db.Dialect.lockRevocations); err != nil {
				return err
			}
		}
		return fn(tx, func(r wayfarer.Revocation) error {
			_, err := tx.ExecContext(ctx, db.q(
				`INSERT INTO session_revocation (agency_id, app_user_id, token_id, operator_id, created_at) VALUES (?, ?, ?, ?, ?)`),
				r.AgencyID, nullID(r.UserID), nullID(r.TokenID), nullID(r.OperatorID), ts(time.Now()))
			if err == nil {
				revs = append(revs, r)
			}
			return err
		})
	})
	if err == nil && len(revs) > 0 && db.onRevoke != nil {
		db.onRevoke(revs...)
	}
	return err
}

func nullID(id int64) sql.NullInt64 { return sql.NullInt64{Int64: id, Valid: id != 0} }

// endUserSessions deletes a user's sessions and records their revocation.
func (db *DB) endUserSessions(ctx context.Context, tx *sql.Tx, revoke func(wayfarer.Revocation) error, agencyID, userID int64) error {
	if _, err := tx.ExecContext(ctx, db.q(`DELETE FROM identity_token WHERE agency_id = ? AND app_user_id = ?`), agencyID, userID); err != nil {
		return err
	}
	return revoke(wayfarer.Revocation{AgencyID: agencyID, UserID: userID})
}

// LastRevocation is the sequence number of the newest revocation.
func (db *DB) LastRevocation(ctx context.Context) (int64, error) {
	var seq int64
	err := db.primary.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM session_revocation`).Scan(&seq)
	return seq, err
}

// RevocationsSince answers up to limit revocations after seq, oldest first,
// and the sequence number of the last one (seq when none).
func (db *DB) RevocationsSince(ctx context.Context, seq int64, limit int) ([]wayfarer.Revocation, int64, error) {
	rows, err := db.primary.QueryContext(ctx, db.q(
		`SELECT seq, agency_id, app_user_id, token_id, operator_id FROM session_revocation WHERE seq > ? ORDER BY seq LIMIT ?`), seq, limit)
	if err != nil {
		return nil, seq, err
	}
	defer rows.Close()
	var out []wayfarer.Revocation
	for rows.Next() {
		var r wayfarer.Revocation
		var user, token, operator sql.NullInt64
		if err := rows.Scan(&seq, &r.AgencyID, &user, &token, &operator); err != nil {
			return nil, 0, err
		}
		r.UserID, r.TokenID, r.OperatorID = user.Int64, token.Int64, operator.Int64
		out = append(out, r)
	}
	return out, seq, rows.Err()
}

// DeleteOldRevocations forgets revocations recorded before before (real
// time, as they are stamped). Caches hold a session for seconds, so an
// hour-old revocation has nothing left to revoke.
func (db *DB) DeleteOldRevocations(ctx context.Context, before time.Time) (int64, error) {
	res, err := db.primary.ExecContext(ctx, db.q(`DELETE FROM session_revocation WHERE created_at < ?`), ts(before))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// RevocationWakeups returns a channel that receives soon after any process
// commits a revocation, where the engine can tell (PostgreSQL: LISTEN on a
// connection of its own, held while ctx lasts; see SetListener), or
// nil where it cannot (SQLite: the cache polls). After every (re)connect it
// sends once, so revocations missed while disconnected are read then.
// stopped is closed once the listener has let its connection go after ctx
// ended.
func (db *DB) RevocationWakeups(ctx context.Context, log *slog.Logger) (wake <-chan struct{}, stopped <-chan struct{}) {
	done := make(chan struct{})
	if db.Dialect.waitNotification == nil {
		close(done)
		return nil, done
	}
	w := make(chan struct{}, 1)
	signal := func() {
		select {
		case w <- struct{}{}:
		default:
		}
	}
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			err := db.listen(ctx, signal)
			if ctx.Err() != nil {
				return
			}
			log.Warn("session revocation notifications lost; reconnecting (the cache polls meanwhile)", "error", err.Error())
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}()
	return w, done
}

// listen holds one connection listening for revocations until it fails or
// ctx ends: the listener's own handle's where there is one (SetListener).
func (db *DB) listen(ctx context.Context, signal func()) error {
	h := db.primary
	if db.listener != nil {
		h = db.listener
	}
	conn, err := h.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `LISTEN `+revocationChannel); err != nil {
		return err
	}
	signal()
	for {
		if err := db.Dialect.waitNotification(ctx, conn); err != nil {
			// Never pool a connection that still listens, or is broken.
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
			return err
		}
		signal()
	}
}
