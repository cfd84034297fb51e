DROP INDEX memory_source;
ALTER TABLE memory DROP COLUMN source_hash;
