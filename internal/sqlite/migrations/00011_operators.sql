-- +goose Up
-- Host operators (docs/operators.md): identities of the host, in no agency,
-- who log in with GET /login/: (the admin domain) or GET /login/{alias}:
-- (one agency, with the rights granted there).
-- PostgreSQL twin: internal/postgres/migrations/00011_operators.sql.
CREATE TABLE operator (
    rec_no        INTEGER PRIMARY KEY AUTOINCREMENT,
    name          TEXT NOT NULL,
    name_key      TEXT NOT NULL UNIQUE,      -- lower-case, for case-insensitive login
    password_hash TEXT NOT NULL DEFAULT '',  -- argon2id, as app_user's
    enabled       INTEGER NOT NULL DEFAULT 1,
    created_at    DATETIME NOT NULL
);

-- What an operator may do inside one agency: one bit set per permission
-- area, as app_user_permission. No row for an agency: no login there.
CREATE TABLE operator_grant (
    operator_id INTEGER NOT NULL REFERENCES operator (rec_no) ON DELETE CASCADE,
    agency_id   INTEGER NOT NULL REFERENCES agency (rec_no),
    area        TEXT NOT NULL,
    bits        INTEGER NOT NULL,
    PRIMARY KEY (operator_id, agency_id, area)
);

-- Every action of an operator: in the admin domain (agency_id NULL unless
-- the action concerns one) and in an agency. Never a password, token or
-- card number. operator_name is kept beside operator_id so a row still
-- names its operator if the operator's row changes.
CREATE TABLE operator_audit (
    rec_no        INTEGER PRIMARY KEY AUTOINCREMENT,
    at            DATETIME NOT NULL,
    operator_id   INTEGER,
    operator_name TEXT NOT NULL,
    agency_id     INTEGER,
    action        TEXT NOT NULL,
    target        TEXT NOT NULL DEFAULT '',
    detail        TEXT NOT NULL DEFAULT ''
);
CREATE INDEX operator_audit_at ON operator_audit (at);

-- Operators' sessions live beside app users' in identity_token, so logout,
-- refresh, expiry sweeps, revocations and the session cache are the same;
-- a row holds either an app user or an operator. agency_id 0 is the admin
-- domain. SQLite cannot drop NOT NULL in place: the table is rebuilt,
-- keeping its AUTOINCREMENT sequence (a tokenRecNo is never reused).
CREATE TABLE identity_token_new (
    rec_no      INTEGER PRIMARY KEY AUTOINCREMENT,
    agency_id   INTEGER NOT NULL,
    app_user_id INTEGER,
    operator_id INTEGER REFERENCES operator (rec_no) ON DELETE CASCADE,
    created_at  DATETIME NOT NULL,
    expires_at  DATETIME NOT NULL,
    UNIQUE (agency_id, rec_no),
    FOREIGN KEY (agency_id, app_user_id) REFERENCES app_user (agency_id, rec_no) ON DELETE CASCADE,
    CHECK ((app_user_id IS NULL) <> (operator_id IS NULL))
);
INSERT INTO identity_token_new (rec_no, agency_id, app_user_id, created_at, expires_at)
    SELECT rec_no, agency_id, app_user_id, created_at, expires_at FROM identity_token;
DELETE FROM sqlite_sequence WHERE name = 'identity_token_new';
INSERT INTO sqlite_sequence (name, seq) SELECT 'identity_token_new', seq FROM sqlite_sequence WHERE name = 'identity_token';
DROP TABLE identity_token;
ALTER TABLE identity_token_new RENAME TO identity_token;
CREATE INDEX identity_token_expires ON identity_token (expires_at);
CREATE INDEX identity_token_operator ON identity_token (operator_id);

-- Failed operator logins are counted in login_attempt like users' (the same
-- lockout), under agency_id 0, the host: the agency foreign key goes.
CREATE TABLE login_attempt_new (
    agency_id     INTEGER NOT NULL,  -- 0: the host's operators
    user_name_key TEXT NOT NULL,
    client_key    TEXT NOT NULL,     -- an IPv4 address, an IPv6 /64, or '*': every address
    failures      INTEGER NOT NULL DEFAULT 0,
    window_start  DATETIME,
    locked_until  DATETIME,
    last_attempt  DATETIME NOT NULL,
    PRIMARY KEY (agency_id, user_name_key, client_key)
);
INSERT INTO login_attempt_new (agency_id, user_name_key, client_key, failures, window_start, locked_until, last_attempt)
    SELECT agency_id, user_name_key, client_key, failures, window_start, locked_until, last_attempt FROM login_attempt;
DROP TABLE login_attempt;
ALTER TABLE login_attempt_new RENAME TO login_attempt;
CREATE INDEX login_attempt_last ON login_attempt (last_attempt);

-- set: every session of this operator, in every agency and the admin domain
ALTER TABLE session_revocation ADD COLUMN operator_id INTEGER;
