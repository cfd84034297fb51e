-- A membership limited to some languages (`limit_language_codes`, §3.3):
-- the team's roles reach this member in these languages only.
-- Keep in step with the other database's migration.
CREATE TABLE team_member_languages (
    team_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    language_id BIGINT NOT NULL REFERENCES languages (id) ON DELETE CASCADE,
    PRIMARY KEY (team_id, user_id, language_id),
    FOREIGN KEY (team_id, user_id) REFERENCES team_members (team_id, user_id) ON DELETE CASCADE
);
CREATE INDEX team_member_languages_language_id ON team_member_languages (language_id);
