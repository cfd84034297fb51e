-- The (source language, target language) index is the start of
-- memory_source, which serves the same lookups; one index less to keep
-- at every remembered translation.
DROP INDEX memory_languages;
