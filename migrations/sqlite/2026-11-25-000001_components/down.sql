-- The queue returns to its first shape (queued tasks are dropped) and the
-- component columns come back with their defaults; the settings document
-- is not read back.
DROP TABLE tasks;
CREATE TABLE tasks (
    id TEXT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL,
    queue TEXT NOT NULL DEFAULT 'celery',
    user_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    project_id BIGINT REFERENCES projects (id) ON DELETE CASCADE,
    component_id BIGINT REFERENCES components (id) ON DELETE CASCADE,
    translation_id BIGINT REFERENCES translations (id) ON DELETE CASCADE,
    arguments TEXT NOT NULL DEFAULT '{}',
    completed BOOLEAN NOT NULL DEFAULT FALSE,
    progress INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    log TEXT NOT NULL DEFAULT '',
    created TIMESTAMP NOT NULL,
    updated TIMESTAMP NOT NULL
);
CREATE INDEX tasks_pending ON tasks (queue, created) WHERE NOT completed;
CREATE INDEX tasks_user_id ON tasks (user_id);
CREATE INDEX tasks_project_id ON tasks (project_id);
CREATE INDEX tasks_component_id ON tasks (component_id);
CREATE INDEX tasks_translation_id ON tasks (translation_id);

DROP INDEX components_repo;
ALTER TABLE components DROP COLUMN task_id;
ALTER TABLE components ADD COLUMN push TEXT NOT NULL DEFAULT '';
ALTER TABLE components ADD COLUMN push_branch TEXT NOT NULL DEFAULT '';
ALTER TABLE components ADD COLUMN filemask TEXT NOT NULL DEFAULT '';
ALTER TABLE components ADD COLUMN template TEXT NOT NULL DEFAULT '';
ALTER TABLE components ADD COLUMN new_base TEXT NOT NULL DEFAULT '';
ALTER TABLE components ADD COLUMN intermediate TEXT NOT NULL DEFAULT '';
ALTER TABLE components ADD COLUMN file_format TEXT NOT NULL DEFAULT '';
ALTER TABLE components ADD COLUMN file_format_params TEXT NOT NULL DEFAULT '{}';
ALTER TABLE components ADD COLUMN license TEXT NOT NULL DEFAULT '';
ALTER TABLE components ADD COLUMN priority INTEGER NOT NULL DEFAULT 100;
ALTER TABLE components ADD COLUMN is_glossary BOOLEAN NOT NULL DEFAULT FALSE;
