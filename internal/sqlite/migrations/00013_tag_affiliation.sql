-- +goose Up
-- Tag definitions and affiliations as the devportal's Tag and Affiliation
-- describe them (docs/tags.md): a tag's settings beside its name, and an
-- affiliation's marketing categories, each holding marketing elements.
-- PostgreSQL twin: internal/postgres/migrations/00013_tag_affiliation.sql.

ALTER TABLE tag ADD COLUMN active_status INTEGER NOT NULL DEFAULT 1;
ALTER TABLE tag ADD COLUMN value_free_flow INTEGER NOT NULL DEFAULT 1;
ALTER TABLE tag ADD COLUMN value_required INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tag ADD COLUMN value_list TEXT;
ALTER TABLE tag ADD COLUMN description TEXT;
ALTER TABLE tag ADD COLUMN area_flags INTEGER NOT NULL DEFAULT 0;     -- All 0, Client 1, Traveler 2, ...
ALTER TABLE tag ADD COLUMN requirement INTEGER NOT NULL DEFAULT 1;    -- Optional 1, Recommended 2, Mandatory 3
ALTER TABLE tag ADD COLUMN default_value TEXT;
-- Null for tags written before this migration.
ALTER TABLE tag ADD COLUMN create_date_time DATETIME;
ALTER TABLE tag ADD COLUMN last_modified_date_time DATETIME;

-- affiliationMarketingCategory: a group of an affiliation's marketing elements.
CREATE TABLE marketing_category (
    rec_no         INTEGER PRIMARY KEY AUTOINCREMENT,
    agency_id      INTEGER NOT NULL,
    affiliation_id INTEGER NOT NULL,
    name           TEXT NOT NULL,
    code           TEXT,                    -- the reference's id, e.g. a consortium's code
    UNIQUE (agency_id, rec_no),
    UNIQUE (agency_id, affiliation_id, name),
    FOREIGN KEY (agency_id, affiliation_id) REFERENCES affiliation (agency_id, rec_no)
);

-- A marketing element under a category (null: one of the agency's own
-- elements outside any affiliation, as persons' personMarketing had them).
ALTER TABLE marketing_element ADD COLUMN category_id INTEGER;
ALTER TABLE marketing_element ADD COLUMN sort_no INTEGER;
CREATE INDEX marketing_element_category ON marketing_element (agency_id, category_id);
