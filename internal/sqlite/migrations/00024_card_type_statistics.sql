-- +goose Up
-- Twin of internal/postgres/migrations/00024_card_type_statistics.sql,
-- which gives PostgreSQL's planner the statistics of card type and subType
-- together. SQLite has no such statistics and needs none: the search sizes
-- a card filter up with a bounded count before choosing its form
-- (sqlstore, search_sizing.go). The version is kept so that both engines'
-- schemas stay at the same version.
SELECT 1;
