-- Units by their string (with their translation, so that a lookup of the
-- same string in the other components of a project, for propagation and
-- the inconsistent check, reads no unit of another language).
CREATE INDEX units_id_hash ON units (id_hash, translation_id);
