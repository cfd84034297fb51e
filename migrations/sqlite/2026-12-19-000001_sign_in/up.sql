-- Signing in to the web pages. Keep in step with the other database's
-- migration.

-- A person's sessions: the digest of the key their cookie holds, whose
-- session it is and when it ends. Deleted at sign-out, all of an
-- account's at a password change or deactivation, and once expired.
CREATE TABLE sessions (
    key_hash TEXT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created TIMESTAMP NOT NULL,
    expires TIMESTAMP NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

-- One-time links to choose a password (Tolk sends no mail: an
-- administrator hands them on): the digest of the link's key, the
-- account, when the link stops working. Used once, then deleted.
CREATE TABLE password_links (
    key_hash TEXT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires TIMESTAMP NOT NULL
);
CREATE INDEX password_links_user ON password_links (user_id);

-- Secrets made once for the whole site and shared by every instance on
-- the database (the key that signs the pages' cookies and forms).
CREATE TABLE site_secrets (
    name TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
);
