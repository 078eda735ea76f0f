package sqlstore

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/wayfarerhq/wayfarer/client/contract"
	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// column maps a wire field of a record to its column. notNull is written
// instead of null for NOT NULL columns that have a default.
type pcolumn struct {
	field, name string
	notNull     any
}

var (
	personColumns = []pcolumn{
		{"firstName", "first_name", nil}, {"middleName", "middle_name", nil}, {"lastName", "last_name", nil},
		{"courtesyTitle", "courtesy_title", nil}, {"salutation", "salutation", nil},
		{"birthdayDay", "birthday_day", nil}, {"birthdayMonth", "birthday_month", nil}, {"birthdayYear", "birthday_year", nil},
		{"birthdayNote", "birthday_note", nil}, {"citizenship", "citizenship", nil},
		{"redressNumber", "redress_number", nil}, {"knownTravelerNumber", "known_traveler_number", nil},
		{"gender", "gender", nil}, {"uniqueId", "unique_id", nil},
		{"branch_recNo", "branch_id", nil}, {"advisorProfile_recNo", "advisor_profile_id", nil}, {"remarks", "remarks", nil},
		{"emergencyContactName", "emergency_contact_name", nil}, {"emergencyContactRelationship", "emergency_contact_relationship", nil},
		{"emergencyContactPhone", "emergency_contact_phone", nil}, {"emergencyContactEmail", "emergency_contact_email", nil},
		{"activeStatus", "active_status", wayfarer.ActiveStatusActive},
	}
	communicationColumns = []pcolumn{
		{"type", "type", nil}, {"subType", "sub_type", nil}, {"value", "value", nil},
		{"countryDomain", "country_domain", nil}, {"cityArea", "city_area", nil}, {"userSpecific", "user_specific", nil},
		{"description", "description", nil}, {"isPrimary", "is_primary", false}, {"permitMarketing", "permit_marketing", false},
		{"isBillingContact", "is_billing_contact", nil}, {"contactOption", "contact_option", nil},
	}
	cardColumns = []pcolumn{
		{"type", "type", nil}, {"subType", "sub_type", nil}, {"cardNumber", "card_number", nil},
		{"cardNumberToken", "card_number_token", nil}, {"issueDate", "issue_date", nil}, {"expirationDate", "expiration_date", nil},
		{"issuingCity", "issuing_city", nil}, {"issuingCountry", "issuing_country", nil},
		{"issuingCountryName", "issuing_country_name", nil}, {"description", "description", nil},
		{"code", "code", nil}, {"nameOnCard", "name_on_card", nil},
	}
	tagColumns    = []pcolumn{{"tag_recNo", "tag_id", nil}, {"value", "value", nil}}
	actionColumns = []pcolumn{
		{"type", "type", nil}, {"documentTemplate_recNo", "document_template_id", nil},
		{"description", "description", nil}, {"triggerIndex", "trigger_index", nil},
		{"triggerDaysOffset", "trigger_days_offset", nil}, {"triggerFixedDate", "trigger_fixed_date", nil},
		{"appUser_recNo", "app_user_id", nil}, {"completed", "completed", nil},
		{"completedBy_appUserRecNo", "completed_by_app_user_id", nil}, {"notes", "notes", nil},
	}
)

// assignments returns column names and values for the given wire fields of rec.
func assignments(cols []pcolumn, rec any, fields []string) (names []string, values []any) {
	for _, c := range cols {
		if !hasName(fields, c.field) {
			continue
		}
		names = append(names, c.name)
		values = append(values, sqlValue(rec, c))
	}
	return names, values
}

func sqlValue(rec any, c pcolumn) any {
	v, ok := wayfarer.FieldValue(rec, c.field)
	if !ok {
		return c.notNull
	}
	return sqlArg(v)
}

// sqlArg is a field's value as an argument.
func sqlArg(v any) any {
	switch t := v.(type) {
	case wayfarer.Date:
		return t.Time()
	case wayfarer.Timestamp:
		return ts(t.Time())
	}
	return v
}

