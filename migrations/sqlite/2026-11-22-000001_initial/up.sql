-- Tolk's initial schema: every entity of the translation domain.
-- Timestamps are UTC. JSON documents are stored as TEXT.
-- Keep in step with migrations/postgres (same tables, columns and indexes).

CREATE TABLE languages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    code TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    direction TEXT NOT NULL DEFAULT 'ltr',
    population BIGINT NOT NULL DEFAULT 0
);

CREATE TABLE plurals (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    language_id BIGINT NOT NULL REFERENCES languages (id) ON DELETE CASCADE,
    source INTEGER NOT NULL DEFAULT 0,
    number INTEGER NOT NULL,
    formula TEXT NOT NULL,
    kind INTEGER NOT NULL
);
CREATE INDEX plurals_language ON plurals (language_id, source);

CREATE TABLE language_aliases (
    alias TEXT PRIMARY KEY NOT NULL,
    language_id BIGINT NOT NULL REFERENCES languages (id) ON DELETE CASCADE
);
CREATE INDEX language_aliases_language ON language_aliases (language_id);

CREATE TABLE users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    username TEXT NOT NULL UNIQUE,
    full_name TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    password TEXT,
    is_superuser BOOLEAN NOT NULL DEFAULT FALSE,
    is_active BOOLEAN NOT NULL DEFAULT TRUE,
    is_bot BOOLEAN NOT NULL DEFAULT FALSE,
    date_joined TIMESTAMP NOT NULL,
    date_expires TIMESTAMP,
    last_login TIMESTAMP,
    profile TEXT NOT NULL DEFAULT '{}',
    translated BIGINT NOT NULL DEFAULT 0,
    suggested BIGINT NOT NULL DEFAULT 0,
    uploaded BIGINT NOT NULL DEFAULT 0,
    commented BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX users_email ON users (email);

CREATE TABLE verified_emails (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    PRIMARY KEY (user_id, email)
);

CREATE TABLE projects (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    slug TEXT NOT NULL UNIQUE,
    web TEXT NOT NULL DEFAULT '',
    instructions TEXT NOT NULL DEFAULT '',
    check_flags TEXT NOT NULL DEFAULT '',
    translation_review BOOLEAN NOT NULL DEFAULT FALSE,
    source_review BOOLEAN NOT NULL DEFAULT FALSE,
    commit_policy INTEGER NOT NULL DEFAULT 0,
    enable_hooks BOOLEAN NOT NULL DEFAULT TRUE,
    language_aliases TEXT NOT NULL DEFAULT '',
    access_control INTEGER NOT NULL DEFAULT 0,
    public_sharing BOOLEAN NOT NULL DEFAULT FALSE,
    use_shared_tm BOOLEAN NOT NULL DEFAULT TRUE,
    contribute_shared_tm BOOLEAN NOT NULL DEFAULT TRUE,
    autoclean_tm BOOLEAN NOT NULL DEFAULT FALSE,
    license TEXT NOT NULL DEFAULT '',
    agreement TEXT NOT NULL DEFAULT '',
    new_lang TEXT NOT NULL DEFAULT 'add',
    language_code_style TEXT NOT NULL DEFAULT '',
    secondary_language_id BIGINT REFERENCES languages (id) ON DELETE SET NULL,
    commit_message TEXT NOT NULL,
    add_message TEXT NOT NULL,
    delete_message TEXT NOT NULL,
    merge_message TEXT NOT NULL,
    addon_message TEXT NOT NULL,
    pull_message TEXT NOT NULL,
    enforced_2fa BOOLEAN NOT NULL DEFAULT FALSE,
    enforced_checks TEXT NOT NULL DEFAULT '[]',
    created TIMESTAMP NOT NULL
);
CREATE INDEX projects_access ON projects (access_control);

CREATE TABLE user_languages (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    language_id BIGINT NOT NULL REFERENCES languages (id) ON DELETE CASCADE,
    secondary BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (user_id, language_id)
);

CREATE TABLE watched_projects (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    project_id BIGINT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, project_id)
);

