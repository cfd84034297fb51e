DROP INDEX tasks_waiting_key;
ALTER TABLE tasks DROP COLUMN dedup_key;
ALTER TABLE tasks DROP COLUMN failed;
ALTER TABLE tasks DROP COLUMN lease_until;
