-- +goose Up
-- Failed logins for user names that name no user, counted like a user's so
-- that a lockout (103) does not tell which names exist.
CREATE TABLE login_failure (
    agency_id     BIGINT NOT NULL REFERENCES agency (rec_no),
    user_name_key TEXT NOT NULL,
    failures      INTEGER NOT NULL,
    locked_until  TIMESTAMPTZ,
    last_failure  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (agency_id, user_name_key)
);
CREATE INDEX login_failure_last ON login_failure (last_failure);
