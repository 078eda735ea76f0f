-- +goose Up
-- Every agency-owned table carries agency_id, has it in its key, and every
-- foreign key between agency-owned tables includes it: no row can point into
-- another agency. rec_no is the row's public identifier (recNo on the wire).

CREATE TABLE server_secret (
    name  TEXT PRIMARY KEY,
    value BLOB NOT NULL
);

CREATE TABLE agency (
    rec_no                INTEGER PRIMARY KEY AUTOINCREMENT,
    alias                 TEXT NOT NULL UNIQUE,          -- stored upper-case
    name                  TEXT NOT NULL,
    status                INTEGER NOT NULL,              -- 1 active, 2 disabled, 3 cancelled, 4 not initialized
    max_password_age_days INTEGER NOT NULL DEFAULT 0,    -- 0: passwords never expire
    created_at            DATETIME NOT NULL
);

CREATE TABLE branch (
    rec_no    INTEGER PRIMARY KEY AUTOINCREMENT,
    agency_id INTEGER NOT NULL REFERENCES agency (rec_no),
    name      TEXT NOT NULL,
    UNIQUE (agency_id, rec_no),
    UNIQUE (agency_id, name)
);

-- profile: advisor profiles (type 1) and client profiles (type 2) a person
-- can be associated with.
CREATE TABLE profile (
    rec_no    INTEGER PRIMARY KEY AUTOINCREMENT,
    agency_id INTEGER NOT NULL REFERENCES agency (rec_no),
    type      INTEGER NOT NULL,
    name      TEXT NOT NULL,
    branch_id INTEGER,
    UNIQUE (agency_id, rec_no),
    FOREIGN KEY (agency_id, branch_id) REFERENCES branch (agency_id, rec_no)
);

CREATE TABLE app_user (
    rec_no                 INTEGER PRIMARY KEY AUTOINCREMENT,
    agency_id              INTEGER NOT NULL REFERENCES agency (rec_no),
    user_name              TEXT NOT NULL,
    user_name_key          TEXT NOT NULL,                 -- lower-case, for case-insensitive login
    type                   INTEGER NOT NULL,
    enabled                INTEGER NOT NULL DEFAULT 1,
    password_hash          TEXT NOT NULL DEFAULT '',
    non_expiring_password  INTEGER NOT NULL DEFAULT 0,
    password_last_modified DATETIME NOT NULL,
    failed_logins          INTEGER NOT NULL DEFAULT 0,
    locked_until           DATETIME,
    branch_id              INTEGER,
    person_permissions     INTEGER NOT NULL DEFAULT 0,
    UNIQUE (agency_id, rec_no),
    UNIQUE (agency_id, user_name_key),
    FOREIGN KEY (agency_id, branch_id) REFERENCES branch (agency_id, rec_no)
);

CREATE TABLE app_user_advisor (
    agency_id   INTEGER NOT NULL,
    app_user_id INTEGER NOT NULL,
    profile_id  INTEGER NOT NULL,
    PRIMARY KEY (agency_id, app_user_id, profile_id),
    FOREIGN KEY (agency_id, app_user_id) REFERENCES app_user (agency_id, rec_no) ON DELETE CASCADE,
    FOREIGN KEY (agency_id, profile_id) REFERENCES profile (agency_id, rec_no)
);

CREATE TABLE identity_token (
    rec_no      INTEGER PRIMARY KEY AUTOINCREMENT,
    agency_id   INTEGER NOT NULL,
    app_user_id INTEGER NOT NULL,
    created_at  DATETIME NOT NULL,
    expires_at  DATETIME NOT NULL,
    UNIQUE (agency_id, rec_no),
    FOREIGN KEY (agency_id, app_user_id) REFERENCES app_user (agency_id, rec_no) ON DELETE CASCADE
);
CREATE INDEX identity_token_expires ON identity_token (expires_at);

