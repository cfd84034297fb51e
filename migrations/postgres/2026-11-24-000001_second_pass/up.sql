-- Names, slugs, usernames and e-mails are unique whatever their case, as
-- in Weblate. SQLite's lower() folds ASCII letters only.
CREATE UNIQUE INDEX users_username_ci ON users (lower(username));
CREATE UNIQUE INDEX users_email_ci ON users (lower(email)) WHERE email <> '';
CREATE UNIQUE INDEX projects_name_ci ON projects (lower(name));
CREATE UNIQUE INDEX projects_slug_ci ON projects (lower(slug));

-- Every foreign-key column leads an index, so that deleting the row it
-- points to, and joins on it, never scan the table.
CREATE INDEX projects_secondary_language_id ON projects (secondary_language_id);
CREATE INDEX user_languages_language_id ON user_languages (language_id);
CREATE INDEX watched_projects_project_id ON watched_projects (project_id);
CREATE INDEX categories_parent_id ON categories (parent_id);
CREATE INDEX categories_project_id ON categories (project_id);
CREATE INDEX components_category_id ON components (category_id);
CREATE INDEX components_project_id ON components (project_id);
CREATE INDEX components_source_language_id ON components (source_language_id);
CREATE INDEX translations_plural_id ON translations (plural_id);
CREATE INDEX unit_labels_label_id ON unit_labels (label_id);
CREATE INDEX suggestions_user_id ON suggestions (user_id);
CREATE INDEX comments_user_id ON comments (user_id);
CREATE INDEX screenshots_user_id ON screenshots (user_id);
CREATE INDEX screenshot_units_unit_id ON screenshot_units (unit_id);
CREATE INDEX component_list_components_component_id ON component_list_components (component_id);
CREATE INDEX component_list_rules_component_list_id ON component_list_rules (component_list_id);
CREATE INDEX teams_defining_project_id ON teams (defining_project_id);
CREATE INDEX team_roles_role_id ON team_roles (role_id);
CREATE INDEX team_projects_project_id ON team_projects (project_id);
CREATE INDEX team_languages_language_id ON team_languages (language_id);
CREATE INDEX team_components_component_id ON team_components (component_id);
CREATE INDEX team_component_lists_component_list_id ON team_component_lists (component_list_id);
CREATE INDEX tokens_project_id ON tokens (project_id);
CREATE INDEX subscriptions_component_id ON subscriptions (component_id);
CREATE INDEX subscriptions_project_id ON subscriptions (project_id);
CREATE INDEX announcements_component_id ON announcements (component_id);
CREATE INDEX announcements_language_id ON announcements (language_id);
CREATE INDEX announcements_project_id ON announcements (project_id);
CREATE INDEX memory_project_id ON memory (project_id);
CREATE INDEX memory_target_language_id ON memory (target_language_id);
CREATE INDEX memory_user_id ON memory (user_id);
CREATE INDEX tasks_component_id ON tasks (component_id);
CREATE INDEX tasks_project_id ON tasks (project_id);
CREATE INDEX tasks_translation_id ON tasks (translation_id);
CREATE INDEX tasks_user_id ON tasks (user_id);
CREATE INDEX changes_addon_id ON changes (addon_id);
CREATE INDEX changes_author_id ON changes (author_id);

-- A project's settings live in one JSON document (`settings`), so that a
-- new setting is added in one place (tolk_domain::project) and needs no
-- migration. Only what the database must search, join or keep unique
-- stays in columns: name, slug, access_control, secondary_language_id.
-- Texts are quoted by the database's own JSON quoting (json_quote on
-- SQLite, to_json on PostgreSQL: the only difference between the two files).
ALTER TABLE projects ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
UPDATE projects SET settings =
    '{"web": ' || to_json(web) ||
    ', "instructions": ' || to_json(instructions) ||
    ', "check_flags": ' || to_json(check_flags) ||
    ', "translation_review": ' || CASE WHEN translation_review THEN 'true' ELSE 'false' END ||
    ', "source_review": ' || CASE WHEN source_review THEN 'true' ELSE 'false' END ||
    ', "commit_policy": ' || CAST(commit_policy AS TEXT) ||
    ', "enable_hooks": ' || CASE WHEN enable_hooks THEN 'true' ELSE 'false' END ||
    ', "language_aliases": ' || to_json(language_aliases) ||
    ', "public_sharing": ' || CASE WHEN public_sharing THEN 'true' ELSE 'false' END ||
    ', "use_shared_tm": ' || CASE WHEN use_shared_tm THEN 'true' ELSE 'false' END ||
    ', "contribute_shared_tm": ' || CASE WHEN contribute_shared_tm THEN 'true' ELSE 'false' END ||
    ', "autoclean_tm": ' || CASE WHEN autoclean_tm THEN 'true' ELSE 'false' END ||
    ', "license": ' || to_json(license) ||
    ', "agreement": ' || to_json(agreement) ||
    ', "new_lang": ' || to_json(new_lang) ||
    ', "language_code_style": ' || to_json(language_code_style) ||
    ', "commit_message": ' || to_json(commit_message) ||
    ', "add_message": ' || to_json(add_message) ||
    ', "delete_message": ' || to_json(delete_message) ||
    ', "merge_message": ' || to_json(merge_message) ||
    ', "addon_message": ' || to_json(addon_message) ||
    ', "pull_message": ' || to_json(pull_message) ||
    ', "enforced_2fa": ' || CASE WHEN enforced_2fa THEN 'true' ELSE 'false' END ||
    ', "enforced_checks": ' || enforced_checks || '}';
ALTER TABLE projects DROP COLUMN web;
ALTER TABLE projects DROP COLUMN instructions;
ALTER TABLE projects DROP COLUMN check_flags;
ALTER TABLE projects DROP COLUMN translation_review;
ALTER TABLE projects DROP COLUMN source_review;
ALTER TABLE projects DROP COLUMN commit_policy;
ALTER TABLE projects DROP COLUMN enable_hooks;
ALTER TABLE projects DROP COLUMN language_aliases;
ALTER TABLE projects DROP COLUMN public_sharing;
ALTER TABLE projects DROP COLUMN use_shared_tm;
ALTER TABLE projects DROP COLUMN contribute_shared_tm;
ALTER TABLE projects DROP COLUMN autoclean_tm;
ALTER TABLE projects DROP COLUMN license;
ALTER TABLE projects DROP COLUMN agreement;
ALTER TABLE projects DROP COLUMN new_lang;
ALTER TABLE projects DROP COLUMN language_code_style;
ALTER TABLE projects DROP COLUMN commit_message;
ALTER TABLE projects DROP COLUMN add_message;
ALTER TABLE projects DROP COLUMN delete_message;
ALTER TABLE projects DROP COLUMN merge_message;
ALTER TABLE projects DROP COLUMN addon_message;
ALTER TABLE projects DROP COLUMN pull_message;
ALTER TABLE projects DROP COLUMN enforced_2fa;
ALTER TABLE projects DROP COLUMN enforced_checks;
