-- A number that grows whenever what servers cache may have changed: who
-- a token belongs to and what its teams grant, and the structure that
-- every request reads (projects, components, languages). A server keeps
-- those in memory and reads only this number per request; a change by any
-- instance makes every instance read them again. Bumped by triggers, so
-- no writer can forget it.
-- Each database's own kind of trigger: keep the list of tables in step.
CREATE TABLE cache_generation (
    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
    value BIGINT NOT NULL
);
INSERT INTO cache_generation (id, value) VALUES (1, 0);
CREATE TRIGGER tokens_cache_insert AFTER INSERT ON tokens
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER tokens_cache_update AFTER UPDATE ON tokens
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER tokens_cache_delete AFTER DELETE ON tokens
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER teams_cache_insert AFTER INSERT ON teams
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER teams_cache_update AFTER UPDATE ON teams
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER teams_cache_delete AFTER DELETE ON teams
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER team_members_cache_insert AFTER INSERT ON team_members
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER team_members_cache_update AFTER UPDATE ON team_members
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER team_members_cache_delete AFTER DELETE ON team_members
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER team_member_languages_cache_insert AFTER INSERT ON team_member_languages
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER team_member_languages_cache_update AFTER UPDATE ON team_member_languages
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER team_member_languages_cache_delete AFTER DELETE ON team_member_languages
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER team_roles_cache_insert AFTER INSERT ON team_roles
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER team_roles_cache_update AFTER UPDATE ON team_roles
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER team_roles_cache_delete AFTER DELETE ON team_roles
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER role_permissions_cache_insert AFTER INSERT ON role_permissions
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER role_permissions_cache_update AFTER UPDATE ON role_permissions
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER role_permissions_cache_delete AFTER DELETE ON role_permissions
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER team_projects_cache_insert AFTER INSERT ON team_projects
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER team_projects_cache_update AFTER UPDATE ON team_projects
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER team_projects_cache_delete AFTER DELETE ON team_projects
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER team_components_cache_insert AFTER INSERT ON team_components
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER team_components_cache_update AFTER UPDATE ON team_components
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER team_components_cache_delete AFTER DELETE ON team_components
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER team_languages_cache_insert AFTER INSERT ON team_languages
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER team_languages_cache_update AFTER UPDATE ON team_languages
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER team_languages_cache_delete AFTER DELETE ON team_languages
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER roles_cache_insert AFTER INSERT ON roles
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER roles_cache_update AFTER UPDATE ON roles
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER roles_cache_delete AFTER DELETE ON roles
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER projects_cache_insert AFTER INSERT ON projects
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER projects_cache_update AFTER UPDATE ON projects
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER projects_cache_delete AFTER DELETE ON projects
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER components_cache_insert AFTER INSERT ON components
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER components_cache_update AFTER UPDATE ON components
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER components_cache_delete AFTER DELETE ON components
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER component_links_cache_insert AFTER INSERT ON component_links
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER component_links_cache_update AFTER UPDATE ON component_links
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER component_links_cache_delete AFTER DELETE ON component_links
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER languages_cache_insert AFTER INSERT ON languages
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER languages_cache_update AFTER UPDATE ON languages
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER languages_cache_delete AFTER DELETE ON languages
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER plurals_cache_insert AFTER INSERT ON plurals
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER plurals_cache_update AFTER UPDATE ON plurals
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER plurals_cache_delete AFTER DELETE ON plurals
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER language_aliases_cache_insert AFTER INSERT ON language_aliases
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER language_aliases_cache_update AFTER UPDATE ON language_aliases
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER language_aliases_cache_delete AFTER DELETE ON language_aliases
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER users_cache_insert AFTER INSERT ON users
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER users_cache_delete AFTER DELETE ON users
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER users_cache_update AFTER UPDATE OF is_active, is_superuser ON users
BEGIN UPDATE cache_generation SET value = value + 1; END;
