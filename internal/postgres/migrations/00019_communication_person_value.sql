-- +goose Up
-- Twin of internal/sqlite/migrations/00019_communication_person_value.sql
-- (same index name). A person's communications by person carry their
-- value (INCLUDE), so that a substring filter tested person by person (a
-- person search walking the name index with a communication filter too
-- common for the trigram index to narrow, "son" at 1,000,000 persons) is an
-- index-only scan: 19,877 buffers for the first page of "son", 14,927 so,
-- and no heap page (BENCHMARKS.md, issue 15 target 2).
DELETE FROM bulk_deferred WHERE name = 'communication_person';
DROP INDEX IF EXISTS communication_person;
CREATE INDEX communication_person ON communication (agency_id, person_id) INCLUDE (value);
ANALYZE communication;