func hasName(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func insertSQL(table string, names []string) string {
	return `INSERT INTO ` + table + ` (` + strings.Join(names, ", ") + `) VALUES (` +
		strings.TrimSuffix(strings.Repeat("?, ", len(names)), ", ") + `)`
}

func (db *DB) insertRow(ctx context.Context, tx *sql.Tx, table string, names []string, values []any) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, db.q(insertSQL(table, names)+` RETURNING rec_no`), values...).Scan(&id)
	return id, err
}

// updateRow sets names to values on the row of table with the given keys.
func (db *DB) updateRow(ctx context.Context, tx *sql.Tx, table string, names []string, values []any, where string, keys ...any) (int64, error) {
	if len(names) == 0 {
		return 0, nil
	}
	q, args := updateSQL(db, table, names, values, where, keys...)
	res, err := db.execFixed(ctx, tx, q, args)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// updateSQL is the statement, in the engine's placeholders, and the
// arguments that set names to values on the rows of table where where
// holds for keys (names not empty).
func updateSQL(db *DB, table string, names []string, values []any, where string, keys ...any) (string, []any) {
	return db.q(`UPDATE ` + table + ` SET ` + setList(names) + ` WHERE ` + where), append(values, keys...)
}

// setList is an UPDATE's SET list: "name = ?" for each of names, then the
// assignments of also as they are.
func setList(names []string, also ...string) string {
	set := make([]string, 0, len(names)+len(also))
	for _, n := range names {
		set = append(set, n+" = ?")
	}
	return strings.Join(append(set, also...), ", ")
}

// CreatePerson inserts a person and all its children in one transaction.
func (db *DB) CreatePerson(ctx context.Context, scope wayfarer.Scope, w *wayfarer.PersonWrite) (recNo int64, err error) {
	if w == nil || w.Changes == nil || w.Changes.New == nil {
		return 0, errNoPersonWrite
	}
	ctx, end := db.bound(ctx)
	defer end(&err)
	err = db.requestTx(ctx, func(tx *sql.Tx) error {
		ch := w.Changes
		if err := db.checkPersonRefs(ctx, tx, scope.AgencyID, ch); err != nil {
			return err
		}
		names, values := assignments(personColumns, ch.New, ch.Fields)
		if !hasName(ch.Fields, "activeStatus") {
			names, values = append(names, "active_status"), append(values, wayfarer.ActiveStatusActive)
		}
		now := ts(w.Now)
		names = append(names, "agency_id", "create_date_time", "last_modified_date_time")
		values = append(values, scope.AgencyID, now, now)
		var err error
		if recNo, err = db.insertRow(ctx, tx, "person", names, values); err != nil {
			return err
		}
		return db.applyChildren(ctx, tx, scope.AgencyID, recNo, w)
	})
	return recNo, err
}

// UpdatePerson runs a save in one transaction: it loads the person as
// LoadPerson shows it (without its children when children is false),
// locking its row (SELECT ... FOR UPDATE on PostgreSQL; SQLite's write
// transaction holds its lock from BEGIN), lets fn decide, and applies. The
// lock comes with the row, not as a statement of its own.
func (db *DB) UpdatePerson(ctx context.Context, scope wayfarer.Scope, recNo int64, children bool,
	fn func(current *wayfarer.Person) (*wayfarer.PersonWrite, error)) (err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	lock := ""
	if db.Dialect.ForUpdate != "" {
		lock = db.Dialect.ForUpdate + " OF p" // the person, not the joined branch and advisor
	}
	var l personLoad
	return db.save(ctx, l.steps(db, scope.AgencyID, recNo, lock, children), func(s *saveTx) error {
		current, err := l.result(scope)
		if err != nil {
			return err
		}
		w, err := fn(current)
		if err != nil {
			return err
		}
		if w == nil || w.Changes == nil {
			return errNoPersonWrite
		}
		ch := w.Changes
		if ch.Empty() {
			return nil
		}
		if !children && !ch.PersonOnly() {
			return errChildrenNotRead // fn decided without the rows it changes
		}
		tx := s.tx
		if err := db.checkPersonRefs(ctx, tx, scope.AgencyID, ch); err != nil {
			return err
		}
		names, values := assignments(personColumns, ch.New, ch.Fields)
		// The row is locked: the next version is the one read plus one.
		names = append(names, "last_modified_date_time", "row_version")
		values = append(values, ts(w.Now), current.Version+1)
		q, args := updateSQL(db, "person", names, values, `agency_id = ? AND rec_no = ?`, scope.AgencyID, recNo)
		if personRowOnly(ch) {
			return s.lastExec(ctx, q, args)
		}
		if _, err := db.execFixed(ctx, tx, q, args); err != nil {
			return err
		}
		return db.applyChildren(ctx, tx, scope.AgencyID, recNo, w)
	})
}

func (db *DB) applyChildren(ctx context.Context, tx *sql.Tx, agencyID, personID int64, w *wayfarer.PersonWrite) error {
	ch := w.Changes
	exec := func(query string, args ...any) error {
		_, err := tx.ExecContext(ctx, db.q(query), args...)
		return err
	}
	for _, c := range ch.Communications {
		var err error
		switch c.Op {
		case wayfarer.OpInsert:
			names, values := assignments(communicationColumns, c.New, c.Fields)
			_, err = db.insertRow(ctx, tx, "communication", append(names, "agency_id", "person_id"), append(values, agencyID, personID))
		case wayfarer.OpUpdate:
			names, values := assignments(communicationColumns, c.New, c.Fields)
			_, err = db.updateRow(ctx, tx, "communication", names, values, `agency_id = ? AND person_id = ? AND rec_no = ?`, agencyID, personID, c.RecNo)
		case wayfarer.OpDelete:
			err = exec(`DELETE FROM communication WHERE agency_id = ? AND person_id = ? AND rec_no = ?`, agencyID, personID, c.RecNo)
		}
		if err != nil {
			return err
		}
	}

	for _, c := range ch.Cards {
		var err error
		switch c.Op {
		case wayfarer.OpInsert:
			names, values := assignments(cardColumns, c.New, c.Fields)
			names, values = withSealed(names, values, c.New)
			var cardID int64
			cardID, err = db.insertRow(ctx, tx, "card", append(names, "agency_id"), append(values, agencyID))
			if err == nil {
				err = exec(`INSERT INTO person_card_link (agency_id, person_id, card_id) VALUES (?, ?, ?)`, agencyID, personID, cardID)
			}
		case wayfarer.OpUpdate:
			names, values := assignments(cardColumns, c.New, c.Fields)
			if hasName(c.Fields, "cardNumber") {
				names, values = withSealed(names, values, c.New)
			}
			_, err = db.updateRow(ctx, tx, "card", names, values, `agency_id = ? AND rec_no = ? AND EXISTS (
				SELECT 1 FROM person_card_link l WHERE l.agency_id = card.agency_id AND l.card_id = card.rec_no AND l.person_id = ?)`,
				agencyID, c.RecNo, personID)
			if err == nil {
				// Other persons holding the card show the change too: their version moves on.
				err = exec(`UPDATE person SET row_version = row_version + 1 WHERE agency_id = ? AND rec_no <> ? AND rec_no IN (
					SELECT person_id FROM person_card_link WHERE agency_id = ? AND card_id = ?)`, agencyID, personID, agencyID, c.RecNo)
			}
		case wayfarer.OpDelete:
			err = exec(`DELETE FROM person_card_link WHERE agency_id = ? AND person_id = ? AND card_id = ?`, agencyID, personID, c.RecNo)
			if err == nil {
				// The card goes with its last link; a card shared with another person stays.
				err = exec(`DELETE FROM card WHERE agency_id = ? AND rec_no = ? AND NOT EXISTS (
					SELECT 1 FROM person_card_link l WHERE l.agency_id = ? AND l.card_id = ?)`, agencyID, c.RecNo, agencyID, c.RecNo)
			}
		}
		if err != nil {
			return err
		}
	}

	for _, m := range ch.Marketing {
		var err error
		switch m.Op {
		case wayfarer.OpInsert:
			err = exec(`INSERT INTO person_marketing (agency_id, person_id, marketing_element_id, affiliation_id)
				VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`, agencyID, personID, m.MarketingElementRecNo, m.AffiliationRecNo)
		case wayfarer.OpDelete:
			err = exec(`DELETE FROM person_marketing WHERE agency_id = ? AND person_id = ? AND marketing_element_id = ? AND affiliation_id = ?`,
				agencyID, personID, m.MarketingElementRecNo, m.AffiliationRecNo)
		}
		if err != nil {
			return err
		}
	}

	if err := db.applyAttachments(ctx, tx, agencyID, personID, ch.Attachments, w.Now); err != nil {
		return err
	}

	for _, c := range ch.Tags {
		var err error
		switch c.Op {
		case wayfarer.OpInsert:
			names, values := assignments(tagColumns, c.New, c.Fields)
			_, err = db.insertRow(ctx, tx, "person_tag", append(names, "agency_id", "person_id"), append(values, agencyID, personID))
		case wayfarer.OpUpdate:
			names, values := assignments(tagColumns, c.New, c.Fields)
			_, err = db.updateRow(ctx, tx, "person_tag", names, values, `agency_id = ? AND person_id = ? AND rec_no = ?`, agencyID, personID, c.RecNo)
		case wayfarer.OpDelete:
			err = exec(`DELETE FROM person_tag WHERE agency_id = ? AND person_id = ? AND rec_no = ?`, agencyID, personID, c.RecNo)
		}
		if err != nil {
			return err
		}
	}

	for _, c := range ch.ActionItems {
		var err error
		switch c.Op {
		case wayfarer.OpInsert:
			names, values := assignments(actionColumns, c.New, c.Fields)
			_, err = db.insertRow(ctx, tx, "person_action_item", append(names, "agency_id", "person_id"), append(values, agencyID, personID))
		case wayfarer.OpUpdate:
			names, values := assignments(actionColumns, c.New, c.Fields)
			_, err = db.updateRow(ctx, tx, "person_action_item", names, values, `agency_id = ? AND person_id = ? AND rec_no = ?`, agencyID, personID, c.RecNo)
		case wayfarer.OpDelete:
			err = exec(`DELETE FROM person_action_item WHERE agency_id = ? AND person_id = ? AND rec_no = ?`, agencyID, personID, c.RecNo)
		}
		if err != nil {
			return err
		}
	}

	if movesActionDates(ch) {
		return db.updateActionDates(ctx, tx, agencyID, personID, wayfarer.DateOf(w.Now.UTC()))
	}
	return nil
}

// movesActionDates reports whether ch changes what the due dates of the
// person's action items depend on: the items or the birthday.
func movesActionDates(ch *wayfarer.PersonChanges) bool {
	return len(ch.ActionItems) > 0 || hasName(ch.Fields, "birthdayMonth") || hasName(ch.Fields, "birthdayDay")
}

// personRowOnly reports whether a save of ch writes the person's row and
// nothing else (applyChildren has nothing to do).
func personRowOnly(ch *wayfarer.PersonChanges) bool {
	return ch.PersonOnly() && !movesActionDates(ch)
}

// withSealed adds the encrypted number of a credit/debit card (or clears
// it when the card holds none).
func withSealed(names []string, values []any, c *wayfarer.Card) ([]string, []any) {
	var cipher, keyID any
	if c.Sealed != nil {
		cipher, keyID = c.Sealed.Cipher, c.Sealed.KeyID
	}
	return append(names, "number_cipher", "number_key_id"), append(values, cipher, keyID)
}

// updateActionDates recomputes the due dates of the person's action items,
// which depend on the items' triggers and on the person's birthday.
func (db *DB) updateActionDates(ctx context.Context, tx *sql.Tx, agencyID, personID int64, today wayfarer.Date) error {
	var month, day sql.NullInt64
	var created time.Time
	if err := tx.QueryRowContext(ctx, db.q(
		`SELECT birthday_month, birthday_day, create_date_time FROM person WHERE agency_id = ? AND rec_no = ?`),
		agencyID, personID).Scan(&month, &day, &created); err != nil {
		return err
	}
	type due struct {
		id   int64
		date any
	}
	var dues []due
	err := queryEach(ctx, tx, db.q(`
		SELECT rec_no, trigger_index, trigger_days_offset, trigger_fixed_date FROM person_action_item
		WHERE agency_id = ? AND person_id = ?`), []any{agencyID, personID}, func(rows *sql.Rows) error {
		var id int64
		var trigger, offset sql.NullInt64
		var fixed sql.NullTime
		if err := rows.Scan(&id, &trigger, &offset, &fixed); err != nil {
			return err
		}
		a := &wayfarer.PersonActionItem{TriggerIndex: oint(trigger), TriggerDaysOffset: oint(offset), TriggerFixedDate: odate(fixed)}
		d := due{id: id}
		if date, ok := wayfarer.ActionItemDate(a, oint(month), oint(day), wayfarer.DateOf(created.UTC()), today); ok {
			d.date = date.Time()
		}
		dues = append(dues, d)
		return nil
	})
	if err != nil {
		return err
	}
	for _, d := range dues {
		if _, err := tx.ExecContext(ctx, db.q(`UPDATE person_action_item SET action_date = ? WHERE agency_id = ? AND rec_no = ?`),
			d.date, agencyID, d.id); err != nil {
			return err
		}
	}
	return nil
}

// checkPersonRefs answers a 407 naming the field when a save refers to a
// branch, advisor, tag, marketing element, affiliation or app user that the
// agency does not have.
func (db *DB) checkPersonRefs(ctx context.Context, tx *sql.Tx, agencyID int64, ch *wayfarer.PersonChanges) error {
	type ref struct {
		path, query string
		id          int64
	}
	var refs []ref
	add := func(path, query string, rec any, field string) {
		if v, ok := wayfarer.FieldValue(rec, field); ok {
			refs = append(refs, ref{path, query, v.(int64)})
		}
	}
	const (
		qBranch      = `SELECT 1 FROM branch WHERE agency_id = ? AND rec_no = ?`
		qAdvisor     = `SELECT 1 FROM profile WHERE agency_id = ? AND rec_no = ? AND type = 1`
		qTag         = `SELECT 1 FROM tag WHERE agency_id = ? AND rec_no = ?`
		qUser        = `SELECT 1 FROM app_user WHERE agency_id = ? AND rec_no = ?`
		qMarketing   = `SELECT 1 FROM marketing_element WHERE agency_id = ? AND rec_no = ?`
		qAffiliation = `SELECT 1 FROM affiliation WHERE agency_id = ? AND rec_no = ?`
	)
	if hasName(ch.Fields, "branch_recNo") {
		add("branch_recNo", qBranch, ch.New, "branch_recNo")
	}
	if hasName(ch.Fields, "advisorProfile_recNo") {
		add("advisorProfile_recNo", qAdvisor, ch.New, "advisorProfile_recNo")
	}
	for _, t := range ch.Tags {
		if t.Op != wayfarer.OpDelete && hasName(t.Fields, "tag_recNo") {
			add(t.Path+".tag_recNo", qTag, t.New, "tag_recNo")
		}
	}
	for _, a := range ch.ActionItems {
		if a.Op == wayfarer.OpDelete {
			continue
		}
		if hasName(a.Fields, "appUser_recNo") {
			add(a.Path+".appUser_recNo", qUser, a.New, "appUser_recNo")
		}
		if hasName(a.Fields, "completedBy_appUserRecNo") {
			add(a.Path+".completedBy_appUserRecNo", qUser, a.New, "completedBy_appUserRecNo")
		}
	}
	for _, m := range ch.Marketing {
		if m.Op != wayfarer.OpInsert {
			continue
		}
		refs = append(refs, ref{m.Path + ".marketingElement_recNo", qMarketing, m.MarketingElementRecNo})
		if m.AffiliationRecNo != 0 {
			refs = append(refs, ref{m.Path + ".affiliation_recNo", qAffiliation, m.AffiliationRecNo})
		}
	}
	for _, r := range refs {
		var one int
		err := tx.QueryRowContext(ctx, db.q(r.query), agencyID, r.id).Scan(&one)
		if err == sql.ErrNoRows {
			return wayfarer.Errorf(wayfarer.KindInvalid, contract.CodeInvalidValue, wayfarer.MethodPerson,
				"%s %d does not exist", r.path, r.id)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