CREATE TABLE categories (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id BIGINT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    parent_id BIGINT REFERENCES categories (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    slug TEXT NOT NULL
);
CREATE UNIQUE INDEX categories_top_slug ON categories (project_id, slug) WHERE parent_id IS NULL;
CREATE UNIQUE INDEX categories_sub_slug ON categories (parent_id, slug) WHERE parent_id IS NOT NULL;

CREATE TABLE components (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id BIGINT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    category_id BIGINT REFERENCES categories (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    slug TEXT NOT NULL,
    vcs TEXT NOT NULL DEFAULT 'git',
    repo TEXT NOT NULL DEFAULT '',
    push TEXT NOT NULL DEFAULT '',
    branch TEXT NOT NULL DEFAULT '',
    push_branch TEXT NOT NULL DEFAULT '',
    filemask TEXT NOT NULL,
    template TEXT NOT NULL DEFAULT '',
    new_base TEXT NOT NULL DEFAULT '',
    intermediate TEXT NOT NULL DEFAULT '',
    file_format TEXT NOT NULL,
    file_format_params TEXT NOT NULL DEFAULT '{}',
    source_language_id BIGINT NOT NULL REFERENCES languages (id),
    linked_component_id BIGINT REFERENCES components (id) ON DELETE CASCADE,
    license TEXT NOT NULL DEFAULT '',
    priority INTEGER NOT NULL DEFAULT 100,
    locked BOOLEAN NOT NULL DEFAULT FALSE,
    restricted BOOLEAN NOT NULL DEFAULT FALSE,
    is_glossary BOOLEAN NOT NULL DEFAULT FALSE,
    settings TEXT NOT NULL DEFAULT '{}',
    created TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX components_top_slug ON components (project_id, slug) WHERE category_id IS NULL;
CREATE UNIQUE INDEX components_cat_slug ON components (category_id, slug) WHERE category_id IS NOT NULL;
CREATE INDEX components_linked ON components (linked_component_id);

CREATE TABLE translations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    component_id BIGINT NOT NULL REFERENCES components (id) ON DELETE CASCADE,
    language_id BIGINT NOT NULL REFERENCES languages (id),
    plural_id BIGINT NOT NULL REFERENCES plurals (id),
    language_code TEXT NOT NULL DEFAULT '',
    filename TEXT NOT NULL DEFAULT '',
    revision TEXT NOT NULL DEFAULT '',
    total BIGINT NOT NULL DEFAULT 0,
    total_words BIGINT NOT NULL DEFAULT 0,
    total_chars BIGINT NOT NULL DEFAULT 0,
    translated BIGINT NOT NULL DEFAULT 0,
    translated_words BIGINT NOT NULL DEFAULT 0,
    translated_chars BIGINT NOT NULL DEFAULT 0,
    fuzzy BIGINT NOT NULL DEFAULT 0,
    fuzzy_words BIGINT NOT NULL DEFAULT 0,
    fuzzy_chars BIGINT NOT NULL DEFAULT 0,
    approved BIGINT NOT NULL DEFAULT 0,
    approved_words BIGINT NOT NULL DEFAULT 0,
    approved_chars BIGINT NOT NULL DEFAULT 0,
    readonly BIGINT NOT NULL DEFAULT 0,
    readonly_words BIGINT NOT NULL DEFAULT 0,
    readonly_chars BIGINT NOT NULL DEFAULT 0,
    failing BIGINT NOT NULL DEFAULT 0,
    suggestions BIGINT NOT NULL DEFAULT 0,
    comments BIGINT NOT NULL DEFAULT 0,
    last_change TIMESTAMP,
    UNIQUE (component_id, language_id)
);
CREATE INDEX translations_language ON translations (language_id);

CREATE TABLE units (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    translation_id BIGINT NOT NULL REFERENCES translations (id) ON DELETE CASCADE,
    source_unit_id BIGINT REFERENCES units (id) ON DELETE CASCADE,
    id_hash BIGINT NOT NULL,
    position INTEGER NOT NULL DEFAULT 0,
    context TEXT NOT NULL DEFAULT '',
    source TEXT NOT NULL DEFAULT '',
    previous_source TEXT NOT NULL DEFAULT '',
    target TEXT NOT NULL DEFAULT '',
    state INTEGER NOT NULL DEFAULT 0,
    original_state INTEGER NOT NULL DEFAULT 0,
    note TEXT NOT NULL DEFAULT '',
    location TEXT NOT NULL DEFAULT '',
    flags TEXT NOT NULL DEFAULT '',
    extra_flags TEXT NOT NULL DEFAULT '',
    explanation TEXT NOT NULL DEFAULT '',
    num_words INTEGER NOT NULL DEFAULT 0,
    priority INTEGER NOT NULL DEFAULT 100,
    pending BOOLEAN NOT NULL DEFAULT FALSE,
    created TIMESTAMP NOT NULL,
    last_updated TIMESTAMP NOT NULL,
    UNIQUE (translation_id, id_hash)
);
CREATE INDEX units_position ON units (translation_id, position);
CREATE INDEX units_source_unit ON units (source_unit_id);
CREATE INDEX units_pending ON units (translation_id) WHERE pending;

CREATE TABLE labels (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id BIGINT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    color TEXT NOT NULL DEFAULT 'silver',
    UNIQUE (project_id, name)
);

CREATE TABLE unit_labels (
    unit_id BIGINT NOT NULL REFERENCES units (id) ON DELETE CASCADE,
    label_id BIGINT NOT NULL REFERENCES labels (id) ON DELETE CASCADE,
    PRIMARY KEY (unit_id, label_id)
);

CREATE TABLE suggestions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    unit_id BIGINT NOT NULL REFERENCES units (id) ON DELETE CASCADE,
    user_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    target TEXT NOT NULL,
    created TIMESTAMP NOT NULL
);
CREATE INDEX suggestions_unit ON suggestions (unit_id);

CREATE TABLE comments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    unit_id BIGINT NOT NULL REFERENCES units (id) ON DELETE CASCADE,
    user_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    comment TEXT NOT NULL,
    resolved BOOLEAN NOT NULL DEFAULT FALSE,
    created TIMESTAMP NOT NULL
);
CREATE INDEX comments_unit ON comments (unit_id);

