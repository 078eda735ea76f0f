-- +goose Up
-- The look-ups (docs/lookups.md): the fields of branches, profiles and app
-- users that branchSearch, GET /branch/{recNo}, profileSearch and
-- appUserSearch answer. Rows made before this have no creation or change
-- time (null: left out of the answers).
-- SQLite twin: internal/sqlite/migrations/00012_lookups.sql.
ALTER TABLE branch ADD COLUMN description TEXT;
ALTER TABLE branch ADD COLUMN phone TEXT;
ALTER TABLE branch ADD COLUMN email TEXT;
ALTER TABLE branch ADD COLUMN active_status INTEGER NOT NULL DEFAULT 1;
ALTER TABLE branch ADD COLUMN create_date_time TIMESTAMPTZ;
ALTER TABLE branch ADD COLUMN last_modified_date_time TIMESTAMPTZ;

ALTER TABLE profile ADD COLUMN active_status INTEGER NOT NULL DEFAULT 1;
ALTER TABLE profile ADD COLUMN create_date_time TIMESTAMPTZ;
ALTER TABLE profile ADD COLUMN last_modified_date_time TIMESTAMPTZ;
CREATE INDEX profile_search ON profile (agency_id, type, name);

ALTER TABLE app_user ADD COLUMN name TEXT;
ALTER TABLE app_user ADD COLUMN email TEXT;
ALTER TABLE app_user ADD COLUMN create_date_time TIMESTAMPTZ;
ALTER TABLE app_user ADD COLUMN last_modified_date_time TIMESTAMPTZ;
