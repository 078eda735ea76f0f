-- +goose Up
-- Card key canaries (docs/deployment.md, "Card keys"): per card key id, a
-- known text sealed under that key. At start-up every key id in use must
-- open its canary, so a missing or wrong key stops the server instead of
-- failing card by card. Not owned by an agency: a reference table, like
-- server_secret.
-- PostgreSQL twin: internal/postgres/migrations/00008_card_key_canary.sql.
CREATE TABLE card_key_canary (
    key_id     TEXT PRIMARY KEY,
    cipher     BLOB NOT NULL,
    created_at DATETIME NOT NULL
);

-- The key ids cards are sealed under (start-up walks the distinct ones),
-- and the cards under one key in rec_no order (wayfarer keys rotate).
-- Loyalty and travel documents hold no cipher and stay out.
CREATE INDEX card_number_key_id ON card (number_key_id) WHERE number_key_id IS NOT NULL;
