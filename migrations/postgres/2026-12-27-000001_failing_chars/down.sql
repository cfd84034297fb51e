ALTER TABLE stats_pending DROP COLUMN failing_chars;
ALTER TABLE stats_kept DROP COLUMN failing_chars;
ALTER TABLE translations DROP COLUMN failing_chars;
