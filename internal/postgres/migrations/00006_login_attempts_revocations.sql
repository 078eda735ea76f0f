-- +goose Up
-- The PostgreSQL twin of internal/sqlite/migrations/00006_login_attempts_revocations.sql.
-- Failed logins counted per user name and client address, and per user
-- name from all addresses together (client_key '*'), in one table for
-- names of users and names that name nobody alike, so a lockout never
-- tells which names exist (docs/security.md, "Logins and lockout").
-- Replaces app_user.failed_logins/locked_until and login_failure; locks in
-- force carry over as locks of the name for every address.
CREATE TABLE login_attempt (
    agency_id     BIGINT NOT NULL REFERENCES agency (rec_no),
    user_name_key TEXT NOT NULL,
    client_key    TEXT NOT NULL,     -- an IPv4 address, an IPv6 /64, or '*': every address
    failures      INTEGER NOT NULL DEFAULT 0,
    window_start  TIMESTAMPTZ,
    locked_until  TIMESTAMPTZ,
    last_attempt  TIMESTAMPTZ NOT NULL,
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
ALTER TABLE app_user ADD COLUMN locked BOOLEAN NOT NULL DEFAULT FALSE;

-- Every change that ends sessions or changes what a session may do writes
-- a row here in its own transaction; each instance's session cache reads
-- the rows after the last one it saw (docs/decisions.md, "Session cache").
-- Writers hold an EXCLUSIVE lock on the table from the start of their
-- transaction to its commit (sqlstore/revocation.go), so seq follows
-- commit order and a reader never skips a row that commits late.
-- Keyed by agency like every agency-owned table; readers follow seq, one
-- order for all agencies (on a distributed PostgreSQL, make the table a
-- reference table: its readers need that one order).
CREATE TABLE session_revocation (
    agency_id   BIGINT NOT NULL,
    seq         BIGINT GENERATED ALWAYS AS IDENTITY,
    app_user_id BIGINT,              -- set: every session of this user
    token_id    BIGINT,              -- set: this session
    created_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (agency_id, seq)
);
CREATE INDEX session_revocation_seq ON session_revocation (seq);
CREATE INDEX session_revocation_created ON session_revocation (created_at);

-- Wakes every instance's session cache (LISTEN wayfarer_session_revoked)
-- when revocations commit; the rows themselves are read from the table,
-- so a lost notification only delays a revocation to the next poll.
-- +goose StatementBegin
CREATE FUNCTION wayfarer_notify_session_revoked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('wayfarer_session_revoked', '');
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER session_revocation_notify AFTER INSERT ON session_revocation
    FOR EACH STATEMENT EXECUTE FUNCTION wayfarer_notify_session_revoked();
