-- +goose Up
-- A trigram index of communication values for the person search: commValue
-- Equal, In, StartingWith and Contains find their candidates here instead
-- of reading every communication; the search then applies its own exact
-- test to them (docs/search.md). External content: the text stays in
-- communication only, and the triggers keep the index in step.
-- PostgreSQL twin: internal/postgres/migrations/00003_search_trigram.sql.

CREATE VIRTUAL TABLE communication_trigram USING fts5(
    value, content = 'communication', content_rowid = 'rec_no', tokenize = 'trigram');
INSERT INTO communication_trigram (communication_trigram) VALUES ('rebuild');

-- +goose StatementBegin
CREATE TRIGGER communication_trigram_insert AFTER INSERT ON communication BEGIN
    INSERT INTO communication_trigram (rowid, value) VALUES (new.rec_no, new.value);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER communication_trigram_delete AFTER DELETE ON communication BEGIN
    INSERT INTO communication_trigram (communication_trigram, rowid, value) VALUES ('delete', old.rec_no, old.value);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER communication_trigram_update AFTER UPDATE OF value ON communication BEGIN
    INSERT INTO communication_trigram (communication_trigram, rowid, value) VALUES ('delete', old.rec_no, old.value);
    INSERT INTO communication_trigram (rowid, value) VALUES (new.rec_no, new.value);
END;
-- +goose StatementEnd
