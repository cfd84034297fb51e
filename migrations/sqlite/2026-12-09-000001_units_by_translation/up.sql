-- Unit lists read a translation's units in id order, a page at a time:
-- this index hands them over in that order, so a deep page skips index
-- entries instead of sorting every unit of the translation.
-- Keep in step with the other database's migration.
CREATE INDEX units_translation_id ON units (translation_id, id);
