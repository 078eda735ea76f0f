package sqlstore

import (
	"context"
	"database/sql"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// app_user_permission holds one row per user and area with bits; no row:
// no permission in that area. Rows name their area by its devportal name,
// so the order of wayfarer's Area constants is free to change; a row of an
// area this binary does not know is ignored.

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// writePermissions sets the bits of the areas in set for one user: a row
// per area with bits, none for an area without.
func (db *DB) writePermissions(ctx context.Context, tx execer, agencyID, userID int64, set map[wayfarer.Area]wayfarer.Permission) error {
	return db.writeAreaBits(ctx, tx, set,
		`DELETE FROM app_user_permission WHERE agency_id = ? AND app_user_id = ? AND area = ?`,
		`INSERT INTO app_user_permission (agency_id, app_user_id, area, bits) VALUES (?, ?, ?, ?)
			ON CONFLICT (agency_id, app_user_id, area) DO UPDATE SET bits = excluded.bits`,
		agencyID, userID)
}

// writeAreaBits writes the areas of set into a table of bits per area
// (app_user_permission, operator_grant): del removes the row of an area
// without bits (args: keys..., area), upsert writes the others (keys...,
// area, bits).
func (db *DB) writeAreaBits(ctx context.Context, tx execer, set map[wayfarer.Area]wayfarer.Permission, del, upsert string, keys ...any) error {
	for _, a := range wayfarer.Areas() { // one order, whatever the map's
		bits, ok := set[a]
		if !ok {
			continue
		}
		args := append(append([]any{}, keys...), a.String())
		var err error
		if bits == 0 {
			_, err = tx.ExecContext(ctx, db.q(del), args...)
		} else {
			_, err = tx.ExecContext(ctx, db.q(upsert), append(args, bits)...)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// setPermission records one row read from app_user_permission in p.
func setPermission(p *wayfarer.Permissions, area string, bits wayfarer.Permission) {
	if a, ok := wayfarer.AreaByName(area); ok {
		p[a] = bits
	}
}

// readPermissions reads the permissions of one user, or of every user of
// the agency when userID is 0, by user.
func (db *DB) readPermissions(ctx context.Context, agencyID, userID int64) (map[int64]*wayfarer.Permissions, error) {
	query, args := `SELECT app_user_id, area, bits FROM app_user_permission WHERE agency_id = ?`, []any{agencyID}
	if userID != 0 {
		query, args = query+` AND app_user_id = ?`, append(args, userID)
	}
	rows, err := db.primary.QueryContext(ctx, db.q(query), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]*wayfarer.Permissions{}
	for rows.Next() {
		var user int64
		var area string
		var bits wayfarer.Permission
		if err := rows.Scan(&user, &area, &bits); err != nil {
			return nil, err
		}
		p := out[user]
		if p == nil {
			p = new(wayfarer.Permissions)
			out[user] = p
		}
		setPermission(p, area, bits)
	}
	return out, rows.Err()
}

// SetUserPermissions replaces the bits of the areas in set, keeping the
// other areas'; the user's sessions end.
func (db *DB) SetUserPermissions(ctx context.Context, agencyID, userID int64, set map[wayfarer.Area]wayfarer.Permission) error {
	return db.revokingTx(ctx, func(tx *sql.Tx, revoke func(wayfarer.Revocation) error) error {
		var one int
		if err := tx.QueryRowContext(ctx, db.q(`SELECT 1 FROM app_user WHERE agency_id = ? AND rec_no = ?`), agencyID, userID).Scan(&one); err != nil {
			return notFound(err)
		}
		if err := db.writePermissions(ctx, tx, agencyID, userID, set); err != nil {
			return err
		}
		return db.endUserSessions(ctx, tx, revoke, agencyID, userID)
	})
}
