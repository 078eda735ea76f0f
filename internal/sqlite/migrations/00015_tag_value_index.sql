-- +goose Up
-- Twin of internal/postgres/migrations/00015_tag_value_index.sql (same
-- index name): a tag filter with a value compares lower(value); the index
-- gives that expression a range and statistics (BENCHMARKS.md, issue 15).

CREATE INDEX person_tag_search_value ON person_tag (agency_id, tag_id, lower(value));

-- Statistics for the new index now (sqlite_stat1/stat4).
ANALYZE person_tag;