CREATE TABLE person (
    rec_no                         INTEGER PRIMARY KEY AUTOINCREMENT,
    agency_id                      INTEGER NOT NULL REFERENCES agency (rec_no),
    first_name                     TEXT,
    middle_name                    TEXT,
    last_name                      TEXT,
    courtesy_title                 TEXT,
    salutation                     TEXT,
    birthday_day                   INTEGER,
    birthday_month                 INTEGER,
    birthday_year                  INTEGER,
    birthday_note                  TEXT,
    citizenship                    TEXT,
    redress_number                 TEXT,
    known_traveler_number          TEXT,
    gender                         TEXT,
    unique_id                      TEXT,
    branch_id                      INTEGER,
    advisor_profile_id             INTEGER,
    remarks                        TEXT,
    emergency_contact_name         TEXT,
    emergency_contact_relationship TEXT,
    emergency_contact_phone        TEXT,
    emergency_contact_email        TEXT,
    active_status                  INTEGER NOT NULL DEFAULT 1,
    create_date_time               DATETIME NOT NULL,
    last_modified_date_time        DATETIME NOT NULL,
    UNIQUE (agency_id, rec_no),
    FOREIGN KEY (agency_id, branch_id) REFERENCES branch (agency_id, rec_no),
    FOREIGN KEY (agency_id, advisor_profile_id) REFERENCES profile (agency_id, rec_no)
);

-- client profiles a person is associated with (associatedProfileNames, profileRecNo)
CREATE TABLE profile_person (
    agency_id  INTEGER NOT NULL,
    profile_id INTEGER NOT NULL,
    person_id  INTEGER NOT NULL,
    PRIMARY KEY (agency_id, profile_id, person_id),
    FOREIGN KEY (agency_id, profile_id) REFERENCES profile (agency_id, rec_no),
    FOREIGN KEY (agency_id, person_id) REFERENCES person (agency_id, rec_no) ON DELETE CASCADE
);
CREATE INDEX profile_person_person ON profile_person (agency_id, person_id);

CREATE TABLE communication (
    rec_no          INTEGER PRIMARY KEY AUTOINCREMENT,
    agency_id       INTEGER NOT NULL,
    person_id       INTEGER NOT NULL,
    type            INTEGER NOT NULL,
    sub_type        TEXT,
    value           TEXT,
    country_domain  TEXT,
    city_area       TEXT,
    user_specific   TEXT,
    description     TEXT,
    is_primary      INTEGER NOT NULL DEFAULT 0,
    permit_marketing INTEGER NOT NULL DEFAULT 0,
    contact_option  INTEGER,
    UNIQUE (agency_id, rec_no),
    FOREIGN KEY (agency_id, person_id) REFERENCES person (agency_id, rec_no) ON DELETE CASCADE
);
CREATE INDEX communication_person ON communication (agency_id, person_id);

-- card: number is the clear number for loyalty and travel documents and the
-- masked form for credit/debit cards, whose digits exist only as number_cipher
-- (AES-256-GCM under a key that never enters the database, see internal/vault).
CREATE TABLE card (
    rec_no               INTEGER PRIMARY KEY AUTOINCREMENT,
    agency_id            INTEGER NOT NULL,
    type                 INTEGER NOT NULL,
    sub_type             INTEGER,
    card_number          TEXT NOT NULL,
    number_cipher        BLOB,
    number_key_id        TEXT,
    card_number_token    TEXT,
    issue_date           DATE,
    expiration_date      DATE,
    issuing_city         TEXT,
    issuing_country      TEXT,
    issuing_country_name TEXT,
    description          TEXT,
    code                 TEXT,
    name_on_card         TEXT,
    UNIQUE (agency_id, rec_no)
);

CREATE TABLE person_card_link (
    agency_id INTEGER NOT NULL,
    person_id INTEGER NOT NULL,
    card_id   INTEGER NOT NULL,
    PRIMARY KEY (agency_id, person_id, card_id),
    FOREIGN KEY (agency_id, person_id) REFERENCES person (agency_id, rec_no) ON DELETE CASCADE,
    FOREIGN KEY (agency_id, card_id) REFERENCES card (agency_id, rec_no)
);
CREATE INDEX person_card_link_card ON person_card_link (agency_id, card_id);

