package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Tag definitions (wayfarer.TagStore).

var tagDefColumns = []pcolumn{
	{"name", "name", nil}, {"activeStatus", "active_status", true}, {"valueFreeFlow", "value_free_flow", true},
	{"valueRequired", "value_required", false}, {"valueList", "value_list", nil}, {"description", "description", nil},
	{"areaFlags", "area_flags", 0}, {"requirement", "requirement", wayfarer.TagOptional}, {"defaultValue", "default_value", nil},
}

const tagSelect = `SELECT rec_no, name, active_status, value_free_flow, value_required, value_list, description,
	area_flags, requirement, default_value FROM tag WHERE agency_id = ? AND rec_no = ?`

// LoadTag returns the agency's tag; wayfarer.ErrNotFound when it has none.
func (db *DB) LoadTag(ctx context.Context, agencyID, recNo int64) (t *wayfarer.Tag, err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	err = db.read(ctx, db.primary, func(q personQuerier) error {
		t, err = db.loadTag(ctx, q, agencyID, recNo, "")
		return err
	})
	return t, err
}

func (db *DB) loadTag(ctx context.Context, q personQuerier, agencyID, recNo int64, lock string) (*wayfarer.Tag, error) {
	var (
		id                         int64
		name                       string
		active, freeFlow, required bool
		list, desc, dflt           sql.NullString
		areaFlags, requirement     int
	)
	err := q.QueryRowContext(ctx, db.q(tagSelect+lock), agencyID, recNo).Scan(&id, &name, &active, &freeFlow, &required,
		&list, &desc, &areaFlags, &requirement, &dflt)
	if err != nil {
		return nil, notFound(err)
	}
	return &wayfarer.Tag{
		RecNo: wayfarer.Some(id), Name: wayfarer.Some(name), ActiveStatus: wayfarer.Some(active),
		ValueFreeFlow: wayfarer.Some(freeFlow), ValueRequired: wayfarer.Some(required), ValueList: ostr(list),
		Description: ostr(desc), AreaFlags: wayfarer.Some(areaFlags), Requirement: wayfarer.Some(requirement),
		DefaultValue: ostr(dflt),
	}, nil
}

// CreateTag inserts a tag definition.
func (db *DB) CreateTag(ctx context.Context, agencyID int64, t *wayfarer.Tag, fields []string, now time.Time) (recNo int64, err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	err = db.requestTx(ctx, func(tx *sql.Tx) error {
		if err := db.checkTagName(ctx, tx, agencyID, 0, t, fields); err != nil {
			return err
		}
		names, values := assignments(tagDefColumns, t, fields)
		names = append(names, "agency_id", "create_date_time", "last_modified_date_time")
		values = append(values, agencyID, ts(now), ts(now))
		var err error
		recNo, err = db.insertRow(ctx, tx, "tag", names, values)
		return err
	})
	return recNo, err
}

// UpdateTag writes the changed fields of a tag under its row lock.
func (db *DB) UpdateTag(ctx context.Context, agencyID, recNo int64, now time.Time,
	fn func(current *wayfarer.Tag) (*wayfarer.Tag, []string, error)) (err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	return db.requestTx(ctx, func(tx *sql.Tx) error {
		current, err := db.loadTag(ctx, tx, agencyID, recNo, db.Dialect.ForUpdate)
		if err != nil {
			return err
		}
		n, fields, err := fn(current)
		if err != nil || len(fields) == 0 {
			return err
		}
		if err := db.checkTagName(ctx, tx, agencyID, recNo, n, fields); err != nil {
			return err
		}
		names, values := assignments(tagDefColumns, n, fields)
		names, values = append(names, "last_modified_date_time"), append(values, ts(now))
		_, err = db.updateRow(ctx, tx, "tag", names, values, `agency_id = ? AND rec_no = ?`, agencyID, recNo)
		return err
	})
}

// checkTagName refuses (407) a name another tag of the agency has: the
// table's unique key would refuse it with an error no client can read.
func (db *DB) checkTagName(ctx context.Context, tx *sql.Tx, agencyID, recNo int64, t *wayfarer.Tag, fields []string) error {
	if !hasName(fields, "name") || !t.Name.Valid {
		return nil
	}
	var other int64
	err := tx.QueryRowContext(ctx, db.q(`SELECT rec_no FROM tag WHERE agency_id = ? AND name = ? AND rec_no <> ?`),
		agencyID, t.Name.Value, recNo).Scan(&other)
	switch {
	case err == sql.ErrNoRows:
		return nil
	case err != nil:
		return err
	}
	return wayfarer.Errorf(wayfarer.KindInvalid, contract.CodeInvalidValue, wayfarer.MethodTag,
		"name %q is already the name of tag %d", t.Name.Value, other)
}

// TagSummary is a tag as the admin command lists it.
type TagSummary struct {
	RecNo        int64
	Name         string
	ActiveStatus bool
	Requirement  int
	AreaFlags    int
}

// ListTags lists the agency's tags by name.
func (db *DB) ListTags(ctx context.Context, agencyID int64) ([]TagSummary, error) {
	var out []TagSummary
	err := queryEach(ctx, db.primary, db.q(`SELECT rec_no, name, active_status, requirement, area_flags FROM tag
		WHERE agency_id = ? ORDER BY name, rec_no`), []any{agencyID}, func(rows *sql.Rows) error {
		var t TagSummary
		if err := rows.Scan(&t.RecNo, &t.Name, &t.ActiveStatus, &t.Requirement, &t.AreaFlags); err != nil {
			return err
		}
		out = append(out, t)
		return nil
	})
	return out, err
}

// EnsureTagDefinition returns the recNo of the agency's tag named t.Name,
// creating it with t's settings when missing (demo data).
func (db *DB) EnsureTagDefinition(ctx context.Context, agencyID int64, t *wayfarer.Tag) (int64, error) {
	names, values := assignments(tagDefColumns, t, []string{"activeStatus", "valueFreeFlow", "valueRequired", "valueList",
		"description", "areaFlags", "requirement", "defaultValue"})
	names = append([]string{"agency_id", "name"}, names...)
	return db.ensureNamed(ctx, `SELECT rec_no FROM tag WHERE agency_id = ? AND name = ?`,
		insertSQL("tag", names)+` RETURNING rec_no`, agencyID, t.Name.Value, values...)
}
