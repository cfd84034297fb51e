-- Statistics kept above translations, so that no read sums translations:
-- one row per component, project, project and language, language, and
-- the site (scope 1 to 5; `object_id` is the component or project, 0
-- where the scope has none; `language_id` 0 where it has none), with
-- the number of translations summed (a row of none is no object's).
-- A change of a translation's counters does not touch these rows: the
-- same transaction adds its difference to `stats_pending` (rows only
-- inserted, so no edit waits for another's row), and a background step
-- folds pending rows into the kept ones. A read adds the kept row and
-- the pending rows of its object in one statement.
-- Filled here from the translations' counters.
-- Keep in step with the other database's migration.
CREATE TABLE stats_kept (
    scope SMALLINT NOT NULL,
    object_id BIGINT NOT NULL,
    language_id BIGINT NOT NULL,
    translations BIGINT NOT NULL,
    total BIGINT NOT NULL,
    total_words BIGINT NOT NULL,
    total_chars BIGINT NOT NULL,
    translated BIGINT NOT NULL,
    translated_words BIGINT NOT NULL,
    translated_chars BIGINT NOT NULL,
    fuzzy BIGINT NOT NULL,
    fuzzy_words BIGINT NOT NULL,
    fuzzy_chars BIGINT NOT NULL,
    approved BIGINT NOT NULL,
    approved_words BIGINT NOT NULL,
    approved_chars BIGINT NOT NULL,
    readonly BIGINT NOT NULL,
    readonly_words BIGINT NOT NULL,
    readonly_chars BIGINT NOT NULL,
    failing BIGINT NOT NULL,
    failing_words BIGINT NOT NULL,
    suggestions BIGINT NOT NULL,
    comments BIGINT NOT NULL,
    last_change TIMESTAMP,
    PRIMARY KEY (scope, object_id, language_id)
);
CREATE TABLE stats_pending (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    component_id BIGINT NOT NULL,
    project_id BIGINT NOT NULL,
    language_id BIGINT NOT NULL,
    translations BIGINT NOT NULL,
    total BIGINT NOT NULL,
    total_words BIGINT NOT NULL,
    total_chars BIGINT NOT NULL,
    translated BIGINT NOT NULL,
    translated_words BIGINT NOT NULL,
    translated_chars BIGINT NOT NULL,
    fuzzy BIGINT NOT NULL,
    fuzzy_words BIGINT NOT NULL,
    fuzzy_chars BIGINT NOT NULL,
    approved BIGINT NOT NULL,
    approved_words BIGINT NOT NULL,
    approved_chars BIGINT NOT NULL,
    readonly BIGINT NOT NULL,
    readonly_words BIGINT NOT NULL,
    readonly_chars BIGINT NOT NULL,
    failing BIGINT NOT NULL,
    failing_words BIGINT NOT NULL,
    suggestions BIGINT NOT NULL,
    comments BIGINT NOT NULL,
    last_change TIMESTAMP
);
CREATE INDEX stats_pending_component ON stats_pending (component_id);
CREATE INDEX stats_pending_project ON stats_pending (project_id, language_id);
CREATE INDEX stats_pending_language ON stats_pending (language_id);
INSERT INTO stats_kept (scope, object_id, language_id, translations, total, total_words, total_chars, translated, translated_words, translated_chars, fuzzy, fuzzy_words, fuzzy_chars, approved, approved_words, approved_chars, readonly, readonly_words, readonly_chars, failing, failing_words, suggestions, comments, last_change)
SELECT 1, t.component_id, 0, COUNT(*), CAST(SUM(t.total) AS BIGINT), CAST(SUM(t.total_words) AS BIGINT), CAST(SUM(t.total_chars) AS BIGINT), CAST(SUM(t.translated) AS BIGINT), CAST(SUM(t.translated_words) AS BIGINT), CAST(SUM(t.translated_chars) AS BIGINT), CAST(SUM(t.fuzzy) AS BIGINT), CAST(SUM(t.fuzzy_words) AS BIGINT), CAST(SUM(t.fuzzy_chars) AS BIGINT), CAST(SUM(t.approved) AS BIGINT), CAST(SUM(t.approved_words) AS BIGINT), CAST(SUM(t.approved_chars) AS BIGINT), CAST(SUM(t.readonly) AS BIGINT), CAST(SUM(t.readonly_words) AS BIGINT), CAST(SUM(t.readonly_chars) AS BIGINT), CAST(SUM(t.failing) AS BIGINT), CAST(SUM(t.failing_words) AS BIGINT), CAST(SUM(t.suggestions) AS BIGINT), CAST(SUM(t.comments) AS BIGINT), MAX(t.last_change)
FROM translations t GROUP BY t.component_id;
INSERT INTO stats_kept (scope, object_id, language_id, translations, total, total_words, total_chars, translated, translated_words, translated_chars, fuzzy, fuzzy_words, fuzzy_chars, approved, approved_words, approved_chars, readonly, readonly_words, readonly_chars, failing, failing_words, suggestions, comments, last_change)
SELECT 2, c.project_id, 0, COUNT(*), CAST(SUM(t.total) AS BIGINT), CAST(SUM(t.total_words) AS BIGINT), CAST(SUM(t.total_chars) AS BIGINT), CAST(SUM(t.translated) AS BIGINT), CAST(SUM(t.translated_words) AS BIGINT), CAST(SUM(t.translated_chars) AS BIGINT), CAST(SUM(t.fuzzy) AS BIGINT), CAST(SUM(t.fuzzy_words) AS BIGINT), CAST(SUM(t.fuzzy_chars) AS BIGINT), CAST(SUM(t.approved) AS BIGINT), CAST(SUM(t.approved_words) AS BIGINT), CAST(SUM(t.approved_chars) AS BIGINT), CAST(SUM(t.readonly) AS BIGINT), CAST(SUM(t.readonly_words) AS BIGINT), CAST(SUM(t.readonly_chars) AS BIGINT), CAST(SUM(t.failing) AS BIGINT), CAST(SUM(t.failing_words) AS BIGINT), CAST(SUM(t.suggestions) AS BIGINT), CAST(SUM(t.comments) AS BIGINT), MAX(t.last_change)
FROM translations t JOIN components c ON c.id = t.component_id GROUP BY c.project_id;
INSERT INTO stats_kept (scope, object_id, language_id, translations, total, total_words, total_chars, translated, translated_words, translated_chars, fuzzy, fuzzy_words, fuzzy_chars, approved, approved_words, approved_chars, readonly, readonly_words, readonly_chars, failing, failing_words, suggestions, comments, last_change)
SELECT 3, c.project_id, t.language_id, COUNT(*), CAST(SUM(t.total) AS BIGINT), CAST(SUM(t.total_words) AS BIGINT), CAST(SUM(t.total_chars) AS BIGINT), CAST(SUM(t.translated) AS BIGINT), CAST(SUM(t.translated_words) AS BIGINT), CAST(SUM(t.translated_chars) AS BIGINT), CAST(SUM(t.fuzzy) AS BIGINT), CAST(SUM(t.fuzzy_words) AS BIGINT), CAST(SUM(t.fuzzy_chars) AS BIGINT), CAST(SUM(t.approved) AS BIGINT), CAST(SUM(t.approved_words) AS BIGINT), CAST(SUM(t.approved_chars) AS BIGINT), CAST(SUM(t.readonly) AS BIGINT), CAST(SUM(t.readonly_words) AS BIGINT), CAST(SUM(t.readonly_chars) AS BIGINT), CAST(SUM(t.failing) AS BIGINT), CAST(SUM(t.failing_words) AS BIGINT), CAST(SUM(t.suggestions) AS BIGINT), CAST(SUM(t.comments) AS BIGINT), MAX(t.last_change)
FROM translations t JOIN components c ON c.id = t.component_id GROUP BY c.project_id, t.language_id;
INSERT INTO stats_kept (scope, object_id, language_id, translations, total, total_words, total_chars, translated, translated_words, translated_chars, fuzzy, fuzzy_words, fuzzy_chars, approved, approved_words, approved_chars, readonly, readonly_words, readonly_chars, failing, failing_words, suggestions, comments, last_change)
SELECT 4, 0, t.language_id, COUNT(*), CAST(SUM(t.total) AS BIGINT), CAST(SUM(t.total_words) AS BIGINT), CAST(SUM(t.total_chars) AS BIGINT), CAST(SUM(t.translated) AS BIGINT), CAST(SUM(t.translated_words) AS BIGINT), CAST(SUM(t.translated_chars) AS BIGINT), CAST(SUM(t.fuzzy) AS BIGINT), CAST(SUM(t.fuzzy_words) AS BIGINT), CAST(SUM(t.fuzzy_chars) AS BIGINT), CAST(SUM(t.approved) AS BIGINT), CAST(SUM(t.approved_words) AS BIGINT), CAST(SUM(t.approved_chars) AS BIGINT), CAST(SUM(t.readonly) AS BIGINT), CAST(SUM(t.readonly_words) AS BIGINT), CAST(SUM(t.readonly_chars) AS BIGINT), CAST(SUM(t.failing) AS BIGINT), CAST(SUM(t.failing_words) AS BIGINT), CAST(SUM(t.suggestions) AS BIGINT), CAST(SUM(t.comments) AS BIGINT), MAX(t.last_change)
FROM translations t GROUP BY t.language_id;
INSERT INTO stats_kept (scope, object_id, language_id, translations, total, total_words, total_chars, translated, translated_words, translated_chars, fuzzy, fuzzy_words, fuzzy_chars, approved, approved_words, approved_chars, readonly, readonly_words, readonly_chars, failing, failing_words, suggestions, comments, last_change)
SELECT 5, 0, 0, COUNT(*), CAST(SUM(t.total) AS BIGINT), CAST(SUM(t.total_words) AS BIGINT), CAST(SUM(t.total_chars) AS BIGINT), CAST(SUM(t.translated) AS BIGINT), CAST(SUM(t.translated_words) AS BIGINT), CAST(SUM(t.translated_chars) AS BIGINT), CAST(SUM(t.fuzzy) AS BIGINT), CAST(SUM(t.fuzzy_words) AS BIGINT), CAST(SUM(t.fuzzy_chars) AS BIGINT), CAST(SUM(t.approved) AS BIGINT), CAST(SUM(t.approved_words) AS BIGINT), CAST(SUM(t.approved_chars) AS BIGINT), CAST(SUM(t.readonly) AS BIGINT), CAST(SUM(t.readonly_words) AS BIGINT), CAST(SUM(t.readonly_chars) AS BIGINT), CAST(SUM(t.failing) AS BIGINT), CAST(SUM(t.failing_words) AS BIGINT), CAST(SUM(t.suggestions) AS BIGINT), CAST(SUM(t.comments) AS BIGINT), MAX(t.last_change)
FROM translations t HAVING COUNT(*) > 0;