CREATE TABLE checks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    unit_id BIGINT NOT NULL REFERENCES units (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    dismissed BOOLEAN NOT NULL DEFAULT FALSE,
    UNIQUE (unit_id, name)
);

CREATE TABLE screenshots (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    translation_id BIGINT NOT NULL REFERENCES translations (id) ON DELETE CASCADE,
    user_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    name TEXT NOT NULL,
    repository_filename TEXT NOT NULL DEFAULT '',
    image_path TEXT NOT NULL DEFAULT '',
    created TIMESTAMP NOT NULL
);
CREATE INDEX screenshots_translation ON screenshots (translation_id);

CREATE TABLE screenshot_units (
    screenshot_id BIGINT NOT NULL REFERENCES screenshots (id) ON DELETE CASCADE,
    unit_id BIGINT NOT NULL REFERENCES units (id) ON DELETE CASCADE,
    PRIMARY KEY (screenshot_id, unit_id)
);

CREATE TABLE addons (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    project_id BIGINT REFERENCES projects (id) ON DELETE CASCADE,
    component_id BIGINT REFERENCES components (id) ON DELETE CASCADE,
    configuration TEXT NOT NULL DEFAULT '{}',
    created TIMESTAMP NOT NULL
);
CREATE INDEX addons_project ON addons (project_id);
CREATE INDEX addons_component ON addons (component_id);

CREATE TABLE component_lists (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    slug TEXT NOT NULL UNIQUE,
    show_dashboard BOOLEAN NOT NULL DEFAULT TRUE
);

CREATE TABLE component_list_components (
    component_list_id BIGINT NOT NULL REFERENCES component_lists (id) ON DELETE CASCADE,
    component_id BIGINT NOT NULL REFERENCES components (id) ON DELETE CASCADE,
    PRIMARY KEY (component_list_id, component_id)
);

CREATE TABLE component_list_rules (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    component_list_id BIGINT NOT NULL REFERENCES component_lists (id) ON DELETE CASCADE,
    project_match TEXT NOT NULL,
    component_match TEXT NOT NULL
);

CREATE TABLE roles (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE
);

CREATE TABLE role_permissions (
    role_id BIGINT NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
    codename TEXT NOT NULL,
    PRIMARY KEY (role_id, codename)
);

