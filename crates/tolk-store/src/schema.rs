//! Diesel's view of the tables in `migrations/` that the code queries.

diesel::table! {
    languages (id) {
        id -> BigInt,
        code -> Text,
        name -> Text,
        direction -> Text,
        population -> BigInt,
    }
}

diesel::table! {
    plurals (id) {
        id -> BigInt,
        language_id -> BigInt,
        source -> Integer,
        number -> Integer,
        formula -> Text,
        kind -> Integer,
    }
}

diesel::table! {
    language_aliases (alias) {
        alias -> Text,
        language_id -> BigInt,
    }
}

diesel::table! {
    users (id) {
        id -> BigInt,
        username -> Text,
        full_name -> Text,
        email -> Text,
        password -> Nullable<Text>,
        is_superuser -> Bool,
        is_active -> Bool,
        is_bot -> Bool,
        date_joined -> Timestamp,
        date_expires -> Nullable<Timestamp>,
        last_login -> Nullable<Timestamp>,
        profile -> Text,
        translated -> BigInt,
        suggested -> BigInt,
        uploaded -> BigInt,
        commented -> BigInt,
    }
}

diesel::table! {
    verified_emails (user_id, email) {
        user_id -> BigInt,
        email -> Text,
    }
}

diesel::table! {
    user_languages (user_id, language_id) {
        user_id -> BigInt,
        language_id -> BigInt,
        secondary -> Bool,
    }
}

diesel::table! {
    watched_projects (user_id, project_id) {
        user_id -> BigInt,
        project_id -> BigInt,
    }
}

diesel::table! {
    projects (id) {
        id -> BigInt,
        name -> Text,
        slug -> Text,
        access_control -> Integer,
        secondary_language_id -> Nullable<BigInt>,
        created -> Timestamp,
        settings -> Text,
        workflows -> Text,
    }
}

diesel::table! {
    categories (id) {
        id -> BigInt,
        project_id -> BigInt,
        parent_id -> Nullable<BigInt>,
        name -> Text,
        slug -> Text,
        settings -> Text,
        path -> Text,
    }
}

diesel::table! {
    components (id) {
        id -> BigInt,
        project_id -> BigInt,
        category_id -> Nullable<BigInt>,
        name -> Text,
        slug -> Text,
        vcs -> Text,
        repo -> Text,
        branch -> Text,
        source_language_id -> BigInt,
        linked_component_id -> Nullable<BigInt>,
        locked -> Bool,
        restricted -> Bool,
        settings -> Text,
        created -> Timestamp,
        task_id -> Nullable<Text>,
        path -> Text,
    }
}

diesel::table! {
    component_links (component_id, project_id) {
        component_id -> BigInt,
        project_id -> BigInt,
    }
}

diesel::table! {
    translations (id) {
        id -> BigInt,
        component_id -> BigInt,
        language_id -> BigInt,
        plural_id -> BigInt,
        language_code -> Text,
        filename -> Text,
        revision -> Text,
        total -> BigInt,
        total_words -> BigInt,
        total_chars -> BigInt,
        translated -> BigInt,
        translated_words -> BigInt,
        translated_chars -> BigInt,
        fuzzy -> BigInt,
        fuzzy_words -> BigInt,
        fuzzy_chars -> BigInt,
        approved -> BigInt,
        approved_words -> BigInt,
        approved_chars -> BigInt,
        readonly -> BigInt,
        readonly_words -> BigInt,
        readonly_chars -> BigInt,
        failing -> BigInt,
        suggestions -> BigInt,
        comments -> BigInt,
        last_change -> Nullable<Timestamp>,
        failing_words -> BigInt,
        failing_chars -> BigInt,
    }
}

diesel::table! {
    suggestion_votes (suggestion_id, user_id) {
        suggestion_id -> BigInt,
        user_id -> BigInt,
        value -> Integer,
    }
}

diesel::table! {
    memory (id) {
        id -> BigInt,
        source_language_id -> BigInt,
        target_language_id -> BigInt,
        source -> Text,
        target -> Text,
        origin -> Text,
        project_id -> Nullable<BigInt>,
        user_id -> Nullable<BigInt>,
        from_file -> Bool,
        shared -> Bool,
        created -> Timestamp,
        source_hash -> BigInt,
        digest -> Nullable<BigInt>,
    }
}

diesel::table! {
    unit_removals (id) {
        id -> BigInt,
        translation_id -> BigInt,
        id_hash -> BigInt,
        context -> Text,
        source -> Text,
        created -> Timestamp,
    }
}

