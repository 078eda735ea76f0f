package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// The person store: wayfarer.PersonStore over the shared tables. Every
// statement names agency_id; values reach SQL only as arguments.

var _ wayfarer.PersonStore = (*DB)(nil)

type personQuerier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// LoadPerson loads a person with its children and lookups; a person of
// another agency or outside scope is wayfarer.ErrNotFound. Its two
// statements go as one read (readSteps: one round trip on PostgreSQL).
func (db *DB) LoadPerson(ctx context.Context, scope wayfarer.Scope, recNo int64) (p *wayfarer.Person, err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	var l personLoad
	if err := db.readSteps(ctx, db.primary, l.steps(db, scope.AgencyID, recNo, "", true)); err != nil {
		return nil, err
	}
	return l.result(scope)
}

// personLoad gathers a person from the answers of its two statements: the
// person's row (with its branch's and advisor's names) and its children
// (personChildrenQuery). The children are read whatever the scope says and
// dropped by result when it refuses the person.
type personLoad struct {
	p    *wayfarer.Person // nil: no such person in the agency
	kids wayfarer.Person  // the children's lists
	c    personChild
}

// steps reads the person's row, with lock appended to its statement, and
// its children unless children is false (their lists are then empty).
func (l *personLoad) steps(db *DB, agencyID, recNo int64, lock string, children bool) []ReadStep {
	l.kids = wayfarer.Person{
		RecNo:                   wayfarer.Some(recNo),
		PersonCommunicationLink: []wayfarer.CommunicationLink{}, PersonCardLink: []wayfarer.CardLink{},
		PersonMarketing: []wayfarer.PersonMarketing{}, PersonAttachmentLink: []wayfarer.AttachmentLink{},
		PersonTag: []wayfarer.PersonTag{}, PersonActionItemLink: []wayfarer.ActionItemLink{},
	}
	row := ReadStep{SQL: db.q(personRowQuery + lock), Args: []any{agencyID, recNo}, Row: l.scanRow}
	if !children {
		return []ReadStep{row}
	}
	args := make([]any, 0, 12)
	for range 6 {
		args = append(args, agencyID, recNo)
	}
	return []ReadStep{row, {SQL: db.q(personChildrenQuery), Args: args, Row: func(rows RowScanner) error {
		if err := l.c.scan(rows); err != nil {
			return err
		}
		l.c.addTo(&l.kids)
		return nil
	}}}
}

// result is the person loaded, if scope allows it.
func (l *personLoad) result(scope wayfarer.Scope) (*wayfarer.Person, error) {
	p := l.p
	if p == nil || !scope.Allows(p.BranchRecNo.Ptr(), p.AdvisorProfileRecNo.Ptr()) {
		return nil, wayfarer.ErrNotFound
	}
	p.PersonCommunicationLink, p.PersonCardLink = l.kids.PersonCommunicationLink, l.kids.PersonCardLink
	p.PersonMarketing, p.PersonAttachmentLink = l.kids.PersonMarketing, l.kids.PersonAttachmentLink
	p.PersonTag, p.PersonActionItemLink = l.kids.PersonTag, l.kids.PersonActionItemLink
	return p, nil
}

const personRowQuery = `
	SELECT p.rec_no, p.first_name, p.middle_name, p.last_name, p.courtesy_title, p.salutation,
		p.birthday_day, p.birthday_month, p.birthday_year, p.birthday_note, p.citizenship,
		p.redress_number, p.known_traveler_number, p.gender, p.unique_id,
		p.branch_id, b.name, p.advisor_profile_id, pr.name, p.remarks,
		p.emergency_contact_name, p.emergency_contact_relationship, p.emergency_contact_phone, p.emergency_contact_email,
		p.active_status, p.create_date_time, p.row_version
	FROM person p
	LEFT JOIN branch b ON b.agency_id = p.agency_id AND b.rec_no = p.branch_id
	LEFT JOIN profile pr ON pr.agency_id = p.agency_id AND pr.rec_no = p.advisor_profile_id
	WHERE p.agency_id = ? AND p.rec_no = ?`

