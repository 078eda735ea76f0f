-- +goose Up
-- Twin of internal/postgres/migrations/00021_activity_search_indexes.sql
-- (same index names). The activity search's filters on the creation time,
-- the type and the subject (Equal, StartingWith, Blank) had no index: one
-- nobody passes walked every activity of the agency in recNo order (0.5-1.3 s
-- at 800,000 activities), and "created this week", whose activities are the
-- last in recNo order, walked nearly all of them. The search sizes such a
-- filter up through its index first (sqlstore, search_flat_indexed.go).
CREATE INDEX activity_created ON activity (agency_id, create_date_time);
CREATE INDEX activity_type ON activity (agency_id, type);
CREATE INDEX activity_subject ON activity (agency_id, lower(subject));
ANALYZE activity;
