CREATE INDEX memory_languages ON memory (source_language_id, target_language_id);