func (l *personLoad) scanRow(rows RowScanner) error {
	var (
		id                                                      int64
		first, middle, last, title, salutation, note, citizen   sql.NullString
		redress, ktn, gender, uniqueID, branchName, advisorName sql.NullString
		remarks, ecName, ecRel, ecPhone, ecEmail                sql.NullString
		bDay, bMonth, bYear, branch, advisor                    sql.NullInt64
		status                                                  int
		version                                                 int64
		created                                                 time.Time
	)
	if err := rows.Scan(
		&id, &first, &middle, &last, &title, &salutation,
		&bDay, &bMonth, &bYear, &note, &citizen,
		&redress, &ktn, &gender, &uniqueID,
		&branch, &branchName, &advisor, &advisorName, &remarks,
		&ecName, &ecRel, &ecPhone, &ecEmail,
		&status, &created, &version); err != nil {
		return err
	}
	l.p = &wayfarer.Person{
		RecNo: wayfarer.Some(id), FirstName: ostr(first), MiddleName: ostr(middle), LastName: ostr(last),
		CourtesyTitle: ostr(title), Salutation: ostr(salutation),
		BirthdayDay: oint(bDay), BirthdayMonth: oint(bMonth), BirthdayYear: oint(bYear), BirthdayNote: ostr(note),
		Citizenship: ostr(citizen), RedressNumber: ostr(redress), KnownTravelerNumber: ostr(ktn), Gender: ostr(gender),
		UniqueID: ostr(uniqueID), BranchRecNo: oid(branch), BranchName: ostr(branchName),
		AdvisorProfileRecNo: oid(advisor), AdvisorName: ostr(advisorName), Remarks: ostr(remarks),
		EmergencyContactName: ostr(ecName), EmergencyContactRelationship: ostr(ecRel),
		EmergencyContactPhone: ostr(ecPhone), EmergencyContactEmail: ostr(ecEmail),
		ActiveStatus: wayfarer.Some(status), Age: wayfarer.Null[int](),
		CreateDateTime: wayfarer.Some(wayfarer.TimestampOf(created)),
		Version:        version,
	}
	return nil
}

// RecordCardDecrypts writes one audit row per card shown unmasked.
func (db *DB) RecordCardDecrypts(ctx context.Context, a wayfarer.CardDecryptAudit) (err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	return db.requestTx(ctx, func(tx *sql.Tx) error {
		for _, id := range a.CardIDs {
			if _, err := tx.ExecContext(ctx, db.q(
				`INSERT INTO card_decrypt_audit (agency_id, app_user_id, person_id, card_id, read_at) VALUES (?, ?, ?, ?, ?)`),
				a.AgencyID, a.UserID, a.PersonID, id, ts(a.At)); err != nil {
				return err
			}
		}
		return nil
	})
}

// CardDecryptAudit is one audit row, for tools and tests.
type CardDecryptAudit struct {
	UserID, PersonID, CardID int64
	ReadAt                   time.Time
}

// CardDecryptAudits lists the audit rows of an agency, oldest first.
func (db *DB) CardDecryptAudits(ctx context.Context, agencyID int64) ([]CardDecryptAudit, error) {
	var out []CardDecryptAudit
	err := queryEach(ctx, db.primary, db.q(`
		SELECT app_user_id, person_id, card_id, read_at FROM card_decrypt_audit
		WHERE agency_id = ? ORDER BY rec_no`), []any{agencyID}, func(rows *sql.Rows) error {
		var a CardDecryptAudit
		if err := rows.Scan(&a.UserID, &a.PersonID, &a.CardID, &a.ReadAt); err != nil {
			return err
		}
		out = append(out, a)
		return nil
	})
	return out, err
}

func queryEach(ctx context.Context, q personQuerier, query string, args []any, fn func(*sql.Rows) error) error {
	rows, err := q.QueryContext(ctx, query, args...)
	return eachRow(rows, err, fn)
}

// eachRow calls fn for every row of a query's answer (rows, err) and
// closes it.
func eachRow(rows *sql.Rows, err error, fn func(*sql.Rows) error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

func ostr(s sql.NullString) wayfarer.Opt[string] {
	if !s.Valid {
		return wayfarer.Null[string]()
	}
	return wayfarer.Some(s.String)
}

func oint(n sql.NullInt64) wayfarer.Opt[int] {
	if !n.Valid {
		return wayfarer.Null[int]()
	}
	return wayfarer.Some(int(n.Int64))
}

func obool(b sql.NullBool) wayfarer.Opt[bool] {
	if !b.Valid {
		return wayfarer.Null[bool]()
	}
	return wayfarer.Some(b.Bool)
}

func oid(n sql.NullInt64) wayfarer.Opt[int64] {
	if !n.Valid {
		return wayfarer.Null[int64]()
	}
	return wayfarer.Some(n.Int64)
}

// odate reads a DATE column. Dates are stored as midnight UTC; the date
// part in UTC is the stored date on both engines.
func odate(t sql.NullTime) wayfarer.Opt[wayfarer.Date] {
	if !t.Valid {
		return wayfarer.Null[wayfarer.Date]()
	}
	return wayfarer.Some(wayfarer.DateOf(t.Time.UTC()))
}

func otime(t sql.NullTime) wayfarer.Opt[wayfarer.Timestamp] {
	if !t.Valid {
		return wayfarer.Null[wayfarer.Timestamp]()
	}
	return wayfarer.Some(wayfarer.TimestampOf(t.Time))
}

var (
	errNoPersonWrite   = errors.New("person store: no write to apply")
	errChildrenNotRead = errors.New("person store: the save changes child rows it was not given to read")
)
