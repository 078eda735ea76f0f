-- +goose Up
-- Twin of internal/postgres/migrations/00019_communication_person_value.sql
-- (same index name). A person's communications by person carry their
-- value, so that a substring filter tested person by person (a person
-- search walking the name index with a communication filter too common for
-- the trigram index to narrow, "son" at 1,000,000 persons) reads the index
-- entry instead of seeking each communication's row (BENCHMARKS.md, issue
-- 15 target 2).
DELETE FROM bulk_deferred WHERE name = 'communication_person';
DROP INDEX IF EXISTS communication_person;
CREATE INDEX communication_person ON communication (agency_id, person_id, value);
ANALYZE communication;