CREATE TABLE teams (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    defining_project_id BIGINT REFERENCES projects (id) ON DELETE CASCADE,
    project_selection INTEGER NOT NULL DEFAULT 0,
    language_selection INTEGER NOT NULL DEFAULT 0,
    enforced_2fa BOOLEAN NOT NULL DEFAULT FALSE,
    internal BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE UNIQUE INDEX teams_site_name ON teams (name) WHERE defining_project_id IS NULL;
CREATE UNIQUE INDEX teams_project_name ON teams (defining_project_id, name) WHERE defining_project_id IS NOT NULL;

CREATE TABLE team_roles (
    team_id BIGINT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    role_id BIGINT NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
    PRIMARY KEY (team_id, role_id)
);

CREATE TABLE team_members (
    team_id BIGINT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    is_admin BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (team_id, user_id)
);
CREATE INDEX team_members_user ON team_members (user_id);

CREATE TABLE team_projects (
    team_id BIGINT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    project_id BIGINT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    PRIMARY KEY (team_id, project_id)
);

CREATE TABLE team_languages (
    team_id BIGINT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    language_id BIGINT NOT NULL REFERENCES languages (id) ON DELETE CASCADE,
    PRIMARY KEY (team_id, language_id)
);

CREATE TABLE team_components (
    team_id BIGINT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    component_id BIGINT NOT NULL REFERENCES components (id) ON DELETE CASCADE,
    PRIMARY KEY (team_id, component_id)
);

CREATE TABLE team_component_lists (
    team_id BIGINT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    component_list_id BIGINT NOT NULL REFERENCES component_lists (id) ON DELETE CASCADE,
    PRIMARY KEY (team_id, component_list_id)
);

CREATE TABLE tokens (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    project_id BIGINT REFERENCES projects (id) ON DELETE CASCADE,
    key_hash TEXT NOT NULL UNIQUE,
    created TIMESTAMP NOT NULL,
    expires TIMESTAMP
);
CREATE INDEX tokens_user ON tokens (user_id);

CREATE TABLE subscriptions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    notification TEXT NOT NULL,
    scope INTEGER NOT NULL,
    frequency INTEGER NOT NULL,
    project_id BIGINT REFERENCES projects (id) ON DELETE CASCADE,
    component_id BIGINT REFERENCES components (id) ON DELETE CASCADE
);
CREATE INDEX subscriptions_user ON subscriptions (user_id);

CREATE TABLE announcements (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id BIGINT REFERENCES projects (id) ON DELETE CASCADE,
    component_id BIGINT REFERENCES components (id) ON DELETE CASCADE,
    language_id BIGINT REFERENCES languages (id) ON DELETE CASCADE,
    message TEXT NOT NULL,
    severity TEXT NOT NULL DEFAULT 'info',
    expiry DATE,
    notify BOOLEAN NOT NULL DEFAULT FALSE,
    created TIMESTAMP NOT NULL
);

CREATE TABLE memory (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    source_language_id BIGINT NOT NULL REFERENCES languages (id) ON DELETE CASCADE,
    target_language_id BIGINT NOT NULL REFERENCES languages (id) ON DELETE CASCADE,
    source TEXT NOT NULL,
    target TEXT NOT NULL,
    origin TEXT NOT NULL DEFAULT '',
    project_id BIGINT REFERENCES projects (id) ON DELETE CASCADE,
    user_id BIGINT REFERENCES users (id) ON DELETE CASCADE,
    from_file BOOLEAN NOT NULL DEFAULT FALSE,
    shared BOOLEAN NOT NULL DEFAULT FALSE,
    created TIMESTAMP NOT NULL
);
CREATE INDEX memory_languages ON memory (source_language_id, target_language_id);

CREATE TABLE tasks (
    id TEXT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL,
    queue TEXT NOT NULL DEFAULT 'celery',
    user_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    project_id BIGINT REFERENCES projects (id) ON DELETE CASCADE,
    component_id BIGINT REFERENCES components (id) ON DELETE CASCADE,
    translation_id BIGINT REFERENCES translations (id) ON DELETE CASCADE,
    arguments TEXT NOT NULL DEFAULT '{}',
    completed BOOLEAN NOT NULL DEFAULT FALSE,
    progress INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    log TEXT NOT NULL DEFAULT '',
    created TIMESTAMP NOT NULL,
    updated TIMESTAMP NOT NULL
);
CREATE INDEX tasks_pending ON tasks (queue, created) WHERE NOT completed;

CREATE TABLE changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    action INTEGER NOT NULL,
    created TIMESTAMP NOT NULL,
    user_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    author_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    project_id BIGINT REFERENCES projects (id) ON DELETE SET NULL,
    component_id BIGINT REFERENCES components (id) ON DELETE SET NULL,
    translation_id BIGINT REFERENCES translations (id) ON DELETE SET NULL,
    unit_id BIGINT REFERENCES units (id) ON DELETE SET NULL,
    language_id BIGINT REFERENCES languages (id) ON DELETE SET NULL,
    addon_id BIGINT REFERENCES addons (id) ON DELETE SET NULL,
    target TEXT NOT NULL DEFAULT '',
    old TEXT NOT NULL DEFAULT '',
    details TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX changes_created ON changes (created, id);
CREATE INDEX changes_project ON changes (project_id, created);
CREATE INDEX changes_component ON changes (component_id, created);
CREATE INDEX changes_translation ON changes (translation_id, created);
CREATE INDEX changes_language ON changes (language_id, created);
CREATE INDEX changes_user ON changes (user_id, created);
CREATE INDEX changes_unit ON changes (unit_id);
