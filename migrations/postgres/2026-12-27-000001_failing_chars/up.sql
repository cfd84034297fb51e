-- The source characters of the strings that fail quality checks, kept
-- beside their number and words (a project's metrics show them), in the
-- translations and in the statistics kept above them; filled here from
-- the strings (a string's characters are its source's).
-- Keep in step with the other database's migration.
ALTER TABLE translations ADD COLUMN failing_chars BIGINT NOT NULL DEFAULT 0;
ALTER TABLE stats_kept ADD COLUMN failing_chars BIGINT NOT NULL DEFAULT 0;
ALTER TABLE stats_pending ADD COLUMN failing_chars BIGINT NOT NULL DEFAULT 0;
UPDATE translations SET failing_chars = COALESCE((
    SELECT CAST(SUM(LENGTH(u.source)) AS BIGINT) FROM units u
    WHERE u.translation_id = translations.id AND u.failing <> ''
), 0)
WHERE failing > 0;
UPDATE stats_kept SET failing_chars = COALESCE((
    SELECT CAST(SUM(t.failing_chars) AS BIGINT) FROM translations t
    WHERE t.component_id = stats_kept.object_id
), 0)
WHERE scope = 1;
UPDATE stats_kept SET failing_chars = COALESCE((
    SELECT CAST(SUM(t.failing_chars) AS BIGINT) FROM translations t
    JOIN components c ON c.id = t.component_id
    WHERE c.project_id = stats_kept.object_id
), 0)
WHERE scope = 2;
UPDATE stats_kept SET failing_chars = COALESCE((
    SELECT CAST(SUM(t.failing_chars) AS BIGINT) FROM translations t
    JOIN components c ON c.id = t.component_id
    WHERE c.project_id = stats_kept.object_id AND t.language_id = stats_kept.language_id
), 0)
WHERE scope = 3;
UPDATE stats_kept SET failing_chars = COALESCE((
    SELECT CAST(SUM(t.failing_chars) AS BIGINT) FROM translations t
    WHERE t.language_id = stats_kept.language_id
), 0)
WHERE scope = 4;
UPDATE stats_kept SET failing_chars = COALESCE((
    SELECT CAST(SUM(t.failing_chars) AS BIGINT) FROM translations t
), 0)
WHERE scope = 5;
