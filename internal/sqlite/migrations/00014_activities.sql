-- +goose Up
-- Activities (docs/activities.md): tasks, appointments, notes and promos of
-- an app user, optionally linked to one person (activityPersonLink is a
-- singleton in the devportal), with tags like a person's.
-- PostgreSQL twin: internal/postgres/migrations/00014_activities.sql.
CREATE TABLE activity (
    rec_no                  INTEGER PRIMARY KEY AUTOINCREMENT,
    agency_id               INTEGER NOT NULL REFERENCES agency (rec_no),
    app_user_id             INTEGER,
    type                    INTEGER NOT NULL,        -- Task 1, Appointment 2, Note 3, Promo 4
    sub_type                INTEGER,
    priority                INTEGER NOT NULL,        -- Low 1, Medium 2, High 3
    target_date_time        DATETIME,
    target_date             DATE,
    duration                INTEGER,
    completion_date_time    DATETIME,
    alert_date_time         DATETIME,
    alert_offset            INTEGER,
    subject                 TEXT,
    remarks                 TEXT,
    private                 INTEGER NOT NULL DEFAULT 0,
    create_date_time        DATETIME NOT NULL,
    last_modified_date_time DATETIME NOT NULL,
    UNIQUE (agency_id, rec_no),
    FOREIGN KEY (agency_id, app_user_id) REFERENCES app_user (agency_id, rec_no)
);
-- "my open tasks due this week": the user's activities by date.
CREATE INDEX activity_user_date ON activity (agency_id, app_user_id, target_date);
CREATE INDEX activity_user_date_time ON activity (agency_id, app_user_id, target_date_time);
CREATE INDEX activity_date ON activity (agency_id, target_date);
CREATE INDEX activity_date_time ON activity (agency_id, target_date_time);
CREATE INDEX activity_modified ON activity (agency_id, last_modified_date_time);

-- at most one person per activity (the devportal's Singleton)
CREATE TABLE activity_person_link (
    agency_id   INTEGER NOT NULL,
    activity_id INTEGER NOT NULL,
    person_id   INTEGER NOT NULL,
    PRIMARY KEY (agency_id, activity_id),
    FOREIGN KEY (agency_id, activity_id) REFERENCES activity (agency_id, rec_no) ON DELETE CASCADE,
    FOREIGN KEY (agency_id, person_id) REFERENCES person (agency_id, rec_no) ON DELETE CASCADE
);
-- personActivitySearchParams goes from the person to its activities.
CREATE INDEX activity_person_link_person ON activity_person_link (agency_id, person_id, activity_id);

CREATE TABLE activity_tag (
    rec_no      INTEGER PRIMARY KEY AUTOINCREMENT,
    agency_id   INTEGER NOT NULL,
    activity_id INTEGER NOT NULL,
    tag_id      INTEGER NOT NULL,
    value       TEXT,
    UNIQUE (agency_id, rec_no),
    FOREIGN KEY (agency_id, activity_id) REFERENCES activity (agency_id, rec_no) ON DELETE CASCADE,
    FOREIGN KEY (agency_id, tag_id) REFERENCES tag (agency_id, rec_no)
);
CREATE INDEX activity_tag_activity ON activity_tag (agency_id, activity_id);
CREATE INDEX activity_tag_tag ON activity_tag (agency_id, tag_id);
