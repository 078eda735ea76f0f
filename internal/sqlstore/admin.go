package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

func (db *DB) insertID(ctx context.Context, query string, args ...any) (int64, error) {
	var id int64
	err := db.primary.QueryRowContext(ctx, db.q(query+` RETURNING rec_no`), args...).Scan(&id)
	return id, err
}

// CreateAgency inserts an agency.
func (db *DB) CreateAgency(ctx context.Context, a wayfarer.Agency) (int64, error) {
	return db.insertID(ctx, `INSERT INTO agency (alias, name, status, max_password_age_days, created_at) VALUES (?, ?, ?, ?, ?)`,
		wayfarer.NormalizeAlias(a.Alias), a.Name, a.Status, a.MaxPasswordAgeDays, ts(time.Now()))
}

// SetAgencyStatus changes an agency's status; leaving active ends its
// sessions on every instance.
func (db *DB) SetAgencyStatus(ctx context.Context, agencyID int64, s wayfarer.AgencyStatus) error {
	return db.revokingTx(ctx, func(tx *sql.Tx, revoke func(wayfarer.Revocation) error) error {
		if _, err := tx.ExecContext(ctx, db.q(`UPDATE agency SET status = ? WHERE rec_no = ?`), s, agencyID); err != nil {
			return err
		}
		if s == wayfarer.AgencyActive {
			return nil
		}
		if _, err := tx.ExecContext(ctx, db.q(`DELETE FROM identity_token WHERE agency_id = ?`), agencyID); err != nil {
			return err
		}
		return revoke(wayfarer.Revocation{AgencyID: agencyID})
	})
}

