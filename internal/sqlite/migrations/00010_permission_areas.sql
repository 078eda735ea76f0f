-- +goose Up
-- Permission areas (docs/security.md, "Permissions"): a user's bits are one
-- row per area instead of a column per area, so a new area is a name in
-- the code, not a migration. area is the devportal's name ('Person',
-- 'Activity', ...); no row: no permission in that area.
-- PostgreSQL twin: internal/postgres/migrations/00010_permission_areas.sql.
CREATE TABLE app_user_permission (
    agency_id   INTEGER NOT NULL,
    app_user_id INTEGER NOT NULL,
    area        TEXT NOT NULL,
    bits        INTEGER NOT NULL,              -- a uint32 bit set
    PRIMARY KEY (agency_id, app_user_id, area),
    FOREIGN KEY (agency_id, app_user_id) REFERENCES app_user (agency_id, rec_no) ON DELETE CASCADE
);

INSERT INTO app_user_permission (agency_id, app_user_id, area, bits)
    SELECT agency_id, rec_no, 'Person', person_permissions FROM app_user WHERE person_permissions <> 0;

ALTER TABLE app_user DROP COLUMN person_permissions;
