-- Components keep their settings in one JSON document, as projects do; the
-- columns beside it are what the database searches, joins or keeps unique
-- (hooks find components by repository and branch). The task queue gets
-- what workers need to claim, retry and report.
-- Keep in step with migrations/sqlite.

ALTER TABLE components DROP COLUMN push;
ALTER TABLE components DROP COLUMN push_branch;
ALTER TABLE components DROP COLUMN filemask;
ALTER TABLE components DROP COLUMN template;
ALTER TABLE components DROP COLUMN new_base;
ALTER TABLE components DROP COLUMN intermediate;
ALTER TABLE components DROP COLUMN file_format;
ALTER TABLE components DROP COLUMN file_format_params;
ALTER TABLE components DROP COLUMN license;
ALTER TABLE components DROP COLUMN priority;
ALTER TABLE components DROP COLUMN is_glossary;
ALTER TABLE components ADD COLUMN task_id TEXT;
CREATE INDEX components_repo ON components (repo);

DROP TABLE tasks;
CREATE TABLE tasks (
    id TEXT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL DEFAULT '{}',
    priority INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    run_after TIMESTAMP NOT NULL,
    claimed_by TEXT,
    claimed_at TIMESTAMP,
    user_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    project_id BIGINT REFERENCES projects (id) ON DELETE SET NULL,
    component_id BIGINT REFERENCES components (id) ON DELETE SET NULL,
    completed BOOLEAN NOT NULL DEFAULT FALSE,
    progress INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    log TEXT NOT NULL DEFAULT '',
    created TIMESTAMP NOT NULL,
    updated TIMESTAMP NOT NULL
);
CREATE INDEX tasks_queue ON tasks (priority, run_after) WHERE NOT completed;
CREATE INDEX tasks_user_id ON tasks (user_id);
CREATE INDEX tasks_project_id ON tasks (project_id);
CREATE INDEX tasks_component_id ON tasks (component_id);
