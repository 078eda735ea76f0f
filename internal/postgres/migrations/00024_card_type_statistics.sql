-- +goose Up
-- Twin of internal/sqlite/migrations/00024_card_type_statistics.sql. A
-- card's subType depends on its type (the demo: loyalty cards have
-- subTypes 1-3, travel documents 1, credit cards none), and the planner
-- took the two as independent: `"cardType":[3]` with `cardSubType` 3,
-- which no card has, it guessed for a third of a third of the cards, walked
-- the persons in name order for a page of 50 and tested every one of a
-- million, past the 5 s limit. With the pairs' own statistics it starts
-- from the cards (1 ms).
CREATE STATISTICS IF NOT EXISTS card_type_sub_type (mcv, dependencies) ON type, sub_type FROM card;
ANALYZE card;
