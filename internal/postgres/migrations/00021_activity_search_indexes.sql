-- +goose Up
-- Twin of internal/sqlite/migrations/00021_activity_search_indexes.sql
-- (same index names). The activity search's filters on the creation time,
-- the type and the subject (Equal, StartingWith, Blank) had no index: one
-- nobody passes read every activity of the agency (0.15-0.8 s at 800,000
-- activities).
CREATE INDEX activity_created ON activity (agency_id, create_date_time);
CREATE INDEX activity_type ON activity (agency_id, type);
CREATE INDEX activity_subject ON activity (agency_id, lower(subject) COLLATE "C");
ANALYZE activity;
