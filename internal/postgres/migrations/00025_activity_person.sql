-- +goose Up
-- Twin of internal/sqlite/migrations/00025_activity_person.sql. An
-- activity links to at most one person (the devportal's Singleton), so the
-- person goes on the activity's own row instead of a link table of its
-- own: "the travelers with an open task of mine this week" then tests each
-- person with one probe of a small index of open activities (index only),
-- where it went through the link's index and then the activity's row
-- (1,901 persons tested for a page at a million persons; docs/activities.md,
-- "How the filter runs"). No action on a person's deletion: the service
-- never deletes a person, and one deleted by hand while an activity names
-- it is refused, as a card link's is.
ALTER TABLE activity ADD COLUMN person_id BIGINT,
    ADD CONSTRAINT activity_person_fkey FOREIGN KEY (agency_id, person_id) REFERENCES person (agency_id, rec_no);
UPDATE activity a SET person_id = l.person_id
    FROM activity_person_link l WHERE l.agency_id = a.agency_id AND l.activity_id = a.rec_no;
DROP TABLE activity_person_link;
-- A person's activities (GET and search by personRecNo, the filter's
-- other forms).
CREATE INDEX activity_person ON activity (agency_id, person_id);
-- The filter's usual form, open activities of a user: its whole test in
-- the index. Completed activities, most of them, stay out of it.
CREATE INDEX activity_open_person ON activity (agency_id, person_id, app_user_id, type, target_date)
    INCLUDE (private) WHERE completion_date_time IS NULL;
ANALYZE activity;
