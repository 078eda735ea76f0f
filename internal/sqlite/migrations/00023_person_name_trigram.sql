-- +goose Up
-- A trigram index of the persons' names, as activity_trigram (00022) is of
-- activity subjects: a lastName, firstName or middleName Contains in the
-- person search is sized up through it and, when few persons match,
-- answered from its matches instead of testing every person (a fragment
-- nobody has: 0.28 s at a million persons, where walking the name index
-- alone costs 0.18 s). External content: the names stay in person, the
-- triggers keep the index in step (the update trigger only when a name
-- changes, so that other saves do not pay for it). PostgreSQL twin:
-- internal/postgres/migrations/00023_person_name_trigram.sql.

CREATE VIRTUAL TABLE person_trigram USING fts5(
    last_name, first_name, middle_name, content = 'person', content_rowid = 'rec_no', tokenize = 'trigram');
INSERT INTO person_trigram (person_trigram) VALUES ('rebuild');

-- +goose StatementBegin
CREATE TRIGGER person_trigram_insert AFTER INSERT ON person BEGIN
    INSERT INTO person_trigram (rowid, last_name, first_name, middle_name)
        VALUES (new.rec_no, new.last_name, new.first_name, new.middle_name);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER person_trigram_delete AFTER DELETE ON person BEGIN
    INSERT INTO person_trigram (person_trigram, rowid, last_name, first_name, middle_name)
        VALUES ('delete', old.rec_no, old.last_name, old.first_name, old.middle_name);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER person_trigram_update AFTER UPDATE OF last_name, first_name, middle_name ON person BEGIN
    INSERT INTO person_trigram (person_trigram, rowid, last_name, first_name, middle_name)
        VALUES ('delete', old.rec_no, old.last_name, old.first_name, old.middle_name);
    INSERT INTO person_trigram (rowid, last_name, first_name, middle_name)
        VALUES (new.rec_no, new.last_name, new.first_name, new.middle_name);
END;
-- +goose StatementEnd
