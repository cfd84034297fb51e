-- Strings deleted through the API that their files still hold: the next
-- commit removes them from each translation's file, and reads of the
-- files meanwhile do not bring them back.
-- Keep in step with the other database's migration.
CREATE TABLE unit_removals (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    translation_id BIGINT NOT NULL REFERENCES translations (id) ON DELETE CASCADE,
    id_hash BIGINT NOT NULL,
    context TEXT NOT NULL,
    source TEXT NOT NULL,
    created TIMESTAMP NOT NULL
);
CREATE INDEX unit_removals_translation ON unit_removals (translation_id, id_hash);
