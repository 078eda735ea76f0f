-- +goose Up
-- What a large bulk load dropped to build after its rows instead of row by
-- row (secondary indexes; on SQLite the trigram index's insert trigger),
-- with the statement that restores each. The load writes a row here in the
-- transaction that drops the object, and deletes it in the one that
-- restores it, so a load killed half way leaves the list of what is
-- missing; every open of the database restores it (sqlstore/bulk_defer.go,
-- docs/decisions.md "Bulk load: indexes built after the rows").

CREATE TABLE bulk_deferred (
    name    TEXT PRIMARY KEY,
    kind    TEXT NOT NULL,
    restore TEXT NOT NULL
);
