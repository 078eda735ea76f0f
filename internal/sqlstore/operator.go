package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Host operators (docs/operators.md): host-level rows, in no agency. Their
// sessions are identity_token rows with operator_id set (agency_id 0: the
// admin domain); their grants are per agency.

// CreateOperator inserts an enabled operator.
func (db *DB) CreateOperator(ctx context.Context, name, hash string, at time.Time) (int64, error) {
	return db.insertID(ctx, `INSERT INTO operator (name, name_key, password_hash, enabled, created_at) VALUES (?, ?, ?, ?, ?)`,
		name, wayfarer.NormalizeUserName(name), hash, true, ts(at))
}

const operatorColumns = `rec_no, name, password_hash, enabled, created_at`

func scanOperator(row interface{ Scan(...any) error }) (*wayfarer.Operator, error) {
	var o wayfarer.Operator
	if err := row.Scan(&o.ID, &o.Name, &o.PasswordHash, &o.Enabled, &o.CreatedAt); err != nil {
		return nil, notFound(err)
	}
	return &o, nil
}

// OperatorByName finds an operator by name, case-insensitively.
func (db *DB) OperatorByName(ctx context.Context, name string) (_ *wayfarer.Operator, err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	return scanOperator(db.primary.QueryRowContext(ctx, db.q(`SELECT `+operatorColumns+` FROM operator WHERE name_key = ?`),
		wayfarer.NormalizeUserName(name)))
}

