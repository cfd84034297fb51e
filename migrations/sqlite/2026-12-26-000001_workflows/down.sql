ALTER TABLE projects DROP COLUMN workflows;
