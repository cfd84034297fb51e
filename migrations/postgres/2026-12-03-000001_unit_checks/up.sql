-- The quality checks a unit fails, by id, joined by commas (empty: none):
-- written with the unit's translation in the same statement, so a check
-- costs an edit nothing more.
-- Keep in step with the other database's migration.
ALTER TABLE units ADD COLUMN failing TEXT NOT NULL DEFAULT '';
