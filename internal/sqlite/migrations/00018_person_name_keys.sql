-- +goose Up
-- The folded names as columns of their own (virtual: computed, not
-- stored) and the name indexes on them, so that a keyset continuation
-- (sqlstore/search_keyset.go) is one row-value comparison that SQLite runs
-- as a range of the name index: SQLite uses a row value as a range only on
-- index columns that are columns, never on expressions such as
-- lower(last_name). The page after row 100,000 of 1,000,000 skipped the
-- persons who share the last name before the continuation one by one
-- (4.2-5.4 ms); it now starts at the row. The searches name these columns
-- (Dialect.Fold); the values are those of lower() as before.
--
-- PostgreSQL's twin changes nothing: it runs a row value as a range of its
-- expression index already.
ALTER TABLE person ADD COLUMN last_name_key TEXT GENERATED ALWAYS AS (lower(last_name)) VIRTUAL;
ALTER TABLE person ADD COLUMN first_name_key TEXT GENERATED ALWAYS AS (lower(first_name)) VIRTUAL;

-- A bulk load killed half way may have left these dropped, to be built
-- from bulk_deferred by their old definitions: build the new ones here.
DELETE FROM bulk_deferred WHERE name IN ('person_search_name', 'person_search_first_name');
DROP INDEX IF EXISTS person_search_name;
CREATE INDEX person_search_name ON person (agency_id, last_name_key, first_name_key, rec_no, advisor_profile_id, branch_id);
DROP INDEX IF EXISTS person_search_first_name;
CREATE INDEX person_search_first_name ON person (agency_id, first_name_key);

ANALYZE person;

