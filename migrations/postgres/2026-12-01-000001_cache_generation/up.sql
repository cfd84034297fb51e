-- A number that grows whenever what servers cache may have changed: who
-- a token belongs to and what its teams grant, and the structure that
-- every request reads (projects, components, languages). A server keeps
-- those in memory and reads only this number per request; a change by any
-- instance makes every instance read them again. Bumped by triggers, so
-- no writer can forget it.
-- On PostgreSQL the number is bumped once per transaction, at its commit
-- (deferred): a transaction takes the row's lock last and waits for
-- nothing while holding it, so the bump adds no deadlock.
-- Each database's own kind of trigger: keep the list of tables in step.
CREATE TABLE cache_generation (
    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
    value BIGINT NOT NULL
);
INSERT INTO cache_generation (id, value) VALUES (1, 0);
CREATE FUNCTION bump_cache_generation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('tolk.cache_bumped', true) IS DISTINCT FROM 'yes' THEN
        UPDATE cache_generation SET value = value + 1 WHERE id = 1;
        PERFORM set_config('tolk.cache_bumped', 'yes', true);
    END IF;
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER tokens_cache AFTER INSERT OR UPDATE OR DELETE ON tokens
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_generation();
CREATE CONSTRAINT TRIGGER teams_cache AFTER INSERT OR UPDATE OR DELETE ON teams
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_generation();
CREATE CONSTRAINT TRIGGER team_members_cache AFTER INSERT OR UPDATE OR DELETE ON team_members
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_generation();
CREATE CONSTRAINT TRIGGER team_member_languages_cache AFTER INSERT OR UPDATE OR DELETE ON team_member_languages
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_generation();
CREATE CONSTRAINT TRIGGER team_roles_cache AFTER INSERT OR UPDATE OR DELETE ON team_roles
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_generation();
CREATE CONSTRAINT TRIGGER role_permissions_cache AFTER INSERT OR UPDATE OR DELETE ON role_permissions
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_generation();
CREATE CONSTRAINT TRIGGER team_projects_cache AFTER INSERT OR UPDATE OR DELETE ON team_projects
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_generation();
CREATE CONSTRAINT TRIGGER team_components_cache AFTER INSERT OR UPDATE OR DELETE ON team_components
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_generation();
CREATE CONSTRAINT TRIGGER team_languages_cache AFTER INSERT OR UPDATE OR DELETE ON team_languages
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_generation();
CREATE CONSTRAINT TRIGGER roles_cache AFTER INSERT OR UPDATE OR DELETE ON roles
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_generation();
CREATE CONSTRAINT TRIGGER projects_cache AFTER INSERT OR UPDATE OR DELETE ON projects
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_generation();
CREATE CONSTRAINT TRIGGER components_cache AFTER INSERT OR UPDATE OR DELETE ON components
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_generation();
CREATE CONSTRAINT TRIGGER component_links_cache AFTER INSERT OR UPDATE OR DELETE ON component_links
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_generation();
CREATE CONSTRAINT TRIGGER languages_cache AFTER INSERT OR UPDATE OR DELETE ON languages
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_generation();
CREATE CONSTRAINT TRIGGER plurals_cache AFTER INSERT OR UPDATE OR DELETE ON plurals
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_generation();
CREATE CONSTRAINT TRIGGER language_aliases_cache AFTER INSERT OR UPDATE OR DELETE ON language_aliases
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_generation();
CREATE CONSTRAINT TRIGGER users_cache AFTER INSERT OR DELETE OR UPDATE OF is_active, is_superuser ON users
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_generation();
