-- Translation memory entries are found by a hash of their source text
-- (exact matches, and the check that an entry is not stored twice)
-- without comparing every text of a language pair.
-- Keep in step with the other database's migration.
ALTER TABLE memory ADD COLUMN source_hash BIGINT NOT NULL DEFAULT 0;
CREATE INDEX memory_source ON memory (source_language_id, target_language_id, source_hash);
