package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/wayfarerhq/wayfarer/internal/wayfarer"
)

// Attachments of a person: the rows in attachment, a file's bytes in
// attachment_data, which only LoadAttachmentFile reads.

var attachmentColumns = []pcolumn{
	{"type", "type", nil}, {"subType", "sub_type", nil}, {"visibility", "visibility", nil},
	{"description", "description", nil}, {"fileNameLinkURL", "file_name_link_url", nil},
	{"compressed", "compressed", nil}, {"storeExternal", "store_external", wayfarer.StoreDatabase},
}

// applyAttachments writes the attachment changes of a save.
func (db *DB) applyAttachments(ctx context.Context, tx *sql.Tx, agencyID, personID int64, changes []wayfarer.RowChange[wayfarer.Attachment], now time.Time) error {
	for _, c := range changes {
		var err error
		switch c.Op {
		case wayfarer.OpInsert:
			names, values := assignments(attachmentColumns, c.New, c.Fields)
			names = append(names, "agency_id", "person_id", "create_date_time", "size")
			values = append(values, agencyID, personID, ts(now), sqlValue(c.New, pcolumn{field: "size"}))
			var id int64
			if id, err = db.insertRow(ctx, tx, "attachment", names, values); err == nil {
				err = db.writeAttachmentData(ctx, tx, agencyID, id, c)
			}
		case wayfarer.OpUpdate:
			names, values := assignments(attachmentColumns, c.New, c.Fields)
			if hasName(c.Fields, "fileData") {
				names, values = append(names, "size"), append(values, sqlValue(c.New, pcolumn{field: "size"}))
			}
			_, err = db.updateRow(ctx, tx, "attachment", names, values, `agency_id = ? AND person_id = ? AND rec_no = ?`, agencyID, personID, c.RecNo)
			if err == nil {
				err = db.writeAttachmentData(ctx, tx, agencyID, c.RecNo, c)
			}
		case wayfarer.OpDelete:
			_, err = tx.ExecContext(ctx, db.q(`DELETE FROM attachment_data WHERE agency_id = ? AND attachment_id IN (
				SELECT rec_no FROM attachment WHERE agency_id = ? AND person_id = ? AND rec_no = ?)`), agencyID, agencyID, personID, c.RecNo)
			if err == nil {
				_, err = tx.ExecContext(ctx, db.q(`DELETE FROM attachment WHERE agency_id = ? AND person_id = ? AND rec_no = ?`), agencyID, personID, c.RecNo)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// writeAttachmentData stores (or replaces) a file's bytes when the change
// writes them.
func (db *DB) writeAttachmentData(ctx context.Context, tx *sql.Tx, agencyID, attachmentID int64, c wayfarer.RowChange[wayfarer.Attachment]) error {
	if !hasName(c.Fields, "fileData") || !c.New.FileData.Valid {
		return nil
	}
	_, err := tx.ExecContext(ctx, db.q(`INSERT INTO attachment_data (agency_id, attachment_id, data) VALUES (?, ?, ?)
		ON CONFLICT (agency_id, attachment_id) DO UPDATE SET data = excluded.data`),
		agencyID, attachmentID, c.New.FileData.Value.Bytes())
	return err
}

// LoadAttachmentFile returns the name and bytes of a file attachment of a
// person in scope; wayfarer.ErrNotFound otherwise (a person out of scope,
// an attachment of another person, a link).
func (db *DB) LoadAttachmentFile(ctx context.Context, scope wayfarer.Scope, personRecNo, attachmentRecNo int64) (f *wayfarer.AttachmentFile, err error) {
	ctx, end := db.bound(ctx)
	defer end(&err)
	err = db.read(ctx, db.primary, func(q personQuerier) error {
		var branch, advisor sql.NullInt64
		if err := q.QueryRowContext(ctx, db.q(`SELECT branch_id, advisor_profile_id FROM person WHERE agency_id = ? AND rec_no = ?`),
			scope.AgencyID, personRecNo).Scan(&branch, &advisor); err != nil {
			return notFound(err)
		}
		if !scope.Allows(oid(branch).Ptr(), oid(advisor).Ptr()) {
			return wayfarer.ErrNotFound
		}
		f = &wayfarer.AttachmentFile{}
		return notFound(q.QueryRowContext(ctx, db.q(`
			SELECT a.file_name_link_url, d.data FROM attachment a
			JOIN attachment_data d ON d.agency_id = a.agency_id AND d.attachment_id = a.rec_no
			WHERE a.agency_id = ? AND a.person_id = ? AND a.rec_no = ? AND a.type = ?`),
			scope.AgencyID, personRecNo, attachmentRecNo, wayfarer.AttachmentTypeFile).Scan(&f.Name, &f.Data))
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}
