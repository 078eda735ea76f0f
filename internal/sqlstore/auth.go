package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return wayfarer.ErrNotFound
	}
	return err
}

// AgencyByAlias finds an agency by its (normalized) alias.
func (db *DB) AgencyByAlias(ctx context.Context, alias string) (_ *wayfarer.Agency, err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	var a wayfarer.Agency
	err = db.primary.QueryRowContext(ctx, db.q(
		`SELECT rec_no, alias, name, status, max_password_age_days FROM agency WHERE alias = ?`),
		wayfarer.NormalizeAlias(alias)).Scan(&a.ID, &a.Alias, &a.Name, &a.Status, &a.MaxPasswordAgeDays)
	if err != nil {
		return nil, notFound(err)
	}
	return &a, nil
}

const userColumns = `rec_no, agency_id, user_name, type, enabled, password_hash, non_expiring_password,
	password_last_modified, locked, branch_id`

func scanUser(row interface{ Scan(...any) error }, extra ...any) (*wayfarer.User, error) {
	var u wayfarer.User
	var branch sql.NullInt64
	dest := append([]any{&u.ID, &u.AgencyID, &u.UserName, &u.Type, &u.Enabled, &u.PasswordHash, &u.NonExpiringPassword,
		&u.PasswordLastModified, &u.Locked, &branch}, extra...)
	if err := row.Scan(dest...); err != nil {
		return nil, notFound(err)
	}
	if branch.Valid {
		u.BranchID = &branch.Int64
	}
	return &u, nil
}

// UserByName finds a user of an agency by name, case-insensitively, with
// its permissions.
func (db *DB) UserByName(ctx context.Context, agencyID int64, userName string) (_ *wayfarer.User, err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	u, err := scanUser(db.primary.QueryRowContext(ctx, db.q(
		`SELECT `+userColumns+` FROM app_user WHERE agency_id = ? AND user_name_key = ?`),
		agencyID, wayfarer.NormalizeUserName(userName)))
	if err != nil {
		return nil, err
	}
	perms, err := db.readPermissions(ctx, agencyID, u.ID)
	if err != nil {
		return nil, err
	}
	if p := perms[u.ID]; p != nil {
		u.Perms = *p
	}
	return u, nil
}

