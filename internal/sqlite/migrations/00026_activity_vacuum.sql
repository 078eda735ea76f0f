-- +goose Up
-- Twin of internal/postgres/migrations/00026_activity_vacuum.sql, which
-- clears the dead rows 00025's update left on PostgreSQL. SQLite updates
-- rows in place and has nothing to clear; the version is kept so that both
-- engines' schemas stay at the same version.
SELECT 1;
