-- Content changes counted per minute for each project, language and
-- translation (kind 1, 2 and 3), so that "recent changes" (the six hours
-- before the last change) add up at most 360 rows instead of counting
-- every change of those hours. Kept by the writer of changes; filled here
-- from the history already recorded. The action codes are the content
-- actions of tolk_domain::change at the time of this migration.
-- Keep in step with the other database's migration.
CREATE TABLE change_minutes (
    kind SMALLINT NOT NULL,
    scope_id BIGINT NOT NULL,
    minute TIMESTAMP NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (kind, scope_id, minute)
);
INSERT INTO change_minutes (kind, scope_id, minute, n)
SELECT 1, project_id, strftime('%Y-%m-%d %H:%M:00', created), COUNT(*) FROM changes
WHERE project_id IS NOT NULL
  AND action IN (2, 5, 6, 7, 8, 9, 27, 30, 31, 32, 36, 37, 66, 76, 77, 79, 94)
GROUP BY 1, 2, 3;
INSERT INTO change_minutes (kind, scope_id, minute, n)
SELECT 2, language_id, strftime('%Y-%m-%d %H:%M:00', created), COUNT(*) FROM changes
WHERE language_id IS NOT NULL
  AND action IN (2, 5, 6, 7, 8, 9, 27, 30, 31, 32, 36, 37, 66, 76, 77, 79, 94)
GROUP BY 1, 2, 3;
INSERT INTO change_minutes (kind, scope_id, minute, n)
SELECT 3, translation_id, strftime('%Y-%m-%d %H:%M:00', created), COUNT(*) FROM changes
WHERE translation_id IS NOT NULL
  AND action IN (2, 5, 6, 7, 8, 9, 27, 30, 31, 32, 36, 37, 66, 76, 77, 79, 94)
GROUP BY 1, 2, 3;
