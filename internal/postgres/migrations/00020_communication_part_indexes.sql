-- +goose Up
-- Twin of internal/sqlite/migrations/00020_communication_part_indexes.sql
-- (same index names). The parts of a phone number are searched as values
-- are (commValueCountryDomain, commValueCityArea: Equal, StartingWith),
-- and without an index a part nobody has was looked for by testing every
-- person's communications in name order: past the 5 s limit at 1,000,000
-- persons. The indexes let a search start from the parts' matches, and
-- give the planner the statistics of the folded values.
CREATE INDEX communication_search_country_domain ON communication (agency_id, lower(country_domain) COLLATE "C");
CREATE INDEX communication_search_city_area ON communication (agency_id, lower(city_area) COLLATE "C");
-- The statistics of the folded parts as a substring filter (Contains:
-- lower(x) LIKE) and an equality on userSpecific see them; without them
-- the planner guessed thousands of matches for a part nobody has and walked
-- every person; with them it reads the communications once (0.5-0.9 s).
CREATE STATISTICS communication_country_domain_folded ON (lower(country_domain)) FROM communication;
CREATE STATISTICS communication_city_area_folded ON (lower(city_area)) FROM communication;
CREATE STATISTICS communication_user_specific_folded ON (lower(user_specific)) FROM communication;
CREATE STATISTICS communication_user_specific_key ON (lower(user_specific) COLLATE "C") FROM communication;
ANALYZE communication;
