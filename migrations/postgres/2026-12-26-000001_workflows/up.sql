-- The workflow settings of a project's languages, by language code: a
-- JSON object read with the project, so that the strings' rules cost no
-- statement of their own.
-- Keep in step with the other database's migration.
ALTER TABLE projects ADD COLUMN workflows TEXT NOT NULL DEFAULT '{}';
