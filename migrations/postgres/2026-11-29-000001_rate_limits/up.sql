-- The API rate limits' state, shared by every instance on one database:
-- per throttle key, when its capacity is whole again (GCRA's theoretical
-- arrival time), in microseconds since the Unix epoch. Unlogged on
-- PostgreSQL: counting a request writes no WAL and waits for no disk
-- flush, and a crash only forgets recent counts. No index on full_at:
-- updates of a key then stay in place (HOT), and the rare sweep scans a
-- table of recent callers.
-- Keep in step with the other database's migration.
CREATE UNLOGGED TABLE rate_limits (
    key TEXT PRIMARY KEY NOT NULL,
    full_at BIGINT NOT NULL
);