diesel::table! {
    units (id) {
        id -> BigInt,
        translation_id -> BigInt,
        source_unit_id -> Nullable<BigInt>,
        id_hash -> BigInt,
        position -> Integer,
        context -> Text,
        source -> Text,
        previous_source -> Text,
        target -> Text,
        state -> Integer,
        original_state -> Integer,
        note -> Text,
        location -> Text,
        flags -> Text,
        extra_flags -> Text,
        explanation -> Text,
        num_words -> Integer,
        priority -> Integer,
        pending -> Bool,
        created -> Timestamp,
        last_updated -> Timestamp,
        added -> Bool,
        failing -> Text,
        dismissed -> Text,
    }
}

diesel::table! {
    tasks (id) {
        id -> Text,
        kind -> Text,
        payload -> Text,
        priority -> Integer,
        attempts -> Integer,
        run_after -> Timestamp,
        claimed_by -> Nullable<Text>,
        claimed_at -> Nullable<Timestamp>,
        user_id -> Nullable<BigInt>,
        project_id -> Nullable<BigInt>,
        component_id -> Nullable<BigInt>,
        completed -> Bool,
        progress -> Integer,
        result -> Nullable<Text>,
        log -> Text,
        created -> Timestamp,
        updated -> Timestamp,
        lease_until -> Nullable<Timestamp>,
        failed -> Bool,
        dedup_key -> Nullable<Text>,
        cancelled -> Bool,
    }
}

diesel::table! {
    rate_limits (key) {
        key -> Text,
        full_at -> BigInt,
    }
}

diesel::table! {
    tokens (id) {
        id -> BigInt,
        user_id -> BigInt,
        project_id -> Nullable<BigInt>,
        key_hash -> Text,
        created -> Timestamp,
        expires -> Nullable<Timestamp>,
    }
}

diesel::table! {
    changes (id) {
        id -> BigInt,
        action -> Integer,
        created -> Timestamp,
        user_id -> Nullable<BigInt>,
        author_id -> Nullable<BigInt>,
        project_id -> Nullable<BigInt>,
        component_id -> Nullable<BigInt>,
        translation_id -> Nullable<BigInt>,
        unit_id -> Nullable<BigInt>,
        language_id -> Nullable<BigInt>,
        addon_id -> Nullable<BigInt>,
        target -> Text,
        old -> Text,
        details -> Text,
    }
}

diesel::table! {
    teams (id) {
        id -> BigInt,
        name -> Text,
        defining_project_id -> Nullable<BigInt>,
        project_selection -> Integer,
        language_selection -> Integer,
        enforced_2fa -> Bool,
        internal -> Bool,
    }
}

diesel::table! {
    team_members (team_id, user_id) {
        team_id -> BigInt,
        user_id -> BigInt,
        is_admin -> Bool,
    }
}

diesel::table! {
    team_member_languages (team_id, user_id, language_id) {
        team_id -> BigInt,
        user_id -> BigInt,
        language_id -> BigInt,
    }
}

diesel::table! {
    team_roles (team_id, role_id) {
        team_id -> BigInt,
        role_id -> BigInt,
    }
}

diesel::table! {
    role_permissions (role_id, codename) {
        role_id -> BigInt,
        codename -> Text,
    }
}

diesel::table! {
    team_projects (team_id, project_id) {
        team_id -> BigInt,
        project_id -> BigInt,
    }
}

diesel::table! {
    team_components (team_id, component_id) {
        team_id -> BigInt,
        component_id -> BigInt,
    }
}

diesel::table! {
    subscriptions (id) {
        id -> BigInt,
        user_id -> BigInt,
        notification -> Text,
        scope -> Integer,
        frequency -> Integer,
        project_id -> Nullable<BigInt>,
        component_id -> Nullable<BigInt>,
    }
}

diesel::table! {
    roles (id) {
        id -> BigInt,
        name -> Text,
    }
}

diesel::table! {
    team_languages (team_id, language_id) {
        team_id -> BigInt,
        language_id -> BigInt,
    }
}

diesel::joinable!(plurals -> languages (language_id));
diesel::joinable!(language_aliases -> languages (language_id));
diesel::joinable!(components -> projects (project_id));
diesel::joinable!(categories -> projects (project_id));
diesel::joinable!(team_component_lists -> component_lists (component_list_id));
diesel::joinable!(component_list_components -> component_lists (component_list_id));
diesel::joinable!(component_list_components -> components (component_id));
diesel::joinable!(component_links -> projects (project_id));
diesel::joinable!(translations -> components (component_id));
diesel::joinable!(translations -> languages (language_id));
diesel::joinable!(units -> translations (translation_id));
diesel::joinable!(unit_removals -> translations (translation_id));
diesel::joinable!(tasks -> components (component_id));
diesel::joinable!(tokens -> users (user_id));
diesel::joinable!(team_members -> teams (team_id));
diesel::joinable!(team_members -> users (user_id));
diesel::joinable!(team_roles -> teams (team_id));
diesel::joinable!(team_projects -> teams (team_id));
diesel::joinable!(team_languages -> teams (team_id));
diesel::joinable!(team_languages -> languages (language_id));
diesel::joinable!(team_projects -> projects (project_id));
diesel::joinable!(team_components -> teams (team_id));
diesel::joinable!(team_components -> components (component_id));
diesel::joinable!(role_permissions -> roles (role_id));

