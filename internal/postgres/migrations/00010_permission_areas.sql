-- +goose Up
-- Twin of internal/sqlite/migrations/00010_permission_areas.sql: a user's
-- permission bits, one row per area ('Person', 'Activity', ...); no row:
-- no permission in that area. Replaces app_user.person_permissions.
CREATE TABLE app_user_permission (
    agency_id   BIGINT NOT NULL,
    app_user_id BIGINT NOT NULL,
    area        TEXT NOT NULL,
    bits        BIGINT NOT NULL,               -- a uint32 bit set
    PRIMARY KEY (agency_id, app_user_id, area),
    FOREIGN KEY (agency_id, app_user_id) REFERENCES app_user (agency_id, rec_no) ON DELETE CASCADE
);

INSERT INTO app_user_permission (agency_id, app_user_id, area, bits)
    SELECT agency_id, rec_no, 'Person', person_permissions FROM app_user WHERE person_permissions <> 0;

ALTER TABLE app_user DROP COLUMN person_permissions;
