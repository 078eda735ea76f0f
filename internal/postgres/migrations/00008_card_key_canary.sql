-- +goose Up
-- Twin of internal/sqlite/migrations/00008_card_key_canary.sql: card key
-- canaries, and the index start-up and `wayfarer keys rotate` find cards
-- by key id with. card_key_canary is a reference table (no agency_id).
CREATE TABLE card_key_canary (
    key_id     TEXT PRIMARY KEY,
    cipher     BYTEA NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);

CREATE INDEX card_number_key_id ON card (number_key_id, rec_no) WHERE number_key_id IS NOT NULL;
