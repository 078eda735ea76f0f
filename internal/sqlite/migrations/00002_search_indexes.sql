-- +goose Up
-- Indexes of the person search (docs/search.md). Each starts with agency_id:
-- every search is bounded to one agency. Text is indexed lower-cased, as the
-- search compares it; StartingWith is a range on these expressions.
-- PostgreSQL twin: internal/postgres/migrations/00002_search_indexes.sql.

-- name prefixes, and the result order (last, first, recNo) without a sort
CREATE INDEX person_search_name ON person (agency_id, lower(last_name), lower(first_name), rec_no);
CREATE INDEX person_search_first_name ON person (agency_id, lower(first_name));
CREATE INDEX person_search_unique_id ON person (agency_id, unique_id);
CREATE INDEX person_search_birthday ON person (agency_id, birthday_month, birthday_day);
CREATE INDEX person_search_modified ON person (agency_id, last_modified_date_time);
CREATE INDEX person_search_created ON person (agency_id, create_date_time);
-- OnlySelf and OnlyBranch scopes
CREATE INDEX person_search_advisor ON person (agency_id, advisor_profile_id);
CREATE INDEX person_search_branch ON person (agency_id, branch_id);

-- communication values (Equal, In, StartingWith); primaries by person are
-- served by communication_person
CREATE INDEX communication_search_value ON communication (agency_id, lower(value));

-- cards by type and expiry, and back to their persons
CREATE INDEX card_search_type ON card (agency_id, type, sub_type);
CREATE INDEX card_search_expiration ON card (agency_id, expiration_date);

-- tags, marketing, profiles and action items from the filter side
CREATE INDEX person_tag_search_tag ON person_tag (agency_id, tag_id, person_id);
CREATE INDEX person_marketing_search_element ON person_marketing (agency_id, marketing_element_id, person_id);
CREATE INDEX person_action_item_search_date ON person_action_item (agency_id, action_date);
CREATE INDEX person_action_item_search_user ON person_action_item (agency_id, app_user_id);
