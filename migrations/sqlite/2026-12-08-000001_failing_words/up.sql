-- The source words of the strings that fail quality checks, kept with
-- their number (failing_checks_words).
-- Keep in step with the other database's migration.
ALTER TABLE translations ADD COLUMN failing_words BIGINT NOT NULL DEFAULT 0;
