-- Cached component views show their add-ons and what their categories
-- pass down to them, so add-ons and categories move the cache generation.
CREATE CONSTRAINT TRIGGER addons_cache AFTER INSERT OR DELETE ON addons
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_generation();
CREATE CONSTRAINT TRIGGER categories_cache AFTER INSERT OR UPDATE OR DELETE ON categories
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_generation();
