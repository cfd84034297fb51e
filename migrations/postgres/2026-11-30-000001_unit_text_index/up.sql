-- Text search over units: trigram indexes of source, translation and
-- context in lower case, which `lower(column) LIKE pattern` uses for
-- patterns of three or more characters instead of reading every unit.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX units_source_trigrams ON units USING gin (lower(source) gin_trgm_ops);
CREATE INDEX units_target_trigrams ON units USING gin (lower(target) gin_trgm_ops);
CREATE INDEX units_context_trigrams ON units USING gin (lower(context) gin_trgm_ops);
