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
	password_last_modified, failed_logins, locked_until, branch_id, person_permissions`

func scanUser(row interface{ Scan(...any) error }) (*wayfarer.User, error) {
	var u wayfarer.User
	var locked sql.NullTime
	var branch sql.NullInt64
	if err := row.Scan(&u.ID, &u.AgencyID, &u.UserName, &u.Type, &u.Enabled, &u.PasswordHash, &u.NonExpiringPassword,
		&u.PasswordLastModified, &u.FailedLogins, &locked, &branch, &u.Person); err != nil {
		return nil, notFound(err)
	}
	if locked.Valid {
		u.LockedUntil = &locked.Time
	}
	if branch.Valid {
		u.BranchID = &branch.Int64
	}
	return &u, nil
}

// UserByName finds a user of an agency by name, case-insensitively.
func (db *DB) UserByName(ctx context.Context, agencyID int64, userName string) (_ *wayfarer.User, err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	return scanUser(db.primary.QueryRowContext(ctx, db.q(
		`SELECT `+userColumns+` FROM app_user WHERE agency_id = ? AND user_name_key = ?`),
		agencyID, wayfarer.NormalizeUserName(userName)))
}

// RecordLoginFailure counts a failure in one statement, so failures through
// several instances on one database add up.
func (db *DB) RecordLoginFailure(ctx context.Context, agencyID, userID int64, maxFailures int, lockUntil time.Time) (_ bool, err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	var failures int
	err = db.primary.QueryRowContext(ctx, db.q(
		`UPDATE app_user SET failed_logins = failed_logins + 1 WHERE agency_id = ? AND rec_no = ? RETURNING failed_logins`),
		agencyID, userID).Scan(&failures)
	if err != nil {
		return false, notFound(err)
	}
	if maxFailures <= 0 || failures < maxFailures {
		return false, nil
	}
	_, err = db.primary.ExecContext(ctx, db.q(
		`UPDATE app_user SET locked_until = ?, failed_logins = 0 WHERE agency_id = ? AND rec_no = ?`),
		ts(lockUntil), agencyID, userID)
	return true, err
}

// RecordLoginSuccess resets the failure count and any expired lock.
func (db *DB) RecordLoginSuccess(ctx context.Context, agencyID, userID int64) (err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	_, err = db.primary.ExecContext(ctx, db.q(
		`UPDATE app_user SET failed_logins = 0, locked_until = NULL WHERE agency_id = ? AND rec_no = ?`),
		agencyID, userID)
	return err
}

// UnknownUserLocked reports whether failed logins under a name that names
// no user have locked that name at now.
func (db *DB) UnknownUserLocked(ctx context.Context, agencyID int64, nameKey string, now time.Time) (_ bool, err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	var locked bool
	err = db.primary.QueryRowContext(ctx, db.q(
		`SELECT locked_until > ? FROM login_failure WHERE agency_id = ? AND user_name_key = ? AND locked_until IS NOT NULL`),
		ts(now), agencyID, nameKey).Scan(&locked)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return locked, err
}

// RecordUnknownLoginFailure counts a failed login under a name that names no
// user, in one statement as RecordLoginFailure does, locking the name at
// maxFailures.
func (db *DB) RecordUnknownLoginFailure(ctx context.Context, agencyID int64, nameKey string, now time.Time, maxFailures int, lockUntil time.Time) (err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	var failures int
	err = db.primary.QueryRowContext(ctx, db.q(`
		INSERT INTO login_failure (agency_id, user_name_key, failures, last_failure) VALUES (?, ?, 1, ?)
		ON CONFLICT (agency_id, user_name_key) DO UPDATE SET failures = login_failure.failures + 1, last_failure = excluded.last_failure
		RETURNING failures`), agencyID, nameKey, ts(now)).Scan(&failures)
	if err != nil || maxFailures <= 0 || failures < maxFailures {
		return err
	}
	_, err = db.primary.ExecContext(ctx, db.q(
		`UPDATE login_failure SET locked_until = ?, failures = 0 WHERE agency_id = ? AND user_name_key = ?`),
		ts(lockUntil), agencyID, nameKey)
	return err
}

// DeleteStaleLoginFailures forgets unknown-name failures older than before
// whose lock, if any, has ended.
func (db *DB) DeleteStaleLoginFailures(ctx context.Context, before, now time.Time) (int64, error) {
	res, err := db.primary.ExecContext(ctx, db.q(
		`DELETE FROM login_failure WHERE last_failure < ? AND (locked_until IS NULL OR locked_until < ?)`), ts(before), ts(now))
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

// ExtendToken moves a session's expiry.
func (db *DB) ExtendToken(ctx context.Context, agencyID, tokenID int64, expiresAt time.Time) (err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	res, err := db.primary.ExecContext(ctx, db.q(
		`UPDATE identity_token SET expires_at = ? WHERE agency_id = ? AND rec_no = ?`), ts(expiresAt), agencyID, tokenID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return wayfarer.ErrNotFound
	}
	return nil
}

// DeleteToken ends a session.
func (db *DB) DeleteToken(ctx context.Context, agencyID, tokenID int64) (err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	_, err = db.primary.ExecContext(ctx, db.q(`DELETE FROM identity_token WHERE agency_id = ? AND rec_no = ?`), agencyID, tokenID)
	return err
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
// database holds now. It runs on every authenticated request, so it is one
// prepared statement: the user's advisors come as extra rows of a LEFT JOIN.
func (db *DB) SessionByToken(ctx context.Context, agencyID, tokenID int64, now time.Time) (_ *wayfarer.Session, err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	st, release, err := db.prepared(ctx, db.primary, `
		SELECT t.rec_no, t.agency_id, a.alias, u.rec_no, u.user_name, u.type, u.branch_id, u.person_permissions, t.expires_at, ua.profile_id
		FROM identity_token t
		JOIN app_user u ON u.agency_id = t.agency_id AND u.rec_no = t.app_user_id
		JOIN agency a ON a.rec_no = t.agency_id
		LEFT JOIN app_user_advisor ua ON ua.agency_id = u.agency_id AND ua.app_user_id = u.rec_no
		WHERE t.agency_id = ? AND t.rec_no = ? AND t.expires_at > ? AND u.enabled = ? AND a.status = ?
		ORDER BY ua.profile_id`)
	if err != nil {
		return nil, err
	}
	defer release()
	rows, err := st.QueryContext(ctx, agencyID, tokenID, ts(now), true, wayfarer.AgencyActive)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var s *wayfarer.Session
	for rows.Next() {
		var cur wayfarer.Session
		var branch, advisor sql.NullInt64
		if err := rows.Scan(&cur.TokenID, &cur.AgencyID, &cur.AgencyAlias, &cur.UserID, &cur.UserName, &cur.UserType,
			&branch, &cur.Person, &cur.ExpiresAt, &advisor); err != nil {
			return nil, err
		}
		if s == nil {
			s = &cur
			if branch.Valid {
				s.BranchID = &branch.Int64
			}
		}
		if advisor.Valid {
			s.AdvisorIDs = append(s.AdvisorIDs, advisor.Int64)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if s == nil {
		return nil, wayfarer.ErrNotFound
	}
	return s, nil
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
