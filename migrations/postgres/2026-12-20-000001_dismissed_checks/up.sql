-- The quality checks dismissed on a unit, by id, joined by commas: a
-- check listed here is left out of `failing` (and of every count of
-- failing strings) for as long as it keeps failing.
-- Keep in step with the other database's migration.
ALTER TABLE units ADD COLUMN dismissed TEXT NOT NULL DEFAULT '';
