-- +goose Up
-- Twin of internal/postgres/migrations/00025_activity_person.sql: an
-- activity's one person on its own row, where a link table held it. The
-- foreign key is on the person's rec_no alone (SQLite adds a column with
-- a single column's key; a person's rec_no is unique across agencies
-- here), and the service checks the agency (checkActivityRefs).
ALTER TABLE activity ADD COLUMN person_id INTEGER REFERENCES person (rec_no);
UPDATE activity SET person_id = (SELECT l.person_id FROM activity_person_link l
    WHERE l.agency_id = activity.agency_id AND l.activity_id = activity.rec_no);
DROP TABLE activity_person_link;
CREATE INDEX activity_person ON activity (agency_id, person_id);
CREATE INDEX activity_open_person ON activity (agency_id, person_id, app_user_id, type, target_date, private)
    WHERE completion_date_time IS NULL;
ANALYZE activity;
