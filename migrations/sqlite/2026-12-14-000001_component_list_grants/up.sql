-- Teams grant through component lists: what a list holds and which teams
-- list it change what callers may do, so both move the cache generation.
CREATE TRIGGER team_component_lists_cache_insert AFTER INSERT ON team_component_lists
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER team_component_lists_cache_update AFTER UPDATE ON team_component_lists
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER team_component_lists_cache_delete AFTER DELETE ON team_component_lists
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER component_list_components_cache_insert AFTER INSERT ON component_list_components
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER component_list_components_cache_update AFTER UPDATE ON component_list_components
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER component_list_components_cache_delete AFTER DELETE ON component_list_components
BEGIN UPDATE cache_generation SET value = value + 1; END;
