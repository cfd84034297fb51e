ALTER TABLE tasks DROP COLUMN cancelled;
