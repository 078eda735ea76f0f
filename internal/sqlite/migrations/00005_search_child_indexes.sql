-- +goose Up
-- Indexes for filters on a person's child rows (docs/search.md, "How
-- child-row filters run"): the search counts the rows a filter passes, up to
-- a limit, and when they are few starts from their persons. Both steps are
-- index range scans with these; communication_search_type carries person_id,
-- so for commType neither step reads the table.
-- PostgreSQL twin: internal/postgres/migrations/00005_search_child_indexes.sql.

CREATE INDEX communication_search_type ON communication (agency_id, type, person_id);
-- card_search_type leads with type; subType alone needs its own. It ends
-- with type so that it never offers (agency_id, sub_type, rowid): given
-- that, SQLite checked a card reached through person_card_link by seeking
-- this index instead of reading the card's row, and an EXISTS over every
-- person's cards (a summaryCount) took 4.0 s instead of 2.6 s.
CREATE INDEX card_search_sub_type ON card (agency_id, sub_type, type);
