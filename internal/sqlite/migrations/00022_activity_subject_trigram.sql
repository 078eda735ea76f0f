-- +goose Up
-- A trigram index of activity subjects, as communication_trigram (00003)
-- is of communication values: a subject Contains or StartingWith in the
-- person search's personActivitySearchParams is sized up and, when few
-- activities match, answered from its matches instead of reading every
-- activity (a fragment nobody has: 0.6 s at 800,000 activities). External
-- content: the text stays in activity, the triggers keep the index in
-- step. PostgreSQL twin: internal/postgres/migrations/00022_activity_subject_trigram.sql.

CREATE VIRTUAL TABLE activity_trigram USING fts5(
    subject, content = 'activity', content_rowid = 'rec_no', tokenize = 'trigram');
INSERT INTO activity_trigram (activity_trigram) VALUES ('rebuild');

-- +goose StatementBegin
CREATE TRIGGER activity_trigram_insert AFTER INSERT ON activity BEGIN
    INSERT INTO activity_trigram (rowid, subject) VALUES (new.rec_no, new.subject);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER activity_trigram_delete AFTER DELETE ON activity BEGIN
    INSERT INTO activity_trigram (activity_trigram, rowid, subject) VALUES ('delete', old.rec_no, old.subject);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER activity_trigram_update AFTER UPDATE OF subject ON activity BEGIN
    INSERT INTO activity_trigram (activity_trigram, rowid, subject) VALUES ('delete', old.rec_no, old.subject);
    INSERT INTO activity_trigram (rowid, subject) VALUES (new.rec_no, new.subject);
END;
-- +goose StatementEnd
