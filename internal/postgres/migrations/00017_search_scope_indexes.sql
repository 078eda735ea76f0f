-- +goose Up
-- Twin of internal/sqlite/migrations/00017_search_scope_indexes.sql (same
-- index names). The name index also carries the person's advisor and
-- branch, the columns of the OnlySelf and OnlyBranch scopes: a scoped
-- search that walks persons in name order tests the scope in an
-- index-only scan instead of visiting each person's heap tuple
-- (BENCHMARKS.md, issue 15 target 7). activity_user_date stays as it is:
-- PostgreSQL does not size filters up first (the SQLite twin widens it for
-- that).

DROP INDEX person_search_name;
CREATE INDEX person_search_name ON person (agency_id,
    lower(last_name) COLLATE "C" NULLS FIRST, lower(first_name) COLLATE "C" NULLS FIRST, rec_no)
    INCLUDE (last_name, first_name, middle_name, advisor_profile_id, branch_id);

ANALYZE person;