diesel::table! {
    labels (id) {
        id -> BigInt,
        project_id -> BigInt,
        name -> Text,
        description -> Text,
        color -> Text,
    }
}

diesel::table! {
    unit_labels (unit_id, label_id) {
        unit_id -> BigInt,
        label_id -> BigInt,
    }
}

diesel::joinable!(unit_labels -> labels (label_id));
diesel::joinable!(unit_labels -> units (unit_id));
diesel::joinable!(labels -> projects (project_id));

diesel::table! {
    suggestions (id) {
        id -> BigInt,
        unit_id -> BigInt,
        user_id -> Nullable<BigInt>,
        target -> Text,
        created -> Timestamp,
    }
}

diesel::table! {
    comments (id) {
        id -> BigInt,
        unit_id -> BigInt,
        user_id -> Nullable<BigInt>,
        comment -> Text,
        resolved -> Bool,
        created -> Timestamp,
    }
}

diesel::joinable!(suggestions -> users (user_id));
diesel::joinable!(comments -> users (user_id));

diesel::table! {
    cache_generation (id) {
        id -> Integer,
        value -> BigInt,
    }
}

diesel::table! {
    change_minutes (kind, scope_id, minute) {
        kind -> SmallInt,
        scope_id -> BigInt,
        minute -> Timestamp,
        n -> BigInt,
    }
}

diesel::table! {
    component_lists (id) {
        id -> BigInt,
        name -> Text,
        slug -> Text,
        show_dashboard -> Bool,
    }
}

diesel::table! {
    component_list_components (component_list_id, component_id) {
        component_list_id -> BigInt,
        component_id -> BigInt,
    }
}

diesel::table! {
    component_list_rules (id) {
        id -> BigInt,
        component_list_id -> BigInt,
        project_match -> Text,
        component_match -> Text,
    }
}

diesel::table! {
    team_component_lists (team_id, component_list_id) {
        team_id -> BigInt,
        component_list_id -> BigInt,
    }
}

diesel::table! {
    addons (id) {
        id -> BigInt,
        name -> Text,
        project_id -> Nullable<BigInt>,
        component_id -> Nullable<BigInt>,
        configuration -> Text,
        created -> Timestamp,
    }
}

diesel::table! {
    screenshots (id) {
        id -> BigInt,
        translation_id -> BigInt,
        user_id -> Nullable<BigInt>,
        name -> Text,
        repository_filename -> Text,
        image_path -> Text,
        created -> Timestamp,
    }
}

diesel::table! {
    screenshot_units (screenshot_id, unit_id) {
        screenshot_id -> BigInt,
        unit_id -> BigInt,
    }
}

diesel::table! {
    sessions (key_hash) {
        key_hash -> Text,
        user_id -> BigInt,
        created -> Timestamp,
        expires -> Timestamp,
    }
}

diesel::table! {
    password_links (key_hash) {
        key_hash -> Text,
        user_id -> BigInt,
        expires -> Timestamp,
    }
}

diesel::table! {
    site_secrets (name) {
        name -> Text,
        value -> Text,
    }
}

diesel::table! {
    announcements (id) {
        id -> BigInt,
        project_id -> BigInt,
        category_id -> Nullable<BigInt>,
        component_id -> Nullable<BigInt>,
        language_id -> Nullable<BigInt>,
        user_id -> Nullable<BigInt>,
        message -> Text,
        severity -> Text,
        expiry -> Nullable<Date>,
        notify -> Bool,
        created -> Timestamp,
    }
}

diesel::joinable!(sessions -> users (user_id));
diesel::joinable!(password_links -> users (user_id));

diesel::allow_tables_to_appear_in_same_query!(
    languages,
    plurals,
    language_aliases,
    users,
    verified_emails,
    user_languages,
    watched_projects,
    projects,
    categories,
    components,
    component_links,
    translations,
    units,
    tasks,
    tokens,
    changes,
    change_minutes,
    teams,
    team_members,
    team_member_languages,
    team_roles,
    role_permissions,
    team_projects,
    team_languages,
    team_components,
    component_lists,
    component_list_components,
    component_list_rules,
    team_component_lists,
    addons,
    screenshots,
    screenshot_units,
    roles,
    subscriptions,
    cache_generation,
    labels,
    unit_labels,
    unit_removals,
    memory,
    suggestion_votes,
    suggestions,
    comments,
    sessions,
    password_links,
    announcements,
);
