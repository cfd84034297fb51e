-- Recent changes (content changes in the six hours before the last one)
-- are counted per translation, project and language in these indexes
-- alone: the action joins the time, so no change row is read.
-- Keep in step with the other database's migration.
DROP INDEX changes_project;
DROP INDEX changes_translation;
DROP INDEX changes_language;
CREATE INDEX changes_project ON changes (project_id, created, action);
CREATE INDEX changes_translation ON changes (translation_id, created, action);
CREATE INDEX changes_language ON changes (language_id, created, action);
