-- The API rate limits' state, shared by every instance on one database:
-- per throttle key, when its capacity is whole again (GCRA's theoretical
-- arrival time), in microseconds since the Unix epoch.
-- Keep in step with the other database's migration.
CREATE TABLE rate_limits (
    key TEXT PRIMARY KEY NOT NULL,
    full_at BIGINT NOT NULL
);
CREATE INDEX rate_limits_full_at ON rate_limits (full_at);
