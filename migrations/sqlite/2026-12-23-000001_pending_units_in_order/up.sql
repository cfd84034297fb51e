-- The pending units of a translation in file order, straight from the
-- index: what a commit (and every download as stored) reads first, and
-- what the commit scheduler scans across the site, without touching the
-- units written already.
DROP INDEX units_pending;
CREATE INDEX units_pending ON units (translation_id, position) WHERE pending;
