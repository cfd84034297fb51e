-- One vote (+1 or -1) per user and suggestion; a suggestion's votes are
-- their sum.
-- Keep in step with the other database's migration.
CREATE TABLE suggestion_votes (
    suggestion_id BIGINT NOT NULL REFERENCES suggestions (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    value INTEGER NOT NULL,
    PRIMARY KEY (suggestion_id, user_id)
);
CREATE INDEX suggestion_votes_user ON suggestion_votes (user_id);
