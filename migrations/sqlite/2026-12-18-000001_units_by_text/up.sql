-- Units by the start of their text, within their translation, so that the
-- reused check finds the strings that hold a text without reading every
-- unit of a language (queries must spell the expression as written here).
CREATE INDEX units_target_prefix ON units (translation_id, substr(target, 1, 48));
