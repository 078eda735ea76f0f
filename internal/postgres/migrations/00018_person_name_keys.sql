-- +goose Up
-- Twin of internal/sqlite/migrations/00018_person_name_keys.sql, which
-- gives SQLite the folded names as columns so that a keyset continuation
-- is a range of the name index. PostgreSQL runs that row-value comparison
-- as a range of its expression index (lower(last_name) COLLATE "C", ...)
-- already, so nothing changes here; the version keeps both engines' schema
-- histories in step.
SELECT 1;