// ListAgencies lists every agency by alias.
func (db *DB) ListAgencies(ctx context.Context) ([]wayfarer.Agency, error) {
	rows, err := db.primary.QueryContext(ctx, `SELECT rec_no, alias, name, status, max_password_age_days FROM agency ORDER BY alias`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []wayfarer.Agency
	for rows.Next() {
		var a wayfarer.Agency
		if err := rows.Scan(&a.ID, &a.Alias, &a.Name, &a.Status, &a.MaxPasswordAgeDays); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// CreateBranch inserts a branch.
func (db *DB) CreateBranch(ctx context.Context, agencyID int64, name string) (int64, error) {
	now := ts(time.Now())
	return db.insertID(ctx, `INSERT INTO branch (agency_id, name, create_date_time, last_modified_date_time) VALUES (?, ?, ?, ?)`, agencyID, name, now, now)
}

// BranchByName finds a branch of an agency.
func (db *DB) BranchByName(ctx context.Context, agencyID int64, name string) (int64, error) {
	var id int64
	err := db.primary.QueryRowContext(ctx, db.q(`SELECT rec_no FROM branch WHERE agency_id = ? AND name = ?`), agencyID, name).Scan(&id)
	return id, notFound(err)
}

// CreateProfile inserts an advisor or client profile.
func (db *DB) CreateProfile(ctx context.Context, agencyID int64, typ int, name string, branchID *int64) (int64, error) {
	now := ts(time.Now())
	return db.insertID(ctx, `INSERT INTO profile (agency_id, type, name, branch_id, create_date_time, last_modified_date_time) VALUES (?, ?, ?, ?, ?, ?)`,
		agencyID, typ, name, branchID, now, now)
}

// ProfileByName finds a profile of a type by name.
func (db *DB) ProfileByName(ctx context.Context, agencyID int64, typ int, name string) (int64, error) {
	var id int64
	err := db.primary.QueryRowContext(ctx, db.q(`SELECT rec_no FROM profile WHERE agency_id = ? AND type = ? AND name = ? ORDER BY rec_no LIMIT 1`),
		agencyID, typ, name).Scan(&id)
	return id, notFound(err)
}

// CreateUser inserts an app user with its permissions, in one transaction.
func (db *DB) CreateUser(ctx context.Context, u wayfarer.NewUser) (id int64, err error) {
	err = db.Tx(ctx, func(tx *sql.Tx) error {
		now := ts(time.Now())
		if err := tx.QueryRowContext(ctx, db.q(`INSERT INTO app_user (agency_id, user_name, user_name_key, type, enabled, password_hash,
			non_expiring_password, password_last_modified, branch_id, name, email, create_date_time, last_modified_date_time)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING rec_no`),
			u.AgencyID, u.UserName, wayfarer.NormalizeUserName(u.UserName), u.Type, u.Enabled, u.PasswordHash,
			u.NonExpiringPassword, ts(u.PasswordSetAt), u.BranchID, nullString(u.Name), nullString(u.Email), now, now).Scan(&id); err != nil {
			return err
		}
		set := map[wayfarer.Area]wayfarer.Permission{}
		for a, bits := range u.Perms {
			if bits != 0 {
				set[wayfarer.Area(a)] = bits
			}
		}
		return db.writePermissions(ctx, tx, u.AgencyID, id, set)
	})
	return id, err
}

// ListUsers lists an agency's users by name, with whether failed logins
// lock the name at now (from any address).
func (db *DB) ListUsers(ctx context.Context, agencyID int64, now time.Time) ([]wayfarer.User, error) {
	rows, err := db.primary.QueryContext(ctx, db.q(`SELECT `+userColumns+`,
		EXISTS (SELECT 1 FROM login_attempt la WHERE la.agency_id = app_user.agency_id
			AND la.user_name_key = app_user.user_name_key AND la.locked_until > ?)
		FROM app_user WHERE agency_id = ? ORDER BY user_name_key`), ts(now), agencyID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []wayfarer.User
	for rows.Next() {
		var lockedOut bool
		u, err := scanUser(rows, &lockedOut)
		if err != nil {
			return nil, err
		}
		u.LockedOut = lockedOut
		out = append(out, *u)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	perms, err := db.readPermissions(ctx, agencyID, 0)
	if err != nil {
		return nil, err
	}
	for i := range out {
		if p := perms[out[i].ID]; p != nil {
			out[i].Perms = *p
		}
	}
	return out, nil
}

// changeUser runs one change to a user (an UPDATE or DELETE of change,
// with args) and, when it changed a row, ends the user's sessions with
// it. ErrNotFound when update names no row (notFoundIfNone).
func (db *DB) changeUser(ctx context.Context, agencyID, userID int64, endSessions, notFoundIfNone bool, change string, args ...any) error {
	return db.revokingTx(ctx, func(tx *sql.Tx, revoke func(wayfarer.Revocation) error) error {
		res, err := tx.ExecContext(ctx, db.q(change), args...)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		if n == 0 {
			if notFoundIfNone {
				return wayfarer.ErrNotFound
			}
			return nil
		}
		if !endSessions {
			return nil
		}
		return db.endUserSessions(ctx, tx, revoke, agencyID, userID)
	})
}

// SetUserPassword stores a new hash and restarts the password's age; the
// user's sessions end.
func (db *DB) SetUserPassword(ctx context.Context, agencyID, userID int64, hash string, at time.Time) error {
	return db.changeUser(ctx, agencyID, userID, true, true,
		`UPDATE app_user SET password_hash = ?, password_last_modified = ? WHERE agency_id = ? AND rec_no = ?`,
		hash, ts(at), agencyID, userID)
}

// SetUserBranch moves a user to a branch (nil: none); the user's sessions end.
func (db *DB) SetUserBranch(ctx context.Context, agencyID, userID int64, branchID *int64) error {
	return db.changeUser(ctx, agencyID, userID, true, true,
		`UPDATE app_user SET branch_id = ? WHERE agency_id = ? AND rec_no = ?`, branchID, agencyID, userID)
}

// SetUserEnabled enables or disables a user; disabling ends its sessions.
func (db *DB) SetUserEnabled(ctx context.Context, agencyID, userID int64, enabled bool) error {
	return db.changeUser(ctx, agencyID, userID, !enabled, true,
		`UPDATE app_user SET enabled = ? WHERE agency_id = ? AND rec_no = ?`, enabled, agencyID, userID)
}

// SetUserLocked sets or clears an administrator's lock; locking ends the
// user's sessions.
func (db *DB) SetUserLocked(ctx context.Context, agencyID, userID int64, locked bool) error {
	return db.changeUser(ctx, agencyID, userID, locked, true,
		`UPDATE app_user SET locked = ? WHERE agency_id = ? AND rec_no = ?`, locked, agencyID, userID)
}

// UnlockUser lifts an administrator's lock and forgets the failed logins of
// the user's name from every address (lifting their lockouts).
func (db *DB) UnlockUser(ctx context.Context, agencyID, userID int64) error {
	return db.Tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, db.q(`UPDATE app_user SET locked = ? WHERE agency_id = ? AND rec_no = ?`), false, agencyID, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return wayfarer.ErrNotFound
		}
		_, err = tx.ExecContext(ctx, db.q(`DELETE FROM login_attempt WHERE agency_id = ?
			AND user_name_key = (SELECT user_name_key FROM app_user WHERE agency_id = ? AND rec_no = ?)`), agencyID, agencyID, userID)
		return err
	})
}

// LinkUserAdvisor links a user to an advisor profile (OnlySelf reaches its
// persons); a new link ends the user's sessions.
func (db *DB) LinkUserAdvisor(ctx context.Context, agencyID, userID, profileID int64) error {
	return db.changeUser(ctx, agencyID, userID, true, false,
		`INSERT INTO app_user_advisor (agency_id, app_user_id, profile_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
		agencyID, userID, profileID)
}

// UnlinkUserAdvisor removes a user's link to an advisor profile; removing
// one ends the user's sessions.
func (db *DB) UnlinkUserAdvisor(ctx context.Context, agencyID, userID, profileID int64) error {
	return db.changeUser(ctx, agencyID, userID, true, false,
		`DELETE FROM app_user_advisor WHERE agency_id = ? AND app_user_id = ? AND profile_id = ?`, agencyID, userID, profileID)
}

// nullString stores "" as null.
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}
