DROP INDEX units_translation_id;
