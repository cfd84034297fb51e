DROP TRIGGER addons_cache_insert;
DROP TRIGGER addons_cache_delete;
DROP TRIGGER categories_cache_insert;
DROP TRIGGER categories_cache_update;
DROP TRIGGER categories_cache_delete;
