package sqlstore

import (
	"context"
	"database/sql"
	"errors"
)

// Definitions persons refer to: tags, marketing elements and affiliations.
// Each Ensure call finds the row by name (code for marketing elements) or
// creates it, so seeding twice adds nothing.

// EnsureTag returns the recNo of the agency's tag with this name, creating it.
func (db *DB) EnsureTag(ctx context.Context, agencyID int64, name string) (int64, error) {
	return db.ensureNamed(ctx, `SELECT rec_no FROM tag WHERE agency_id = ? AND name = ?`,
		`INSERT INTO tag (agency_id, name) VALUES (?, ?) RETURNING rec_no`, agencyID, name)
}

// EnsureMarketingElement returns the recNo of the agency's marketing element
// with this code (marketingElementId, e.g. NOEMM), creating it.
func (db *DB) EnsureMarketingElement(ctx context.Context, agencyID int64, code, name string) (int64, error) {
	return db.ensureNamed(ctx, `SELECT rec_no FROM marketing_element WHERE agency_id = ? AND code = ?`,
		`INSERT INTO marketing_element (agency_id, code, name) VALUES (?, ?, ?) RETURNING rec_no`, agencyID, code, name)
}

// EnsureAffiliation returns the recNo of the agency's affiliation with this name, creating it.
func (db *DB) EnsureAffiliation(ctx context.Context, agencyID int64, name string) (int64, error) {
	return db.ensureNamed(ctx, `SELECT rec_no FROM affiliation WHERE agency_id = ? AND name = ?`,
		`INSERT INTO affiliation (agency_id, name) VALUES (?, ?) RETURNING rec_no`, agencyID, name)
}

// ensureNamed looks a row up by (agency, key) and inserts it (with extra
// values) when missing.
func (db *DB) ensureNamed(ctx context.Context, find, insert string, agencyID int64, key string, extra ...any) (int64, error) {
	var id int64
	err := db.primary.QueryRowContext(ctx, db.q(find), agencyID, key).Scan(&id)
	if err == nil {
		return id, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	err = db.primary.QueryRowContext(ctx, db.q(insert), append([]any{agencyID, key}, extra...)...).Scan(&id)
	return id, err
}

// CountPersons is the number of persons of an agency.
func (db *DB) CountPersons(ctx context.Context, agencyID int64) (int64, error) {
	var n int64
	err := db.primary.QueryRowContext(ctx, db.q(`SELECT COUNT(*) FROM person WHERE agency_id = ?`), agencyID).Scan(&n)
	return n, err
}
