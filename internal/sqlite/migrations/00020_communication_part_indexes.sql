-- +goose Up
-- Twin of internal/postgres/migrations/00020_communication_part_indexes.sql
-- (same index names). The parts of a phone number are searched as values
-- are (commValueCountryDomain, commValueCityArea: Equal, StartingWith),
-- and without an index the search sized up a part nobody has by reading
-- every communication of the agency, then read them all again to find
-- nobody: 1.9 s at 1,000,000 persons. The indexes serve both reads.
CREATE INDEX communication_search_country_domain ON communication (agency_id, lower(country_domain));
CREATE INDEX communication_search_city_area ON communication (agency_id, lower(city_area));
ANALYZE communication;
