-- +goose Up
-- PostgreSQL twin of internal/sqlite/migrations/00002_search_indexes.sql
-- (same index names). Text is indexed as the search compares and sorts it,
-- lower(col) COLLATE "C" (sqlstore.Dialect.Fold): the code-point order makes
-- StartingWith a range the B-tree serves whatever the database's locale, and
-- NULLS FIRST matches the ORDER BY, so the name index also yields the order.
-- It carries the name columns too: a page of recNo and name is then read
-- from the index alone, without a heap visit per skipped row of a deep page
-- (OFFSET 100000 at a million persons: 60 ms instead of 400 ms).

CREATE INDEX person_search_name ON person (agency_id,
    lower(last_name) COLLATE "C" NULLS FIRST, lower(first_name) COLLATE "C" NULLS FIRST, rec_no)
    INCLUDE (last_name, first_name, middle_name);
CREATE INDEX person_search_first_name ON person (agency_id, lower(first_name) COLLATE "C");
CREATE INDEX person_search_unique_id ON person (agency_id, unique_id);
CREATE INDEX person_search_birthday ON person (agency_id, birthday_month, birthday_day);
CREATE INDEX person_search_modified ON person (agency_id, last_modified_date_time);
CREATE INDEX person_search_created ON person (agency_id, create_date_time);
-- OnlySelf and OnlyBranch scopes
CREATE INDEX person_search_advisor ON person (agency_id, advisor_profile_id);
CREATE INDEX person_search_branch ON person (agency_id, branch_id);

CREATE INDEX communication_search_value ON communication (agency_id, lower(value) COLLATE "C");

CREATE INDEX card_search_type ON card (agency_id, type, sub_type);
CREATE INDEX card_search_expiration ON card (agency_id, expiration_date);

CREATE INDEX person_tag_search_tag ON person_tag (agency_id, tag_id, person_id);
CREATE INDEX person_marketing_search_element ON person_marketing (agency_id, marketing_element_id, person_id);
CREATE INDEX person_action_item_search_date ON person_action_item (agency_id, action_date);
CREATE INDEX person_action_item_search_user ON person_action_item (agency_id, app_user_id);
