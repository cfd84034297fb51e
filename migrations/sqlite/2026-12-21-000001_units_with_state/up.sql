-- A translation's units in the lists' order, now with their state: the
-- editor's place in a list of untranslated or needing-editing strings
-- ("string 12 of 40", the previous and next ones) is counted from this
-- index alone, without reading each unit. The state comes last, so that
-- queries choosing by translation and state keep their own indexes.
DROP INDEX units_translation_id;
CREATE INDEX units_translation_id ON units (translation_id, id, state);
