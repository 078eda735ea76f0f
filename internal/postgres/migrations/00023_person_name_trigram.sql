-- +goose Up
-- Twin of internal/sqlite/migrations/00023_person_name_trigram.sql: a
-- trigram index of the persons' folded names, so that a lastName,
-- firstName or middleName Contains (lower(name) LIKE '%...%') need not
-- test every person: a fragment nobody has took 0.36-0.39 s at a million
-- persons. One GIN index of the three columns, not three: a save's UPDATE
-- is not HOT (the indexed modification time), so it enters every index
-- of the person again, and GIN serves a condition on any of its columns.
-- Like 00003 and 00022, where pg_trgm is missing the search still works,
-- by reading the persons, and the migration says so.

-- +goose StatementBegin
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
        CREATE INDEX person_name_trigram ON person USING gin (
            lower(last_name) gin_trgm_ops, lower(first_name) gin_trgm_ops, lower(middle_name) gin_trgm_ops);
        -- Statistics of the new expressions now, not at the next
        -- autovacuum: without them a middle name nobody has was still
        -- tested person by person (0.2 s at a million; 1 ms analyzed).
        ANALYZE person;
    ELSE
        RAISE WARNING 'pg_trgm unavailable: a name Contains will read the persons';
    END IF;
END
$$;
-- +goose StatementEnd
