-- A task whose cancellation was asked (DELETE /api/tasks/{id}/): one
-- still waiting ends at once; a running one is told at its next report
-- and stops where its work allows.
-- Keep in step with the other database's migration.
ALTER TABLE tasks ADD COLUMN cancelled BOOLEAN NOT NULL DEFAULT FALSE;