// ListOperators lists every operator by name with its grants by alias.
func (db *DB) ListOperators(ctx context.Context) ([]wayfarer.Operator, error) {
	rows, err := db.primary.QueryContext(ctx, `SELECT `+operatorColumns+` FROM operator ORDER BY name_key`)
	if err != nil {
		return nil, err
	}
	var out []wayfarer.Operator
	index := map[int64]int{}
	for rows.Next() {
		o, err := scanOperator(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		index[o.ID] = len(out)
		out = append(out, *o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = db.primary.QueryContext(ctx, `SELECT g.operator_id, g.agency_id, a.alias, g.area, g.bits
		FROM operator_grant g JOIN agency a ON a.rec_no = g.agency_id ORDER BY g.operator_id, a.alias`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var opID, agencyID int64
		var alias, area string
		var bits wayfarer.Permission
		if err := rows.Scan(&opID, &agencyID, &alias, &area, &bits); err != nil {
			return nil, err
		}
		o := &out[index[opID]]
		if n := len(o.Grants); n == 0 || o.Grants[n-1].AgencyID != agencyID {
			o.Grants = append(o.Grants, wayfarer.OperatorGrant{AgencyID: agencyID, Alias: alias})
		}
		setPermission(&o.Grants[len(o.Grants)-1].Perms, area, bits)
	}
	return out, rows.Err()
}

// changeOperator runs one change to an operator and ends every session of
// the operator with it, on every instance. ErrNotFound when the change
// names no operator row (notFoundIfNone).
func (db *DB) changeOperator(ctx context.Context, operatorID int64, notFoundIfNone bool, change func(tx *sql.Tx) (int64, error)) error {
	return db.revokingTx(ctx, func(tx *sql.Tx, revoke func(wayfarer.Revocation) error) error {
		n, err := change(tx)
		if err != nil {
			return err
		}
		if n == 0 && notFoundIfNone {
			return wayfarer.ErrNotFound
		}
		if _, err := tx.ExecContext(ctx, db.q(`DELETE FROM identity_token WHERE operator_id = ?`), operatorID); err != nil {
			return err
		}
		return revoke(wayfarer.Revocation{AgencyID: wayfarer.HostAgencyID, OperatorID: operatorID})
	})
}

// SetOperatorEnabled enables or disables an operator; its sessions end.
func (db *DB) SetOperatorEnabled(ctx context.Context, operatorID int64, enabled bool) error {
	return db.changeOperator(ctx, operatorID, true, func(tx *sql.Tx) (int64, error) {
		res, err := tx.ExecContext(ctx, db.q(`UPDATE operator SET enabled = ? WHERE rec_no = ?`), enabled, operatorID)
		if err != nil {
			return 0, err
		}
		return res.RowsAffected()
	})
}

// SetOperatorPassword stores a new hash and forgets the failed logins of
// the operator's name; its sessions end.
func (db *DB) SetOperatorPassword(ctx context.Context, operatorID int64, hash string) error {
	return db.changeOperator(ctx, operatorID, true, func(tx *sql.Tx) (int64, error) {
		res, err := tx.ExecContext(ctx, db.q(`UPDATE operator SET password_hash = ? WHERE rec_no = ?`), hash, operatorID)
		if err != nil {
			return 0, err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return 0, err
		}
		_, err = tx.ExecContext(ctx, db.q(`DELETE FROM login_attempt WHERE agency_id = ?
			AND user_name_key = (SELECT name_key FROM operator WHERE rec_no = ?)`), wayfarer.HostAgencyID, operatorID)
		return n, err
	})
}

// SetOperatorGrant replaces the operator's bits of the areas in set in one
// agency (an area set to none loses its row); its sessions end.
func (db *DB) SetOperatorGrant(ctx context.Context, operatorID, agencyID int64, set map[wayfarer.Area]wayfarer.Permission) error {
	return db.changeOperator(ctx, operatorID, false, func(tx *sql.Tx) (int64, error) {
		err := db.writeAreaBits(ctx, tx, set,
			`DELETE FROM operator_grant WHERE operator_id = ? AND agency_id = ? AND area = ?`,
			`INSERT INTO operator_grant (operator_id, agency_id, area, bits) VALUES (?, ?, ?, ?)
				ON CONFLICT (operator_id, agency_id, area) DO UPDATE SET bits = excluded.bits`,
			operatorID, agencyID)
		return 1, err
	})
}

// RevokeOperatorGrant removes every right of the operator in an agency;
// its sessions end.
func (db *DB) RevokeOperatorGrant(ctx context.Context, operatorID, agencyID int64) error {
	return db.changeOperator(ctx, operatorID, false, func(tx *sql.Tx) (int64, error) {
		res, err := tx.ExecContext(ctx, db.q(`DELETE FROM operator_grant WHERE operator_id = ? AND agency_id = ?`), operatorID, agencyID)
		if err != nil {
			return 0, err
		}
		return res.RowsAffected()
	})
}

// OperatorGrant answers the operator's bits in one agency.
func (db *DB) OperatorGrant(ctx context.Context, operatorID, agencyID int64) (_ wayfarer.Permissions, ok bool, err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	var p wayfarer.Permissions
	rows, err := db.primary.QueryContext(ctx, db.q(`SELECT area, bits FROM operator_grant WHERE operator_id = ? AND agency_id = ?`),
		operatorID, agencyID)
	if err != nil {
		return p, false, err
	}
	defer rows.Close()
	for rows.Next() {
		var area string
		var bits wayfarer.Permission
		if err := rows.Scan(&area, &bits); err != nil {
			return p, false, err
		}
		setPermission(&p, area, bits)
		ok = true
	}
	return p, ok, rows.Err()
}

// CreateOperatorToken stores a new operator session (agencyID 0: the admin
// domain) and returns its tokenRecNo, from the one sequence of
// identity_token.
func (db *DB) CreateOperatorToken(ctx context.Context, agencyID, operatorID int64, createdAt, expiresAt time.Time) (_ int64, err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	var id int64
	err = db.primary.QueryRowContext(ctx, db.q(
		`INSERT INTO identity_token (agency_id, operator_id, created_at, expires_at) VALUES (?, ?, ?, ?) RETURNING rec_no`),
		agencyID, operatorID, ts(createdAt), ts(expiresAt)).Scan(&id)
	return id, err
}

// OperatorSessionByToken loads an operator's live session with the
// operator's grant in its agency (none in the admin domain). One row per
// granted area; in an agency, the agency must be active and the grant
// still there.
func (db *DB) OperatorSessionByToken(ctx context.Context, agencyID, tokenID, operatorID int64, now time.Time) (_ *wayfarer.Session, err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	rows, err := db.primary.QueryContext(ctx, db.q(`
		SELECT t.rec_no, t.agency_id, COALESCE(a.alias, ''), o.rec_no, o.name, t.expires_at, g.area, g.bits
		FROM identity_token t
		JOIN operator o ON o.rec_no = t.operator_id
		LEFT JOIN agency a ON a.rec_no = t.agency_id
		LEFT JOIN operator_grant g ON g.operator_id = o.rec_no AND g.agency_id = t.agency_id
		WHERE t.agency_id = ? AND t.rec_no = ? AND t.operator_id = ? AND t.expires_at > ? AND o.enabled = ?
			AND (t.agency_id = ? OR (a.status = ? AND g.area IS NOT NULL))`),
		agencyID, tokenID, operatorID, ts(now), true, wayfarer.HostAgencyID, wayfarer.AgencyActive)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var s *wayfarer.Session
	for rows.Next() {
		var cur wayfarer.Session
		var area sql.NullString
		var bits sql.NullInt64
		if err := rows.Scan(&cur.TokenID, &cur.AgencyID, &cur.AgencyAlias, &cur.OperatorID, &cur.UserName, &cur.ExpiresAt,
			&area, &bits); err != nil {
			return nil, err
		}
		if s == nil {
			s = &cur // no UserType: an operator is no app user
		}
		if area.Valid {
			setPermission(&s.Perms, area.String, wayfarer.Permission(bits.Int64))
		}
	}
	return foundSession(rows, s)
}

// RecordOperatorAction appends one row to the operators' audit.
func (db *DB) RecordOperatorAction(ctx context.Context, e wayfarer.AuditEntry) (err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	_, err = db.primary.ExecContext(ctx, db.q(`INSERT INTO operator_audit (at, operator_id, operator_name, agency_id, action, target, detail)
		VALUES (?, ?, ?, ?, ?, ?, ?)`), ts(e.At), nullID(e.OperatorID), e.OperatorName, nullID(e.AgencyID), e.Action, e.Target, e.Detail)
	return err
}

// OperatorAudit lists the newest audit rows, newest first.
func (db *DB) OperatorAudit(ctx context.Context, limit int) ([]wayfarer.AuditEntry, error) {
	rows, err := db.primary.QueryContext(ctx, db.q(`SELECT at, operator_id, operator_name, agency_id, action, target, detail
		FROM operator_audit ORDER BY rec_no DESC LIMIT ?`), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []wayfarer.AuditEntry
	for rows.Next() {
		var e wayfarer.AuditEntry
		var op, agency sql.NullInt64
		if err := rows.Scan(&e.At, &op, &e.OperatorName, &agency, &e.Action, &e.Target, &e.Detail); err != nil {
			return nil, err
		}
		e.OperatorID, e.AgencyID = op.Int64, agency.Int64
		out = append(out, e)
	}
	return out, rows.Err()
}
