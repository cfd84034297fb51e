DROP TABLE announcements;
CREATE TABLE announcements (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id BIGINT REFERENCES projects (id) ON DELETE CASCADE,
    component_id BIGINT REFERENCES components (id) ON DELETE CASCADE,
    language_id BIGINT REFERENCES languages (id) ON DELETE CASCADE,
    message TEXT NOT NULL,
    severity TEXT NOT NULL DEFAULT 'info',
    expiry DATE,
    notify BOOLEAN NOT NULL DEFAULT FALSE,
    created TIMESTAMP NOT NULL
);
CREATE INDEX announcements_component_id ON announcements (component_id);
CREATE INDEX announcements_language_id ON announcements (language_id);
CREATE INDEX announcements_project_id ON announcements (project_id);
