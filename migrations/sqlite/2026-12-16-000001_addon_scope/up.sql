-- An add-on is installed once per component or project: the index makes
-- a second installation of the same add-on in one place fail, however
-- two requests race. A component's add-ons name no project (the
-- component's own project applies), a project's no component.
CREATE UNIQUE INDEX addons_scope ON addons (name, COALESCE(project_id, 0), COALESCE(component_id, 0));