CREATE TABLE marketing_element (
    rec_no    INTEGER PRIMARY KEY AUTOINCREMENT,
    agency_id INTEGER NOT NULL REFERENCES agency (rec_no),
    code      TEXT NOT NULL,                 -- marketingElementId, e.g. NOEMM
    name      TEXT NOT NULL,
    UNIQUE (agency_id, rec_no)
);

CREATE TABLE affiliation (
    rec_no    INTEGER PRIMARY KEY AUTOINCREMENT,
    agency_id INTEGER NOT NULL REFERENCES agency (rec_no),
    name      TEXT NOT NULL,
    UNIQUE (agency_id, rec_no)
);

CREATE TABLE person_marketing (
    agency_id            INTEGER NOT NULL,
    person_id            INTEGER NOT NULL,
    marketing_element_id INTEGER NOT NULL,
    affiliation_id       INTEGER NOT NULL DEFAULT 0, -- 0: no affiliation
    PRIMARY KEY (agency_id, person_id, marketing_element_id, affiliation_id),
    FOREIGN KEY (agency_id, person_id) REFERENCES person (agency_id, rec_no) ON DELETE CASCADE,
    FOREIGN KEY (agency_id, marketing_element_id) REFERENCES marketing_element (agency_id, rec_no)
);

CREATE TABLE tag (
    rec_no    INTEGER PRIMARY KEY AUTOINCREMENT,
    agency_id INTEGER NOT NULL REFERENCES agency (rec_no),
    name      TEXT NOT NULL,
    UNIQUE (agency_id, rec_no),
    UNIQUE (agency_id, name)
);

CREATE TABLE person_tag (
    rec_no    INTEGER PRIMARY KEY AUTOINCREMENT,
    agency_id INTEGER NOT NULL,
    person_id INTEGER NOT NULL,
    tag_id    INTEGER NOT NULL,
    value     TEXT,
    UNIQUE (agency_id, rec_no),
    FOREIGN KEY (agency_id, person_id) REFERENCES person (agency_id, rec_no) ON DELETE CASCADE,
    FOREIGN KEY (agency_id, tag_id) REFERENCES tag (agency_id, rec_no)
);
CREATE INDEX person_tag_person ON person_tag (agency_id, person_id);

CREATE TABLE person_action_item (
    rec_no                   INTEGER PRIMARY KEY AUTOINCREMENT,
    agency_id                INTEGER NOT NULL,
    person_id                INTEGER NOT NULL,
    description              TEXT,
    trigger_index            INTEGER,
    trigger_days_offset      INTEGER,
    trigger_fixed_date       DATE,
    action_date              DATE,          -- computed from the trigger on save
    app_user_id              INTEGER,
    completed                DATETIME,
    completed_by_app_user_id INTEGER,
    notes                    TEXT,
    UNIQUE (agency_id, rec_no),
    FOREIGN KEY (agency_id, person_id) REFERENCES person (agency_id, rec_no) ON DELETE CASCADE,
    FOREIGN KEY (agency_id, app_user_id) REFERENCES app_user (agency_id, rec_no)
);
CREATE INDEX person_action_item_person ON person_action_item (agency_id, person_id);

-- every unmasked read of a card number (Decrypt permission)
CREATE TABLE card_decrypt_audit (
    rec_no      INTEGER PRIMARY KEY AUTOINCREMENT,
    agency_id   INTEGER NOT NULL,
    app_user_id INTEGER NOT NULL,
    person_id   INTEGER NOT NULL,
    card_id     INTEGER NOT NULL,
    read_at     DATETIME NOT NULL
);
CREATE INDEX card_decrypt_audit_card ON card_decrypt_audit (agency_id, card_id);
