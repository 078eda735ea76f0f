-- +goose Up
-- Twin of internal/sqlite/migrations/00005_search_child_indexes.sql (same
-- index names): commType and cardSubType filters read an index range
-- instead of the communications or cards of every person.

CREATE INDEX communication_search_type ON communication (agency_id, type, person_id);
CREATE INDEX card_search_sub_type ON card (agency_id, sub_type, type);
