DROP TRIGGER addons_cache ON addons;
DROP TRIGGER categories_cache ON categories;
