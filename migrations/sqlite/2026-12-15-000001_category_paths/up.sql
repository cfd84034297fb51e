-- A category's own settings (a JSON document; what it leaves empty its
-- contents inherit), and the paths of slugs API URLs name things by: a
-- category's from the project down ("docs/guides"), a component's its
-- category's path and its slug ("docs/guides/install"), or its slug.
-- Tolk rewrites the paths below a category when it is renamed or moved.
-- Paths are unique because slugs are among siblings; the indexes only
-- find them.
ALTER TABLE categories ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE categories ADD COLUMN path TEXT NOT NULL DEFAULT '';
UPDATE categories SET path = slug;
ALTER TABLE components ADD COLUMN path TEXT NOT NULL DEFAULT '';
UPDATE components SET path = slug;
CREATE INDEX categories_path ON categories (project_id, path);
CREATE INDEX components_path ON components (project_id, path);
