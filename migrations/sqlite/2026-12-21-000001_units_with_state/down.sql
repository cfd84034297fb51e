DROP INDEX units_translation_id;
CREATE INDEX units_translation_id ON units (translation_id, id);
