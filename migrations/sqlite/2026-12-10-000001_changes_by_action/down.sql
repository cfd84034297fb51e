DROP INDEX changes_project;
DROP INDEX changes_translation;
DROP INDEX changes_language;
CREATE INDEX changes_project ON changes (project_id, created);
CREATE INDEX changes_translation ON changes (translation_id, created);
CREATE INDEX changes_language ON changes (language_id, created);
