-- Teams grant through component lists: what a list holds and which teams
-- list it change what callers may do, so both move the cache generation.
CREATE CONSTRAINT TRIGGER team_component_lists_cache AFTER INSERT OR UPDATE OR DELETE ON team_component_lists
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_generation();
CREATE CONSTRAINT TRIGGER component_list_components_cache AFTER INSERT OR UPDATE OR DELETE ON component_list_components
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_generation();
