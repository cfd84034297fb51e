-- Components shared into other projects (`links/`, §8.2): the component
-- stays in its own project and is listed among the target's links.
-- Keep in step with the other database's migration.
CREATE TABLE component_links (
    component_id BIGINT NOT NULL REFERENCES components (id) ON DELETE CASCADE,
    project_id BIGINT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    PRIMARY KEY (component_id, project_id)
);
CREATE INDEX component_links_project_id ON component_links (project_id);

-- A user subscribes to a notification once per scope, project and component.
CREATE UNIQUE INDEX subscriptions_notification_unique ON subscriptions
    (user_id, notification, scope, COALESCE(project_id, 0), COALESCE(component_id, 0));
