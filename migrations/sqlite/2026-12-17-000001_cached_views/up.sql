-- Cached component views show their add-ons and what their categories
-- pass down to them, so add-ons and categories move the cache generation.
CREATE TRIGGER addons_cache_insert AFTER INSERT ON addons
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER addons_cache_delete AFTER DELETE ON addons
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER categories_cache_insert AFTER INSERT ON categories
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER categories_cache_update AFTER UPDATE ON categories
BEGIN UPDATE cache_generation SET value = value + 1; END;
CREATE TRIGGER categories_cache_delete AFTER DELETE ON categories
BEGIN UPDATE cache_generation SET value = value + 1; END;
