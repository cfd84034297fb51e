-- Text search over units: trigrams of source, translation and context in
-- an FTS5 index (case-insensitive), kept by triggers. A search for three
-- or more characters finds its candidates here instead of reading every
-- unit.
CREATE VIRTUAL TABLE unit_text USING fts5(
    source, target, context,
    content = 'units', content_rowid = 'id', tokenize = 'trigram'
);
INSERT INTO unit_text (unit_text) VALUES ('rebuild');
CREATE TRIGGER unit_text_insert AFTER INSERT ON units BEGIN
    INSERT INTO unit_text (rowid, source, target, context)
    VALUES (new.id, new.source, new.target, new.context);
END;
CREATE TRIGGER unit_text_delete AFTER DELETE ON units BEGIN
    INSERT INTO unit_text (unit_text, rowid, source, target, context)
    VALUES ('delete', old.id, old.source, old.target, old.context);
END;
CREATE TRIGGER unit_text_update AFTER UPDATE OF source, target, context ON units BEGIN
    INSERT INTO unit_text (unit_text, rowid, source, target, context)
    VALUES ('delete', old.id, old.source, old.target, old.context);
    INSERT INTO unit_text (rowid, source, target, context)
    VALUES (new.id, new.source, new.target, new.context);
END;
