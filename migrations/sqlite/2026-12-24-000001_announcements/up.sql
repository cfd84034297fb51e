-- Announcements (§17.2): a message shown on a project, a project's
-- language, a category, a component or a translation. The scope is the
-- columns set: a project's own has only `project_id`, a project's
-- language adds `language_id`, a category's `category_id`, a
-- component's `component_id`, a translation's both `component_id` and
-- `language_id`. `expiry` is a date (the last day it is shown).
-- Replaces the first schema's table, which nothing used.
-- Keep in step with the other database's migration.
DROP TABLE announcements;
CREATE TABLE announcements (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id BIGINT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    category_id BIGINT REFERENCES categories (id) ON DELETE CASCADE,
    component_id BIGINT REFERENCES components (id) ON DELETE CASCADE,
    language_id BIGINT REFERENCES languages (id) ON DELETE CASCADE,
    user_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    message TEXT NOT NULL,
    severity TEXT NOT NULL,
    expiry DATE,
    notify BOOLEAN NOT NULL,
    created TIMESTAMP NOT NULL
);
CREATE INDEX announcements_project ON announcements (project_id, id);
CREATE INDEX announcements_component ON announcements (component_id, id);
CREATE INDEX announcements_category ON announcements (category_id, id);
CREATE INDEX announcements_language ON announcements (language_id);
CREATE INDEX announcements_user ON announcements (user_id);
