-- +goose Up
-- Every field of the reference's person (docs/persons.md): the person's
-- version (the ETag of GET /person/{recNo}), the deprecated
-- isBillingContact, action item type and documentTemplate_recNo, and
-- attachments, whose bytes live in a table of their own so that loading a
-- person never reads them.
-- PostgreSQL twin: internal/postgres/migrations/00009_person_reference_fields.sql.

-- Moved on by every save that writes the person or one of its child rows.
ALTER TABLE person ADD COLUMN row_version INTEGER NOT NULL DEFAULT 1;

ALTER TABLE communication ADD COLUMN is_billing_contact INTEGER;
ALTER TABLE person_action_item ADD COLUMN type INTEGER;
-- A document template of the reference: Wayfarer has no such resource, so
-- the number is kept as given, without a foreign key.
ALTER TABLE person_action_item ADD COLUMN document_template_id INTEGER;

-- attachment: a link (file_name_link_url is its URL, size null) or a file
-- (file_name_link_url is its name, size the length of its bytes).
CREATE TABLE attachment (
    rec_no             INTEGER PRIMARY KEY AUTOINCREMENT,
    agency_id          INTEGER NOT NULL,
    person_id          INTEGER NOT NULL,
    type               INTEGER NOT NULL,             -- 1 link, 2 file
    sub_type           INTEGER NOT NULL,             -- 1 document, 2 image, 3 other
    visibility         INTEGER NOT NULL,             -- 1 public, 2 private, 3 internal
    description        TEXT,
    file_name_link_url TEXT NOT NULL,
    size               INTEGER,
    compressed         INTEGER,
    store_external     INTEGER NOT NULL DEFAULT 0,   -- 0 database: the only store served
    create_date_time   DATETIME NOT NULL,
    UNIQUE (agency_id, rec_no),
    FOREIGN KEY (agency_id, person_id) REFERENCES person (agency_id, rec_no) ON DELETE CASCADE
);
CREATE INDEX attachment_person ON attachment (agency_id, person_id);

-- The bytes of a file attachment, read only by the bytes call.
CREATE TABLE attachment_data (
    agency_id     INTEGER NOT NULL,
    attachment_id INTEGER NOT NULL,
    data          BLOB NOT NULL,
    PRIMARY KEY (agency_id, attachment_id),
    FOREIGN KEY (agency_id, attachment_id) REFERENCES attachment (agency_id, rec_no) ON DELETE CASCADE
);
