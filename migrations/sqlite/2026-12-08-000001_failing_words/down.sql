ALTER TABLE translations DROP COLUMN failing_words;
