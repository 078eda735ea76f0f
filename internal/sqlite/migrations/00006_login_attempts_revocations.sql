-- +goose Up
-- Failed logins counted per user name and client address, and per user
-- name from all addresses together (client_key '*'), in one table for
-- names of users and names that name nobody alike, so a lockout never
-- tells which names exist (docs/security.md, "Logins and lockout").
-- Replaces app_user.failed_logins/locked_until and login_failure; locks in
-- force carry over as locks of the name for every address.
-- PostgreSQL twin: internal/postgres/migrations/00006_login_attempts_revocations.sql.
CREATE TABLE login_attempt (
    agency_id     INTEGER NOT NULL REFERENCES agency (rec_no),
    user_name_key TEXT NOT NULL,
    client_key    TEXT NOT NULL,     -- an IPv4 address, an IPv6 /64, or '*': every address
    failures      INTEGER NOT NULL DEFAULT 0,
    window_start  DATETIME,
    locked_until  DATETIME,
    last_attempt  DATETIME NOT NULL,
    PRIMARY KEY (agency_id, user_name_key, client_key)
);
CREATE INDEX login_attempt_last ON login_attempt (last_attempt);

INSERT INTO login_attempt (agency_id, user_name_key, client_key, failures, window_start, locked_until, last_attempt)
    SELECT agency_id, user_name_key, '*', 0, locked_until, locked_until, locked_until FROM app_user WHERE locked_until IS NOT NULL;
INSERT INTO login_attempt (agency_id, user_name_key, client_key, failures, window_start, locked_until, last_attempt)
    SELECT agency_id, user_name_key, '*', 0, locked_until, locked_until, last_failure FROM login_failure WHERE locked_until IS NOT NULL
    ON CONFLICT DO NOTHING;
DROP TABLE login_failure;
ALTER TABLE app_user DROP COLUMN failed_logins;
ALTER TABLE app_user DROP COLUMN locked_until;
-- An administrator's lock (wayfarer admin user lock), until unlocked.
ALTER TABLE app_user ADD COLUMN locked INTEGER NOT NULL DEFAULT 0;

-- Every change that ends sessions or changes what a session may do writes
-- a row here in its own transaction; each instance's session cache reads
-- the rows after the last one it saw (docs/decisions.md, "Session cache").
-- Writers take SQLite's write lock at BEGIN, so seq follows commit order.
CREATE TABLE session_revocation (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    agency_id   INTEGER NOT NULL,
    app_user_id INTEGER,             -- set: every session of this user
    token_id    INTEGER,             -- set: this session
    created_at  DATETIME NOT NULL
);
CREATE INDEX session_revocation_created ON session_revocation (created_at);
