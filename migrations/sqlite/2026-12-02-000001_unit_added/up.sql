-- Strings added through the API and not yet in their files: a read of the
-- files keeps them, and the next commit writes them in.
-- Keep in step with the other database's migration.
ALTER TABLE units ADD COLUMN added BOOLEAN NOT NULL DEFAULT FALSE;
