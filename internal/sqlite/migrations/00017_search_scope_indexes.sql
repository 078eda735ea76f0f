-- +goose Up
-- Twin of internal/postgres/migrations/00017_search_scope_indexes.sql
-- (same index names), for "my open tasks due this week" at 1,000,000
-- persons (BENCHMARKS.md, issue 15 target 7).
--
-- The name index also carries the person's advisor and branch, the columns
-- of the OnlySelf and OnlyBranch scopes: a scoped search that walks persons
-- in name order tests the scope from the index entry instead of reading
-- each person's row (the agent's search read 7,200 rows to find 50 of its
-- persons).
DROP INDEX person_search_name;
CREATE INDEX person_search_name ON person (agency_id, lower(last_name), lower(first_name), rec_no, advisor_profile_id, branch_id);

-- The user's activities by date also carry the columns an activity filter
-- most often tests, so that sizing the filter up (sqlstore, search_child.go)
-- reads the index alone: 10 ms to count 2,001 open tasks, 0.7 ms so.
DROP INDEX activity_user_date;
CREATE INDEX activity_user_date ON activity (agency_id, app_user_id, target_date, type, completion_date_time, private);

-- Statistics for the new indexes now (sqlite_stat1/stat4).
ANALYZE person;
ANALYZE activity;
