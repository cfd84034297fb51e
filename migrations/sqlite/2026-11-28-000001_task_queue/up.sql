-- A task queue that recovers: a claim is a lease that the running worker
-- renews (lease_until); a task that failed for good is completed and
-- failed; tasks that do the same work (a pull of one component) share a
-- dedup_key, and at most one of them waits unclaimed.
-- Keep in step with the other database's migration.
ALTER TABLE tasks ADD COLUMN lease_until TIMESTAMP;
ALTER TABLE tasks ADD COLUMN failed BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE tasks ADD COLUMN dedup_key TEXT;
UPDATE tasks SET lease_until = claimed_at WHERE claimed_at IS NOT NULL;
CREATE UNIQUE INDEX tasks_waiting_key ON tasks (dedup_key) WHERE NOT completed AND attempts = 0;
