DROP INDEX units_pending;
CREATE INDEX units_pending ON units (translation_id) WHERE pending;
