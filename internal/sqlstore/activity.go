package sqlstore

// The activity store: wayfarer.ActivityStore. Every statement names
// agency_id, and every read goes through activityReach, the one statement
// of who reaches which activity (docs/activities.md, "Scope").

import (
	"context"
	"database/sql"
	"slices"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

var _ wayfarer.ActivityStore = (*DB)(nil)

var activityColumns = []pcolumn{
	{"appUser_recNo", "app_user_id", nil}, {"type", "type", nil}, {"subType", "sub_type", nil},
	{"priority", "priority", nil}, {"targetDateTime", "target_date_time", nil}, {"targetDate", "target_date", nil},
	{"duration", "duration", nil}, {"completionDateTime", "completion_date_time", nil},
	{"alertDateTime", "alert_date_time", nil}, {"alertOffset", "alert_offset", nil},
	{"subject", "subject", nil}, {"remarks", "remarks", nil}, {"private", "private", false},
}

var activityTagColumns = []pcolumn{{"tag_recNo", "tag_id", nil}, {"value", "value", nil}}

// activityReach is the condition that the activity of alias a lies in the
// scope: its agency; a private activity only for its appUser; OnlySelf:
// the caller's own, or linked to a person of the caller's advisors;
// OnlyBranch: its appUser of the caller's branch, or linked to a person of
// that branch (no branch: none).
func activityReach(d Dialect, a string, sc wayfarer.Scope) []Expr {
	return linkedActivityReach(d, a, sc, nil)
}

// linkedActivityReach is activityReach for activities known to be linked
// to a person that passes persons (a person search's scope): a part of the
// reach that such a person already satisfies is left out, since it holds
// for every activity tested. Not a shortcut of the rule but of the SQL: as
// an OR of scalar subqueries PostgreSQL guessed it let 1 activity in 100
// through, and for "my open tasks this week" at 1,000,000 persons it then
// started from all 23,202 of them (300 ms) instead of the persons in name
// order.
func linkedActivityReach(d Dialect, a string, sc wayfarer.Scope, persons *wayfarer.Scope) []Expr {
	// Scalar subqueries, one index lookup each per activity (its one
	// person): as EXISTS under an OR, PostgreSQL may plan them as hashed
	// subplans over every person of the agency.
	linked := func(col string) string {
		return "(SELECT rp." + col + " FROM person rp WHERE rp.agency_id = " + a + ".agency_id AND rp.rec_no = " + a + ".person_id)"
	}
	w := []Expr{
		E(a+".agency_id = ?", sc.AgencyID),
		E("("+a+".private = "+d.BoolLit(false)+" OR "+a+".app_user_id = ?)", sc.UserID),
	}
	if sc.OnlySelf && !(persons != nil && persons.OnlySelf && subset(persons.AdvisorIDs, sc.AdvisorIDs)) {
		w = append(w, Or(E(a+".app_user_id = ?", sc.UserID), In(linked("advisor_profile_id"), sc.AdvisorIDs)))
	}
	if sc.OnlyBranch && !(persons != nil && persons.OnlyBranch && persons.BranchID != nil && sc.BranchID != nil && *persons.BranchID == *sc.BranchID) {
		if sc.BranchID == nil {
			w = append(w, exprFalse)
		} else {
			w = append(w, Or(
				E("(SELECT ru.branch_id FROM app_user ru WHERE ru.agency_id = "+a+".agency_id AND ru.rec_no = "+a+".app_user_id) = ?", *sc.BranchID),
				E(linked("branch_id")+" = ?", *sc.BranchID)))
		}
	}
	return w
}

// subset reports whether every id of a is in b.
func subset(a, b []int64) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// LoadActivity loads an activity in reach with its link and tags.
func (db *DB) LoadActivity(ctx context.Context, sc wayfarer.Scope, recNo int64) (a *wayfarer.Activity, err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	err = db.read(ctx, db.primary, func(q personQuerier) error {
		var err error
		a, err = db.loadActivity(ctx, q, sc, recNo, "")
		return err
	})
	return a, err
}

func (db *DB) loadActivity(ctx context.Context, q personQuerier, sc wayfarer.Scope, recNo int64, lock string) (*wayfarer.Activity, error) {
	var (
		id, typ, priority                          int64
		user, subType, duration, alertOffset, pers sql.NullInt64
		userName, subject, remarks                 sql.NullString
		personName, phone, email                   sql.NullString
		target, completion, alert                  sql.NullTime
		targetDate                                 sql.NullTime
		private                                    bool
	)
	where := And(append(activityReach(db.Dialect, "a", sc), E("a.rec_no = ?", recNo))...)
	err := q.QueryRowContext(ctx, db.q(`
		SELECT a.rec_no, a.app_user_id, u.user_name, a.type, a.sub_type, a.priority, a.target_date_time, a.target_date,
			a.duration, a.completion_date_time, a.alert_date_time, a.alert_offset, a.subject, a.remarks, a.private,
			a.person_id, `+personNameExpr+`, `+primaryCommSQL(db.Dialect, "value", wayfarer.CommPhone)+`,
			`+primaryCommSQL(db.Dialect, "value", wayfarer.CommEmail)+`
		FROM activity a
		LEFT JOIN app_user u ON u.agency_id = a.agency_id AND u.rec_no = a.app_user_id
		LEFT JOIN person p ON p.agency_id = a.agency_id AND p.rec_no = a.person_id
		WHERE `+where.SQL+lock), where.Args...).Scan(
		&id, &user, &userName, &typ, &subType, &priority, &target, &targetDate,
		&duration, &completion, &alert, &alertOffset, &subject, &remarks, &private,
		&pers, &personName, &phone, &email)
	if err != nil {
		return nil, notFound(err)
	}
	a := &wayfarer.Activity{
		RecNo: wayfarer.Some(id), AppUserRecNo: oid(user), AppUserID: ostr(userName),
		Type: wayfarer.Some(int(typ)), SubType: oint(subType), Priority: wayfarer.Some(int(priority)),
		TargetDateTime: otime(target), TargetDate: odate(targetDate), Duration: oint(duration),
		CompletionDateTime: otime(completion), AlertDateTime: otime(alert), AlertOffset: oint(alertOffset),
		Subject: ostr(subject), Remarks: ostr(remarks), Private: wayfarer.Some(private),
		ActivityTag: []wayfarer.ActivityTag{},
	}
	if pers.Valid {
		a.ActivityPersonLink = &wayfarer.ActivityPersonLink{ActivityRecNo: wayfarer.Some(id), PersonRecNo: wayfarer.Some(pers.Int64),
			PersonName: ostr(personName), PersonPhone: ostr(phone), PersonEmail: ostr(email)}
	}
	err = queryEach(ctx, q, db.q(`
		SELECT at.rec_no, at.tag_id, t.name, at.value
		FROM activity_tag at JOIN tag t ON t.agency_id = at.agency_id AND t.rec_no = at.tag_id
		WHERE at.agency_id = ? AND at.activity_id = ? ORDER BY at.rec_no`), []any{sc.AgencyID, id},
		func(rows *sql.Rows) error {
			var tid, tag int64
			var name string
			var value sql.NullString
			if err := rows.Scan(&tid, &tag, &name, &value); err != nil {
				return err
			}
			a.ActivityTag = append(a.ActivityTag, wayfarer.ActivityTag{RecNo: wayfarer.Some(tid), ActivityRecNo: wayfarer.Some(id),
				TagRecNo: wayfarer.Some(tag), Name: wayfarer.Some(name), Value: ostr(value)})
			return nil
		})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// CreateActivity inserts an activity with its link and tags in one
// transaction; one the creator would not reach is rolled back (ErrOutOfScope).
func (db *DB) CreateActivity(ctx context.Context, sc wayfarer.Scope, w *wayfarer.ActivityWrite) (recNo int64, err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	err = db.requestTx(ctx, func(tx *sql.Tx) error {
		ch := w.Changes
		if err := db.checkActivityRefs(ctx, tx, sc.AgencyID, ch); err != nil {
			return err
		}
		names, values := activityAssignments(ch)
		if !hasName(ch.Fields, "private") {
			names, values = append(names, "private"), append(values, false)
		}
		now := ts(w.Now)
		names = append(names, "agency_id", "create_date_time", "last_modified_date_time")
		values = append(values, sc.AgencyID, now, now)
		var err error
		if recNo, err = db.insertRow(ctx, tx, "activity", names, values); err != nil {
			return err
		}
		return db.applyActivityChildren(ctx, tx, sc, recNo, ch)
	})
	return recNo, err
}

// UpdateActivity runs an activity save in one transaction: the activity is
// locked (PostgreSQL; SQLite holds the write lock from BEGIN), loaded as
// LoadActivity shows it, fn decides, and the changes are applied.
func (db *DB) UpdateActivity(ctx context.Context, sc wayfarer.Scope, recNo int64,
	fn func(current *wayfarer.Activity) (*wayfarer.ActivityWrite, error)) (err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	return db.requestTx(ctx, func(tx *sql.Tx) error {
		var id int64
		err := tx.QueryRowContext(ctx, db.q(`SELECT rec_no FROM activity WHERE agency_id = ? AND rec_no = ?`+db.Dialect.ForUpdate),
			sc.AgencyID, recNo).Scan(&id)
		if err != nil {
			return notFound(err)
		}
		current, err := db.loadActivity(ctx, tx, sc, recNo, "")
		if err != nil {
			return err
		}
		w, err := fn(current)
		if err != nil {
			return err
		}
		ch := w.Changes
		if ch.Empty() {
			return nil
		}
		if err := db.checkActivityRefs(ctx, tx, sc.AgencyID, ch); err != nil {
			return err
		}
		names, values := activityAssignments(ch)
		names, values = append(names, "last_modified_date_time"), append(values, ts(w.Now))
		if _, err := db.updateRow(ctx, tx, "activity", names, values, `agency_id = ? AND rec_no = ?`, sc.AgencyID, recNo); err != nil {
			return err
		}
		return db.applyActivityChildren(ctx, tx, sc, recNo, ch)
	})
}

// activityAssignments are the activity row's changed columns, its person
// (the link, a column of the row) among them when it changed.
func activityAssignments(ch *wayfarer.ActivityChanges) ([]string, []any) {
	names, values := assignments(activityColumns, ch.New, ch.Fields)
	if ch.LinkChanged {
		var person any // nil: the link removed
		if p := ch.Person(); p != nil {
			person = *p
		}
		names, values = append(names, "person_id"), append(values, person)
	}
	return names, values
}

// applyActivityChildren writes the tags, then checks that the saver still
// reaches the activity.
func (db *DB) applyActivityChildren(ctx context.Context, tx *sql.Tx, sc wayfarer.Scope, recNo int64, ch *wayfarer.ActivityChanges) error {
	agencyID := sc.AgencyID
	for _, t := range ch.Tags {
		switch t.Op {
		case wayfarer.OpInsert:
			names, values := assignments(activityTagColumns, t.New, t.Fields)
			names, values = append(names, "agency_id", "activity_id"), append(values, agencyID, recNo)
			if _, err := db.insertRow(ctx, tx, "activity_tag", names, values); err != nil {
				return err
			}
		case wayfarer.OpUpdate:
			names, values := assignments(activityTagColumns, t.New, t.Fields)
			if _, err := db.updateRow(ctx, tx, "activity_tag", names, values, `agency_id = ? AND activity_id = ? AND rec_no = ?`, agencyID, recNo, t.RecNo); err != nil {
				return err
			}
		case wayfarer.OpDelete:
			if _, err := tx.ExecContext(ctx, db.q(`DELETE FROM activity_tag WHERE agency_id = ? AND activity_id = ? AND rec_no = ?`), agencyID, recNo, t.RecNo); err != nil {
				return err
			}
		}
	}
	where := And(append(activityReach(db.Dialect, "a", sc), E("a.rec_no = ?", recNo))...)
	var one int
	err := tx.QueryRowContext(ctx, db.q(`SELECT 1 FROM activity a WHERE `+where.SQL), where.Args...).Scan(&one)
	if err == sql.ErrNoRows {
		return wayfarer.ErrOutOfScope
	}
	return err
}

// checkActivityRefs answers a 407 naming the field when a save refers to
// an app user, person or tag the agency does not have.
func (db *DB) checkActivityRefs(ctx context.Context, tx *sql.Tx, agencyID int64, ch *wayfarer.ActivityChanges) error {
	type ref struct {
		path, query string
		id          int64
	}
	var refs []ref
	if hasName(ch.Fields, "appUser_recNo") && ch.New.AppUserRecNo.Valid {
		refs = append(refs, ref{"appUser_recNo", `SELECT 1 FROM app_user WHERE agency_id = ? AND rec_no = ?`, ch.New.AppUserRecNo.Value})
	}
	if p := ch.Person(); ch.LinkChanged && p != nil {
		refs = append(refs, ref{"activityPersonLink.person_recNo", `SELECT 1 FROM person WHERE agency_id = ? AND rec_no = ?`, *p})
	}
	for _, t := range ch.Tags {
		if t.Op != wayfarer.OpDelete && hasName(t.Fields, "tag_recNo") && t.New.TagRecNo.Valid {
			refs = append(refs, ref{t.Path + ".tag_recNo", `SELECT 1 FROM tag WHERE agency_id = ? AND rec_no = ?`, t.New.TagRecNo.Value})
		}
	}
	for _, r := range refs {
		var one int
		err := tx.QueryRowContext(ctx, db.q(r.query), agencyID, r.id).Scan(&one)
		if err == sql.ErrNoRows {
			return wayfarer.Errorf(wayfarer.KindInvalid, contract.CodeInvalidValue, wayfarer.MethodActivity, "%s %d does not exist", r.path, r.id)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
