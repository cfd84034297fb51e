DROP INDEX memory_digest;
ALTER TABLE memory DROP COLUMN digest;
