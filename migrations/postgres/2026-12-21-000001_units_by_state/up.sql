-- Units by state within their translation, in the lists' order: the
-- editor's place in a list of untranslated or needing-editing strings
-- ("string 12 of 40", the previous and next ones) is read from this
-- index alone instead of every unit of the translation.
CREATE INDEX units_state ON units (translation_id, state, id);
