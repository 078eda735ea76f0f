-- +goose Up
-- Twin of internal/sqlite/migrations/00003_search_trigram.sql: a trigram
-- index of communication values, so commValue Contains (lower(value) LIKE
-- '%...%') need not read every communication. pg_trgm is a trusted
-- extension (PostgreSQL 13+); where it cannot be installed the search still
-- works, by reading the table, and the migration says so.

-- +goose StatementBegin
DO $$
BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX communication_search_trigram ON communication USING gin (lower(value) gin_trgm_ops);
EXCEPTION WHEN OTHERS THEN
    RAISE WARNING 'pg_trgm unavailable (%): commValue searches will read the communication table', SQLERRM;
END
$$;
-- +goose StatementEnd
