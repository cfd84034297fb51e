-- A hash of everything that makes a translation memory entry the same
-- entry (languages, texts, origin, scope): storing one that exists does
-- nothing, found through one index entry rather than every entry of
-- its source text.
-- Keep in step with the other database's migration.
ALTER TABLE memory ADD COLUMN digest BIGINT;
CREATE UNIQUE INDEX memory_digest ON memory (digest);
