DROP INDEX components_path;
DROP INDEX categories_path;
ALTER TABLE components DROP COLUMN path;
ALTER TABLE categories DROP COLUMN path;
ALTER TABLE categories DROP COLUMN settings;
