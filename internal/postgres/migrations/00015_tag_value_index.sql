-- +goose Up
-- Twin of internal/sqlite/migrations/00015_tag_value_index.sql (same index
-- name): a tag filter with a value ({"recNo":1,"value":{"value":["gold"],
-- "compareCondition":1}}) compares lower(value). Without statistics on that
-- expression the planner guessed 600 of 480,000 tag rows where 40,000
-- passed, started from the tags and sorted every match: 310–460 ms at
-- 1,000,000 persons. The index gives the expression statistics (and a
-- range), so the planner walks the name index and probes each person's
-- tags: 20 ms (BENCHMARKS.md, issue 15).

CREATE INDEX person_tag_search_value ON person_tag (agency_id, tag_id, (lower(value) COLLATE "C"));

-- Statistics for the new expression now: autovacuum analyzes a table only
-- after enough of its rows change, not when an index is added.
ANALYZE person_tag;