// UpdateLoginCounters runs fn on the two failed-login counters of an
// attempt in one transaction that holds their rows: on PostgreSQL under
// row locks taken in one order (the '*' row of all addresses first), on
// SQLite under the write lock every transaction takes at BEGIN. Missing
// rows are created first, so there is always a row to lock.
func (db *DB) UpdateLoginCounters(ctx context.Context, key wayfarer.LoginAttemptKey, fn func(all, addr *wayfarer.LoginCounter) error) (err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	return db.Tx(ctx, func(tx *sql.Tx) error {
		never := ts(time.Time{})
		if _, err := tx.ExecContext(ctx, db.q(`
			INSERT INTO login_attempt (agency_id, user_name_key, client_key, failures, last_attempt)
			VALUES (?, ?, '*', 0, ?), (?, ?, ?, 0, ?) ON CONFLICT DO NOTHING`),
			key.AgencyID, key.NameKey, never, key.AgencyID, key.NameKey, key.Client, never); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, db.q(`
			SELECT client_key, failures, window_start, locked_until, last_attempt FROM login_attempt
			WHERE agency_id = ? AND user_name_key = ? AND client_key IN ('*', ?) ORDER BY client_key`+db.Dialect.ForUpdate),
			key.AgencyID, key.NameKey, key.Client)
		if err != nil {
			return err
		}
		var all, addr wayfarer.LoginCounter
		for rows.Next() {
			var client string
			var c wayfarer.LoginCounter
			var window, locked sql.NullTime
			if err := rows.Scan(&client, &c.Failures, &window, &locked, &c.LastAttempt); err != nil {
				rows.Close()
				return err
			}
			c.WindowStart, c.LockedUntil = window.Time, locked.Time
			if client == "*" {
				all = c
			} else {
				addr = c
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		oldAll, oldAddr := all, addr
		if err := fn(&all, &addr); err != nil {
			return err
		}
		for _, c := range []struct {
			client   string
			old, new wayfarer.LoginCounter
		}{{"*", oldAll, all}, {key.Client, oldAddr, addr}} {
			if c.old == c.new {
				continue
			}
			if _, err := tx.ExecContext(ctx, db.q(`
				UPDATE login_attempt SET failures = ?, window_start = ?, locked_until = ?, last_attempt = ?
				WHERE agency_id = ? AND user_name_key = ? AND client_key = ?`),
				c.new.Failures, nullTime(c.new.WindowStart), nullTime(c.new.LockedUntil), ts(c.new.LastAttempt),
				key.AgencyID, key.NameKey, c.client); err != nil {
				return err
			}
		}
		return nil
	})
}

func nullTime(t time.Time) sql.NullTime { return sql.NullTime{Time: ts(t), Valid: !t.IsZero()} }

// DeleteStaleLoginAttempts forgets failed-login counters whose last attempt
// was before before and whose lock, if any, has ended.
func (db *DB) DeleteStaleLoginAttempts(ctx context.Context, before, now time.Time) (int64, error) {
	res, err := db.primary.ExecContext(ctx, db.q(
		`DELETE FROM login_attempt WHERE last_attempt < ? AND (locked_until IS NULL OR locked_until < ?)`), ts(before), ts(now))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// CreateToken stores a new session and returns its tokenRecNo.
func (db *DB) CreateToken(ctx context.Context, agencyID, userID int64, createdAt, expiresAt time.Time) (_ int64, err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	var id int64
	err = db.primary.QueryRowContext(ctx, db.q(
		`INSERT INTO identity_token (agency_id, app_user_id, created_at, expires_at) VALUES (?, ?, ?, ?) RETURNING rec_no`),
		agencyID, userID, ts(createdAt), ts(expiresAt)).Scan(&id)
	return id, err
}

// ExtendToken moves a session's expiry; caches read the session again.
func (db *DB) ExtendToken(ctx context.Context, agencyID, tokenID int64, expiresAt time.Time) (err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	return db.revokingTx(ctx, func(tx *sql.Tx, revoke func(wayfarer.Revocation) error) error {
		res, err := tx.ExecContext(ctx, db.q(
			`UPDATE identity_token SET expires_at = ? WHERE agency_id = ? AND rec_no = ?`), ts(expiresAt), agencyID, tokenID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return wayfarer.ErrNotFound
		}
		return revoke(wayfarer.Revocation{AgencyID: agencyID, TokenID: tokenID})
	})
}

// DeleteToken ends a session, on every instance.
func (db *DB) DeleteToken(ctx context.Context, agencyID, tokenID int64) (err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	return db.revokingTx(ctx, func(tx *sql.Tx, revoke func(wayfarer.Revocation) error) error {
		if _, err := tx.ExecContext(ctx, db.q(`DELETE FROM identity_token WHERE agency_id = ? AND rec_no = ?`), agencyID, tokenID); err != nil {
			return err
		}
		return revoke(wayfarer.Revocation{AgencyID: agencyID, TokenID: tokenID})
	})
}

// DeleteExpiredTokens removes sessions that expired before t.
func (db *DB) DeleteExpiredTokens(ctx context.Context, t time.Time) (int64, error) {
	res, err := db.primary.ExecContext(ctx, db.q(`DELETE FROM identity_token WHERE expires_at < ?`), ts(t))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// SessionByToken loads the caller behind a token with the permissions the
// database holds now. It runs for every authenticated request the session
// cache cannot answer, so it is one prepared statement: the user's
// permission areas and advisors come as extra rows of two LEFT JOINs (one
// row per area with bits and advisor: a handful).
func (db *DB) SessionByToken(ctx context.Context, agencyID, tokenID int64, now time.Time) (_ *wayfarer.Session, err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	st, release, err := db.prepared(ctx, db.primary, `
		SELECT t.rec_no, t.agency_id, a.alias, u.rec_no, u.user_name, u.type, u.branch_id, t.expires_at, ua.profile_id, up.area, up.bits
		FROM identity_token t
		JOIN app_user u ON u.agency_id = t.agency_id AND u.rec_no = t.app_user_id
		JOIN agency a ON a.rec_no = t.agency_id
		LEFT JOIN app_user_advisor ua ON ua.agency_id = u.agency_id AND ua.app_user_id = u.rec_no
		LEFT JOIN app_user_permission up ON up.agency_id = u.agency_id AND up.app_user_id = u.rec_no
		WHERE t.agency_id = ? AND t.rec_no = ? AND t.expires_at > ? AND u.enabled = ? AND u.locked = ? AND a.status = ?
		ORDER BY ua.profile_id`)
	if err != nil {
		return nil, err
	}
	defer release()
	rows, err := st.QueryContext(ctx, agencyID, tokenID, ts(now), true, false, wayfarer.AgencyActive)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var s *wayfarer.Session
	for rows.Next() {
		var cur wayfarer.Session
		var branch, advisor, bits sql.NullInt64
		var area sql.NullString
		if err := rows.Scan(&cur.TokenID, &cur.AgencyID, &cur.AgencyAlias, &cur.UserID, &cur.UserName, &cur.UserType,
			&branch, &cur.ExpiresAt, &advisor, &area, &bits); err != nil {
			return nil, err
		}
		if s == nil {
			s = &cur
			if branch.Valid {
				s.BranchID = &branch.Int64
			}
		}
		// Rows are ordered by advisor, so an advisor's rows are adjacent
		// (one per area); each area repeats once per advisor.
		if advisor.Valid && (len(s.AdvisorIDs) == 0 || s.AdvisorIDs[len(s.AdvisorIDs)-1] != advisor.Int64) {
			s.AdvisorIDs = append(s.AdvisorIDs, advisor.Int64)
		}
		if area.Valid {
			setPermission(&s.Perms, area.String, wayfarer.Permission(bits.Int64))
		}
	}
	return foundSession(rows, s)
}

// Secret returns the named server secret, creating it from n random bytes
// the first time. Instances racing to create it all end up with the winner's.
func (db *DB) Secret(ctx context.Context, name string, n int) ([]byte, error) {
	fresh := make([]byte, n)
	if _, err := rand.Read(fresh); err != nil {
		return nil, err
	}
	if _, err := db.primary.ExecContext(ctx, db.q(
		`INSERT INTO server_secret (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`), name, fresh); err != nil {
		return nil, err
	}
	var v []byte
	err := db.primary.QueryRowContext(ctx, db.q(`SELECT value FROM server_secret WHERE name = ?`), name).Scan(&v)
	return v, err
}

// foundSession ends the row loop of a session query: the rows' error, or
// ErrNotFound when no row named a session.
func foundSession(rows *sql.Rows, s *wayfarer.Session) (*wayfarer.Session, error) {
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if s == nil {
		return nil, wayfarer.ErrNotFound
	}
	return s, nil
}
