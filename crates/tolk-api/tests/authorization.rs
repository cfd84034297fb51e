//! The authorisation matrix: every route and method, called by every kind
//! of caller, with the status each one must get. A second test walks the
//! served routes and fails on any route the matrix leaves out.
//!
//! # Callers (the columns)
//!
//! - `anon`: no token;
//! - `user`: jane, a signed-in user in the default site-wide teams only
//!   (`Users`, `Viewers`) and in no team of the private projects;
//! - `token`: a project token of the private project `other`;
//! - one member per built-in role: user `role-N` in a team giving the
//!   N-th built-in role on the private projects `demo` and `shared`;
//! - `admin`: a superuser, who always gets the row's `ok` status.
//!
//! # Rows
//!
//! `row(request, body, [anon, user, token], roles, ok, denied)`: the
//! request and its JSON body, the statuses of the first three callers,
//! the built-in roles that pass (they and the superuser get `ok`), and what
//! the other role members get (`403` when they see the object, `404` when
//! it is hidden from them). Refusals must carry the matching error code.
//!
//! Requests that destroy their object act on a victim the superuser makes
//! first (`setup`), one per call. Placeholders: `{n}` a number unique to the
//! call, `{me}` the caller's username (`target` for anonymous callers),
//! `{id}` the id in the last setup answer (or its first result), `{my_team}` the caller's role
//! team (setup lines naming it are skipped for callers without one), and
//! the fixture's ids (`{demo_id}`, `{team}`, `{role}`, ...).
//!
//! Allowed calls get past the check and show it: `ok` is the success status,
//! or `400` where the body is deliberately invalid (the check comes before
//! validation: a denied caller gets 403 or 404 even with a bad body).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test stops at the first value that is not as expected"
)]

mod common;

use actix_web::body::MessageBody;
use actix_web::http::Method;

use common::{Body, Ctx, HOST, Reply, TestApp, call, get_json, join_team, upstream};
use serde_json::Value;
use std::collections::HashMap;
use tolk_domain::permission::Subject;
use tolk_domain::user::UserFields;
use tolk_service::ServiceConfig;
use tolk_service::testing::TestDb;
use tolk_service::vcs_testing::Upstream;

/// Every built-in role, in Weblate's order (the role columns).
const EVERY: &[&str] = &[
    "Administration",
    "Edit source",
    "Add suggestion",
    "Access repository",
    "Manage glossary",
    "Power user",
    "Translation coordinator",
    "Review strings",
    "Translate",
    "Manage languages",
    "Bulk editing",
    "Automatic translation",
    "Manage translation memory",
    "Manage screenshots",
    "Manage repository",
    "Workspace administration",
    "Add workspace projects",
    "Add new projects",
];
/// No role passes (site-wide permissions: teams on some projects never
/// give them).
const NONE: &[&str] = &[];
/// `project.edit`, `component.edit`, `project.permissions`.
const ADMINISTRATION: &[&str] = &["Administration"];
/// `unit.edit`.
const TRANSLATORS: &[&str] = &[
    "Administration",
    "Edit source",
    "Power user",
    "Translation coordinator",
    "Review strings",
    "Translate",
];
/// `suggestion.add`.
const SUGGESTERS: &[&str] = &[
    "Administration",
    "Edit source",
    "Add suggestion",
    "Power user",
    "Translation coordinator",
    "Review strings",
    "Translate",
];
/// `suggestion.delete`.
const SUGGESTION_REMOVERS: &[&str] = &["Administration", "Power user", "Translation coordinator"];
/// `translation.download`.
const DOWNLOADERS: &[&str] = &[
    "Administration",
    "Edit source",
    "Access repository",
    "Power user",
    "Translation coordinator",
    "Review strings",
    "Translate",
    "Manage languages",
];
/// `translation.add`.
const LANGUAGE_ADDERS: &[&str] = &[
    "Administration",
    "Power user",
    "Translation coordinator",
    "Manage languages",
];
/// `translation.delete`.
const LANGUAGE_REMOVERS: &[&str] = &["Administration", "Manage languages"];
/// `component.lock` and the repository operations (`vcs.commit`, ...).
const MAINTAINERS: &[&str] = &["Administration", "Manage repository"];
/// `translation.auto`.
const AUTO_TRANSLATORS: &[&str] = &["Administration", "Automatic translation"];
/// `screenshot.add`, `.edit` and `.delete`.
const SCREENSHOTERS: &[&str] = &[
    "Administration",
    "Translation coordinator",
    "Manage screenshots",
];
/// `announcement.add` and `.delete`.
const ANNOUNCERS: &[&str] = &["Administration", "Translation coordinator"];
/// `memory.delete`.
const MEMORY_MANAGERS: &[&str] = &["Administration", "Manage translation memory"];

/// One line of the matrix.
struct Row {
    /// `METHOD /path/` with placeholders.
    request: &'static str,
    /// The JSON body, with placeholders; empty for none.
    body: &'static str,
    /// Requests the superuser sends before each call (`METHOD /path/ body`).
    setup: &'static [&'static str],
    /// Statuses of the anonymous caller, the plain user and the other
    /// project's token.
    outsiders: [u16; 3],
    /// The built-in roles that pass.
    roles: &'static [&'static str],
    /// The status of callers that pass.
    ok: u16,
    /// The status of role members that do not.
    denied: u16,
}

fn row(
    request: &'static str,
    body: &'static str,
    outsiders: [u16; 3],
    roles: &'static [&'static str],
    ok: u16,
    denied: u16,
) -> Row {
    Row {
        request,
        body,
        setup: &[],
        outsiders,
        roles,
        ok,
        denied,
    }
}

impl Row {
    /// The row with requests the superuser sends before each call.
    fn setup(self, setup: &'static [&'static str]) -> Row {
        Row { setup, ..self }
    }
}

/// A new component of `demo` on `app`'s repository (no clone needed).
macro_rules! linked {
    () => {
        r#"{"name": "Linked {n}", "slug": "linked{n}", "repo": "weblate://demo/app", "filemask": "countries/*.json", "file_format": "json-nested", "template": "countries/en.json"}"#
    };
}

/// The matrix, one row per line.
#[rustfmt::skip]
fn matrix() -> Vec<Row> {
    // What the outsiders get: [anonymous, user, other project's token].
    // A private object: hidden from all three.
    const HIDDEN: [u16; 3] = [404, 404, 404];
    // A private object, for signed-in callers only.
    const SIGN_IN_HIDDEN: [u16; 3] = [401, 404, 404];
    // Open to all.
    const OPEN: [u16; 3] = [200, 200, 200];
    // For signed-in callers, who see the object.
    const SEEN: [u16; 3] = [404, 200, 200];
    // Site-wide administration: signed-in callers only, refused.
    const SITE: [u16; 3] = [401, 403, 403];
    vec![
        // The root and the metrics.
        row("GET /api/", "", OPEN, EVERY, 200, 200),
        row("GET /api/metrics/", "", [401, 200, 200], EVERY, 200, 200),
        // Changes.
        row("GET /api/changes/", "", OPEN, EVERY, 200, 200),
        row("GET /api/changes/{change}/", "", HIDDEN, EVERY, 200, 200),
        // Projects.
        row("GET /api/projects/", "", OPEN, EVERY, 200, 200),
        row("POST /api/projects/", r#"{"name": "New {n}", "slug": "new{n}", "web": "https://new.example/"}"#, SITE, NONE, 201, 403),
        row("GET /api/projects/demo/", "", HIDDEN, EVERY, 200, 200),
        row("GET /api/projects/pub/", "", [200, 200, 404], EVERY, 200, 200),
        row("GET /api/projects/other/", "", [404, 404, 200], NONE, 200, 404),
        row("PUT /api/projects/demo/", "{}", SIGN_IN_HIDDEN, ADMINISTRATION, 400, 403),
        row("PATCH /api/projects/demo/", "{}", SIGN_IN_HIDDEN, ADMINISTRATION, 200, 403),
        row("PATCH /api/projects/pub/", "{}", [401, 403, 404], NONE, 200, 403),
        row("DELETE /api/projects/victim{n}/", "", SIGN_IN_HIDDEN, ADMINISTRATION, 204, 403).setup(&[
            r#"POST /api/projects/ {"name": "Victim {n}", "slug": "victim{n}", "web": "https://v.example/", "access_control": 100}"#,
            r#"POST /api/groups/{my_team}/projects/ {"project_id": {id}}"#,
        ]),
        row("GET /api/projects/demo/changes/", "", HIDDEN, EVERY, 200, 200),
        row("GET /api/projects/demo/languages/", "", HIDDEN, EVERY, 200, 200),
        row("GET /api/projects/demo/statistics/", "", HIDDEN, EVERY, 200, 200),
        row("GET /api/projects/demo/lock/", "", HIDDEN, EVERY, 200, 200),
        row("POST /api/projects/demo/lock/", r#"{"lock": false}"#, SIGN_IN_HIDDEN, ADMINISTRATION, 200, 403),
        row("GET /api/projects/demo/components/", "", HIDDEN, EVERY, 200, 200),
        row("POST /api/projects/demo/components/", linked!(), SIGN_IN_HIDDEN, ADMINISTRATION, 201, 403),
        row("GET /api/projects/demo/repository/", "", HIDDEN, MAINTAINERS, 200, 403),
        row("POST /api/projects/demo/repository/", r#"{"operation": "commit"}"#, SIGN_IN_HIDDEN, MAINTAINERS, 200, 403),
        row("GET /api/projects/demo/languages/ar/workflow/", "", HIDDEN, EVERY, 200, 200)
            .setup(&[r#"PATCH /api/projects/demo/languages/ar/workflow/ {"suggestion_voting": false}"#]),
        row("PATCH /api/projects/demo/languages/ar/workflow/", r#"{"suggestion_autoaccept": 0}"#, SIGN_IN_HIDDEN, ADMINISTRATION, 200, 403),
        row("DELETE /api/projects/demo/languages/ar/workflow/", "", SIGN_IN_HIDDEN, ADMINISTRATION, 204, 403)
            .setup(&[r#"PATCH /api/projects/demo/languages/ar/workflow/ {"suggestion_voting": false}"#]),
        row("GET /api/projects/demo/metrics/", "", HIDDEN, EVERY, 200, 200),
        row("GET /api/projects/demo/labels/", "", HIDDEN, EVERY, 200, 200),
        row("POST /api/projects/demo/labels/", r#"{"name": "label {n}", "color": "navy"}"#, SIGN_IN_HIDDEN, ADMINISTRATION, 201, 403),
        row("DELETE /api/projects/demo/labels/{id}/", "", SIGN_IN_HIDDEN, ADMINISTRATION, 204, 403)
            .setup(&[r#"POST /api/projects/demo/labels/ {"name": "victim {n}", "color": "red"}"#]),
        row("GET /api/projects/demo/tokens/", "", SIGN_IN_HIDDEN, ADMINISTRATION, 200, 403),
        row("POST /api/projects/demo/tokens/", r#"{"name": "ci {n}"}"#, SIGN_IN_HIDDEN, ADMINISTRATION, 201, 403),
        row("DELETE /api/projects/demo/tokens/{id}/", "", SIGN_IN_HIDDEN, ADMINISTRATION, 204, 403)
            .setup(&[r#"POST /api/projects/demo/tokens/ {"name": "victim {n}"}"#]),
        // Components.
        row("GET /api/components/", "", OPEN, EVERY, 200, 200),
        row("GET /api/components/demo/app/", "", HIDDEN, EVERY, 200, 200),
        row("GET /api/components/demo/secret/", "", HIDDEN, NONE, 200, 404),
        row("PUT /api/components/demo/app/", "{}", SIGN_IN_HIDDEN, ADMINISTRATION, 400, 403),
        row("PATCH /api/components/demo/app/", "{}", SIGN_IN_HIDDEN, ADMINISTRATION, 200, 403),
        row("PATCH /api/components/demo/secret/", "{}", SIGN_IN_HIDDEN, NONE, 200, 404),
        row("DELETE /api/components/demo/linked{n}/", "", SIGN_IN_HIDDEN, ADMINISTRATION, 204, 403)
            .setup(&[concat!("POST /api/projects/demo/components/ ", linked!())]),
        row("GET /api/components/demo/app/changes/", "", HIDDEN, EVERY, 200, 200),
        row("GET /api/components/demo/app/links/", "", HIDDEN, EVERY, 200, 200),
        row("POST /api/components/demo/app/links/", r#"{"project_slug": "shared"}"#, SIGN_IN_HIDDEN, ADMINISTRATION, 201, 403)
            .setup(&["DELETE /api/components/demo/app/links/shared/"]),
        row("DELETE /api/components/demo/app/links/shared/", "", SIGN_IN_HIDDEN, ADMINISTRATION, 204, 403)
            .setup(&[r#"POST /api/components/demo/app/links/ {"project_slug": "shared"}"#]),
        row("GET /api/components/demo/app/lock/", "", HIDDEN, EVERY, 200, 200),
        row("POST /api/components/demo/app/lock/", r#"{"lock": false}"#, SIGN_IN_HIDDEN, MAINTAINERS, 200, 403),
        row("GET /api/components/demo/app/monolingual_base/", "", HIDDEN, DOWNLOADERS, 200, 403),
        row("GET /api/components/demo/app/new_template/", "", HIDDEN, DOWNLOADERS, 200, 403),
        row("GET /api/components/demo/app/repository/", "", HIDDEN, MAINTAINERS, 200, 403),
        row("POST /api/components/demo/app/repository/", r#"{"operation": "commit"}"#, SIGN_IN_HIDDEN, MAINTAINERS, 200, 403),
        row("GET /api/components/demo/app/statistics/", "", HIDDEN, EVERY, 200, 200),
        row("GET /api/components/demo/app/translations/", "", HIDDEN, EVERY, 200, 200),
        row("POST /api/components/demo/app/translations/", r#"{"language_code": "de"}"#, SIGN_IN_HIDDEN, LANGUAGE_ADDERS, 201, 403)
            .setup(&["DELETE /api/translations/demo/app/de/"]),
        // Translations.
        row("GET /api/translations/", "", OPEN, EVERY, 200, 200),
        row("GET /api/translations/demo/app/ar/", "", HIDDEN, EVERY, 200, 200),
        row("DELETE /api/translations/demo/app/fr/", "", SIGN_IN_HIDDEN, LANGUAGE_REMOVERS, 204, 403)
            .setup(&[r#"POST /api/components/demo/app/translations/ {"language_code": "fr"}"#]),
        row("GET /api/translations/demo/app/ar/changes/", "", HIDDEN, EVERY, 200, 200),
        row("GET /api/translations/demo/app/ar/file/", "", HIDDEN, DOWNLOADERS, 200, 403),
        row("GET /api/components/demo/app/file/", "", HIDDEN, DOWNLOADERS, 200, 403),
        row("GET /api/projects/demo/file/", "", HIDDEN, DOWNLOADERS, 200, 403),
        row("GET /api/projects/demo/languages/cs/file/", "", HIDDEN, DOWNLOADERS, 200, 403),
        row("GET /exports/stats/demo/", "", HIDDEN, EVERY, 200, 200),
        row("GET /exports/stats/demo/app/", "", HIDDEN, EVERY, 200, 200),
        row("GET /exports/rss/", "", OPEN, EVERY, 200, 200),
        row("GET /exports/rss/language/ja/", "", OPEN, EVERY, 200, 200),
        row("GET /exports/rss/demo/", "", HIDDEN, EVERY, 200, 200),
        row("GET /exports/rss/demo/app/", "", HIDDEN, EVERY, 200, 200),
        row("GET /exports/rss/demo/app/ar/", "", HIDDEN, EVERY, 200, 200),
        // Without a file: a 400 once the caller may upload.
        row("POST /api/translations/demo/app/ar/file/", "{}", SIGN_IN_HIDDEN, TRANSLATORS, 400, 403),
        row("PUT /api/translations/demo/app/ar/file/", "{}", SIGN_IN_HIDDEN, TRANSLATORS, 400, 403),
        row("GET /api/translations/demo/app/ar/repository/", "", HIDDEN, MAINTAINERS, 200, 403),
        row("POST /api/translations/demo/app/ar/repository/", r#"{"operation": "commit"}"#, SIGN_IN_HIDDEN, MAINTAINERS, 200, 403),
        row("GET /api/translations/demo/app/ar/statistics/", "", HIDDEN, EVERY, 200, 200),
        row("GET /api/translations/demo/app/ar/units/", "", HIDDEN, EVERY, 200, 200),
        row("PATCH /api/translations/demo/app/ar/units/", r#"{"units": []}"#, SIGN_IN_HIDDEN, TRANSLATORS, 200, 403),
        row("POST /api/translations/demo/app/en/units/", r#"{"key": "key{n}", "value": ["Value {n}"]}"#, SIGN_IN_HIDDEN, ADMINISTRATION, 200, 403),
        // Units.
        row("POST /api/translations/demo/app/ar/autotranslate/", r#"{"mode": "translate"}"#, SIGN_IN_HIDDEN, AUTO_TRANSLATORS, 200, 403),
        row("GET /api/units/", "", OPEN, EVERY, 200, 200),
        row("GET /api/units/{unit}/", "", HIDDEN, EVERY, 200, 200),
        row("PUT /api/units/{unit}/", r#"{"state": 20, "target": ["Afganistán {n}"], "labels": []}"#, SIGN_IN_HIDDEN, TRANSLATORS, 200, 403),
        row("PATCH /api/units/{unit}/", r#"{"state": 10, "target": ["Afganistán {n}"]}"#, SIGN_IN_HIDDEN, TRANSLATORS, 200, 403),
        row("DELETE /api/units/{id}/", "", SIGN_IN_HIDDEN, ADMINISTRATION, 204, 403)
            .setup(&[r#"POST /api/translations/demo/app/en/units/ {"key": "victim{n}", "value": ["Victim {n}"]}"#]),
        row("PATCH /api/units/{pub_unit}/", r#"{"state": 10, "target": ["Afganistán {n}"]}"#, [401, 200, 404], EVERY, 200, 200),
        row("GET /api/units/{source_unit}/translations/", "", HIDDEN, EVERY, 200, 200),
        row("GET /api/units/{unit}/suggestions/", "", HIDDEN, EVERY, 200, 200),
        row("POST /api/units/{unit}/suggestions/", r#"{"target": ["Suggested {n}"]}"#, HIDDEN, SUGGESTERS, 201, 403),
        row("GET /api/units/{unit}/comments/", "", HIDDEN, EVERY, 200, 200),
        row("POST /api/units/{unit}/comments/", r#"{"scope": "translation", "comment": "Comment {n}"}"#, SIGN_IN_HIDDEN, TRANSLATORS, 201, 403),
        row("GET /api/search/", "", OPEN, EVERY, 200, 200),
        row("GET /api/memory/", "", [401, 200, 200], EVERY, 200, 200),
        row("GET /api/memory/{memory}/", "", SIGN_IN_HIDDEN, EVERY, 200, 200),
        row("POST /api/memory/lookup/?source_language=en&target_language=ar", r#"{"strings": ["Afghanistan"]}"#, [401, 200, 200], EVERY, 200, 200),
        row("DELETE /api/memory/{id}/", "", SIGN_IN_HIDDEN, MEMORY_MANAGERS, 204, 403).setup(&[
            r#"POST /api/translations/demo/app/en/units/ {"key": "memory{n}", "value": ["Memory {n}"]}"#,
            "GET /api/translations/demo/app/ar/units/?q=key:memory{n}",
            r#"PATCH /api/units/{id}/ {"state": 20, "target": ["Remembered {n}"]}"#,
            "GET /api/memory/?project=demo&source=Memory%20{n}",
        ]),
        // Suggestions.
        row("GET /api/suggestions/", "", OPEN, EVERY, 200, 200),
        row("GET /api/suggestions/{id}/", "", HIDDEN, EVERY, 200, 200)
            .setup(&[r#"POST /api/units/{unit}/suggestions/ {"target": ["Read {n}"]}"#]),
        row("DELETE /api/suggestions/{id}/", "", SIGN_IN_HIDDEN, SUGGESTION_REMOVERS, 204, 403)
            .setup(&[r#"POST /api/units/{unit}/suggestions/ {"target": ["Removed {n}"]}"#]),
        // `suggestion.vote` comes with translating.
        row("POST /api/suggestions/{id}/vote/", r#"{"value": 1}"#, SIGN_IN_HIDDEN, TRANSLATORS, 200, 403)
            .setup(&[r#"POST /api/units/{unit}/suggestions/ {"target": ["Voted {n}"]}"#]),
        row("POST /api/suggestions/{id}/accept/", "{}", SIGN_IN_HIDDEN, TRANSLATORS, 200, 403)
            .setup(&[r#"POST /api/units/{unit}/suggestions/ {"target": ["Accepted {n}"]}"#]),
        // Tasks.
        row("GET /api/tasks/{task}/", "", HIDDEN, EVERY, 200, 200),
        // Finished: cancelling changes nothing once allowed.
        row("DELETE /api/tasks/{task}/", "", SIGN_IN_HIDDEN, ADMINISTRATION, 204, 403),
        // Languages: those without a translation are listed only to their
        // editors (`x_victim…`).
        row("GET /api/languages/", "", OPEN, EVERY, 200, 200),
        row("POST /api/languages/", r#"{"code": "x_new{n}", "name": "New {n}", "plural": {"number": 2, "formula": "n != 1"}}"#, SITE, NONE, 201, 403),
        row("GET /api/languages/ar/", "", OPEN, EVERY, 200, 200),
        row("PUT /api/languages/ar/", "{}", SITE, NONE, 400, 403),
        row("PATCH /api/languages/ar/", "{}", SITE, NONE, 200, 403),
        row("DELETE /api/languages/x_victim{n}/", "", SIGN_IN_HIDDEN, NONE, 204, 404).setup(&[
            r#"POST /api/languages/ {"code": "x_victim{n}", "name": "Victim {n}", "plural": {"number": 2, "formula": "n != 1"}}"#,
        ]),
        row("GET /api/languages/ar/statistics/", "", OPEN, EVERY, 200, 200),
        // Users: signed-in callers see everybody (in the basic shape) and
        // change only themselves.
        row("GET /api/users/", "", OPEN, EVERY, 200, 200),
        row("POST /api/users/", r#"{"username": "new{n}", "full_name": "New", "email": "new{n}@example.com"}"#, SITE, NONE, 201, 403),
        row("GET /api/users/target/", "", SEEN, EVERY, 200, 200),
        row("PUT /api/users/target/", "{}", SITE, NONE, 400, 403),
        row("PATCH /api/users/target/", "{}", SITE, NONE, 200, 403),
        // A project token's bot is Tolk's to manage, not its own.
        row("PATCH /api/users/{me}/", "{}", [401, 200, 403], EVERY, 200, 200),
        row("DELETE /api/users/victim{n}/", "", SITE, NONE, 204, 403).setup(&[
            r#"POST /api/users/ {"username": "victim{n}", "full_name": "Victim", "email": "victim{n}@example.com"}"#,
        ]),
        row("POST /api/users/target/groups/", r#"{"group_id": {team}}"#, SITE, NONE, 200, 403),
        row("POST /api/users/{me}/groups/", r#"{"group_id": {team}}"#, SITE, NONE, 200, 403),
        row("DELETE /api/users/target/groups/", r#"{"group_id": {team}}"#, SITE, NONE, 200, 403)
            .setup(&[r#"POST /api/users/target/groups/ {"group_id": {team}}"#]),
        row("GET /api/users/target/statistics/", "", SEEN, EVERY, 200, 200),
        row("GET /api/users/target/contributions/", "", SEEN, EVERY, 200, 200),
        row("POST /api/users/target/token/", "", SITE, NONE, 200, 403),
        row("DELETE /api/users/target/token/", "", SITE, NONE, 204, 403),
        row("GET /api/users/target/notifications/", "", SITE, NONE, 200, 403),
        row("GET /api/users/{me}/notifications/", "", [401, 200, 200], EVERY, 200, 200),
        row("POST /api/users/{me}/notifications/", r#"{"notification": "NewStringNotificaton", "scope": 0, "frequency": 1}"#, [401, 201, 201], EVERY, 201, 201),
        row("POST /api/users/target/notifications/", r#"{"notification": "NewCommentNotificaton", "scope": 0, "frequency": 1}"#, SITE, NONE, 201, 403),
        row("GET /api/users/target/notifications/{subscription}/", "", SITE, NONE, 200, 403),
        row("PUT /api/users/target/notifications/{subscription}/", r#"{"notification": "NewTranslationNotificaton", "scope": 0, "frequency": 1}"#, SITE, NONE, 200, 403),
        row("PATCH /api/users/target/notifications/{subscription}/", "{}", SITE, NONE, 200, 403),
        row("DELETE /api/users/{me}/notifications/{id}/", "", [401, 204, 204], EVERY, 204, 204).setup(&[
            r#"POST /api/users/{me}/notifications/ {"notification": "LastAuthorCommentNotificaton", "scope": 0, "frequency": 1}"#,
        ]),
        row("DELETE /api/users/target/notifications/{id}/", "", SITE, NONE, 204, 403).setup(&[
            r#"POST /api/users/target/notifications/ {"notification": "MentionCommentNotificaton", "scope": 0, "frequency": 1}"#,
        ]),
        // Roles: a role is seen by the members of the teams having it.
        row("GET /api/roles/", "", OPEN, EVERY, 200, 200),
        row("POST /api/roles/", r#"{"name": "Role {n}", "permissions": ["unit.edit"]}"#, SITE, NONE, 201, 403),
        row("GET /api/roles/{role}/", "", HIDDEN, NONE, 200, 404),
        row("PUT /api/roles/{role}/", r#"{"name": "Custom", "permissions": ["unit.edit"]}"#, SIGN_IN_HIDDEN, NONE, 200, 404),
        row("PATCH /api/roles/{role}/", "{}", SIGN_IN_HIDDEN, NONE, 200, 404),
        row("DELETE /api/roles/{id}/", "", SIGN_IN_HIDDEN, NONE, 204, 404)
            .setup(&[r#"POST /api/roles/ {"name": "Victim {n}", "permissions": []}"#]),
        // Teams. `{team}` is the project `demo`'s own `Translate` team,
        // which its managers edit; `{free_team}` is a site-wide team with
        // jane and the role members as members and jane as its admin.
        row("GET /api/groups/", "", OPEN, EVERY, 200, 200),
        row("POST /api/groups/", r#"{"name": "Team {n}", "project_selection": 0, "language_selection": 1}"#, SITE, NONE, 201, 403),
        // A team of `demo`; a project the caller cannot see reads as no project at all.
        row("POST /api/groups/", r#"{"name": "Team {n}", "project_selection": 0, "language_selection": 1, "defining_project": "http://tolk.test:8123/api/projects/demo/"}"#, [401, 400, 400], ADMINISTRATION, 201, 403),
        row("GET /api/groups/{team}/", "", HIDDEN, ADMINISTRATION, 200, 404),
        row("GET /api/groups/{free_team}/", "", [404, 200, 404], EVERY, 200, 200),
        row("PUT /api/groups/{team}/", "{}", SIGN_IN_HIDDEN, ADMINISTRATION, 400, 404),
        row("PUT /api/groups/{free_team}/", "{}", [401, 403, 404], NONE, 400, 403),
        row("PATCH /api/groups/{team}/", "{}", SIGN_IN_HIDDEN, ADMINISTRATION, 200, 404),
        row("DELETE /api/groups/{id}/", "", SIGN_IN_HIDDEN, ADMINISTRATION, 204, 404).setup(&[
            r#"POST /api/groups/ {"name": "Victim {n}", "project_selection": 0, "language_selection": 1, "defining_project": "http://tolk.test:8123/api/projects/demo/"}"#,
        ]),
        row("POST /api/groups/{team}/roles/", r#"{"role_id": {role}}"#, SIGN_IN_HIDDEN, ADMINISTRATION, 200, 404),
        row("DELETE /api/groups/{team}/roles/{role}/", "", SIGN_IN_HIDDEN, ADMINISTRATION, 204, 404)
            .setup(&[r#"POST /api/groups/{team}/roles/ {"role_id": {role}}"#]),
        row("POST /api/groups/{team}/languages/", r#"{"language_code": "cs"}"#, SIGN_IN_HIDDEN, ADMINISTRATION, 200, 404),
        row("DELETE /api/groups/{team}/languages/cs/", "", SIGN_IN_HIDDEN, ADMINISTRATION, 204, 404)
            .setup(&[r#"POST /api/groups/{team}/languages/ {"language_code": "cs"}"#]),
        row("POST /api/groups/{team}/projects/", r#"{"project_id": {demo_id}}"#, SIGN_IN_HIDDEN, ADMINISTRATION, 400, 404),
        row("POST /api/groups/{free_team}/projects/", r#"{"project_id": {demo_id}}"#, [401, 403, 404], NONE, 200, 403),
        row("DELETE /api/groups/{free_team}/projects/{demo_id}/", "", [401, 403, 404], NONE, 204, 403)
            .setup(&[r#"POST /api/groups/{free_team}/projects/ {"project_id": {demo_id}}"#]),
        row("POST /api/groups/{team}/components/", r#"{"component_id": {component}}"#, SIGN_IN_HIDDEN, ADMINISTRATION, 200, 404),
        row("DELETE /api/groups/{team}/components/{component}/", "", SIGN_IN_HIDDEN, ADMINISTRATION, 204, 404)
            .setup(&[r#"POST /api/groups/{team}/components/ {"component_id": {component}}"#]),
        row("POST /api/groups/{team}/componentlists/", r#"{"component_list_id": 1}"#, SIGN_IN_HIDDEN, ADMINISTRATION, 400, 404),
        row("DELETE /api/groups/{free_team}/componentlists/{list}/", "", [401, 403, 404], NONE, 404, 403),
        row("POST /api/groups/{free_team}/componentlists/", r#"{"component_list_id": {list}}"#, [401, 403, 404], NONE, 200, 403),
        row("DELETE /api/groups/{free_team}/componentlists/{list}/", "", [401, 403, 404], NONE, 204, 403)
            .setup(&[r#"POST /api/groups/{free_team}/componentlists/ {"component_list_id": {list}}"#]),
        // Announcements, at each of their five places.
        row("GET /api/projects/demo/announcements/", "", HIDDEN, EVERY, 200, 200),
        row("POST /api/projects/demo/announcements/", r#"{"message": "Freeze {n}"}"#, SIGN_IN_HIDDEN, ANNOUNCERS, 201, 403),
        row("DELETE /api/projects/demo/announcements/{id}/", "", SIGN_IN_HIDDEN, ANNOUNCERS, 204, 403)
            .setup(&[r#"POST /api/projects/demo/announcements/ {"message": "Victim {n}"}"#]),
        row("GET /api/projects/demo/languages/ar/announcements/", "", HIDDEN, EVERY, 200, 200),
        row("POST /api/projects/demo/languages/ar/announcements/", r#"{"message": "Freeze {n}"}"#, SIGN_IN_HIDDEN, ANNOUNCERS, 201, 403),
        row("DELETE /api/projects/demo/languages/ar/announcements/{id}/", "", SIGN_IN_HIDDEN, ANNOUNCERS, 204, 403)
            .setup(&[r#"POST /api/projects/demo/languages/ar/announcements/ {"message": "Victim {n}"}"#]),
        row("GET /api/categories/{category}/announcements/", "", HIDDEN, EVERY, 200, 200),
        row("POST /api/categories/{category}/announcements/", r#"{"message": "Freeze {n}"}"#, SIGN_IN_HIDDEN, ANNOUNCERS, 201, 403),
        row("DELETE /api/categories/{category}/announcements/{id}/", "", SIGN_IN_HIDDEN, ANNOUNCERS, 204, 403)
            .setup(&[r#"POST /api/categories/{category}/announcements/ {"message": "Victim {n}"}"#]),
        row("GET /api/components/demo/app/announcements/", "", HIDDEN, EVERY, 200, 200),
        row("POST /api/components/demo/app/announcements/", r#"{"message": "Freeze {n}"}"#, SIGN_IN_HIDDEN, ANNOUNCERS, 201, 403),
        row("DELETE /api/components/demo/app/announcements/{id}/", "", SIGN_IN_HIDDEN, ANNOUNCERS, 204, 403)
            .setup(&[r#"POST /api/components/demo/app/announcements/ {"message": "Victim {n}"}"#]),
        row("GET /api/translations/demo/app/ar/announcements/", "", HIDDEN, EVERY, 200, 200),
        row("POST /api/translations/demo/app/ar/announcements/", r#"{"message": "Freeze {n}"}"#, SIGN_IN_HIDDEN, ANNOUNCERS, 201, 403),
        row("DELETE /api/translations/demo/app/ar/announcements/{id}/", "", SIGN_IN_HIDDEN, ANNOUNCERS, 204, 403)
            .setup(&[r#"POST /api/translations/demo/app/ar/announcements/ {"message": "Victim {n}"}"#]),
        // Categories: `{category}` is one of demo's.
        row("GET /api/categories/", "", OPEN, EVERY, 200, 200),
        row("POST /api/categories/", r#"{"name": "Cat {n}", "slug": "cat{n}", "project": "/api/projects/demo/"}"#, [401, 400, 400], ADMINISTRATION, 201, 403),
        row("GET /api/categories/{category}/", "", HIDDEN, EVERY, 200, 200),
        row("PUT /api/categories/{category}/", r#"{"name": "Cat", "slug": "cat"}"#, SIGN_IN_HIDDEN, ADMINISTRATION, 200, 403),
        row("PATCH /api/categories/{category}/", "{}", SIGN_IN_HIDDEN, ADMINISTRATION, 200, 403),
        row("DELETE /api/categories/{id}/", "", SIGN_IN_HIDDEN, ADMINISTRATION, 204, 403)
            .setup(&[r#"POST /api/categories/ {"name": "Victim {n}", "slug": "victim{n}", "project": "/api/projects/demo/"}"#]),
        row("GET /api/categories/{category}/statistics/", "", HIDDEN, EVERY, 200, 200),
        row("GET /api/projects/demo/categories/", "", HIDDEN, EVERY, 200, 200),
        // Add-ons: `{addon}` squashes demo's commits; only editors see them.
        row("GET /api/addons/", "", OPEN, EVERY, 200, 200),
        row("GET /api/addons/{addon}/", "", HIDDEN, ADMINISTRATION, 200, 404),
        row("PUT /api/addons/{addon}/", r#"{"configuration": {"squash": "all"}}"#, SIGN_IN_HIDDEN, ADMINISTRATION, 200, 404),
        row("PATCH /api/addons/{addon}/", "{}", SIGN_IN_HIDDEN, ADMINISTRATION, 200, 404),
        row("DELETE /api/addons/{id}/", "", SIGN_IN_HIDDEN, ADMINISTRATION, 204, 404)
            .setup(&[r#"POST /api/components/demo/app/addons/ {"name": "weblate.git.squash"}"#]),
        row("POST /api/addons/{addon}/trigger/", "{}", SIGN_IN_HIDDEN, ADMINISTRATION, 400, 404),
        row("POST /api/components/demo/app/addons/", r#"{"name": "weblate.nothing"}"#, SIGN_IN_HIDDEN, ADMINISTRATION, 400, 403),
        row("POST /api/projects/demo/addons/", r#"{"name": "weblate.nothing"}"#, SIGN_IN_HIDDEN, ADMINISTRATION, 400, 403),
        // Screenshots: `{screenshot}` shows demo's app in Arabic.
        row("GET /api/screenshots/", "", OPEN, EVERY, 200, 200),
        row("POST /api/screenshots/", r#"@image {"name": "Shot {n}", "project_slug": "demo", "component_slug": "app", "language_code": "ar"}"#, [401, 400, 400], SCREENSHOTERS, 201, 403),
        row("GET /api/screenshots/{screenshot}/", "", HIDDEN, EVERY, 200, 200),
        row("PUT /api/screenshots/{screenshot}/", r#"{"name": "Shot"}"#, SIGN_IN_HIDDEN, SCREENSHOTERS, 200, 403),
        row("PATCH /api/screenshots/{screenshot}/", "{}", SIGN_IN_HIDDEN, SCREENSHOTERS, 200, 403),
        row("DELETE /api/screenshots/{id}/", "", SIGN_IN_HIDDEN, SCREENSHOTERS, 204, 403)
            .setup(&[r#"POST /api/screenshots/ @image {"name": "Shot {n}", "project_slug": "demo", "component_slug": "app", "language_code": "ar"}"#]),
        row("GET /api/screenshots/{screenshot}/file/", "", HIDDEN, EVERY, 200, 200),
        row("POST /api/screenshots/{screenshot}/file/", r#"@image {}"#, SIGN_IN_HIDDEN, SCREENSHOTERS, 200, 403),
        row("PUT /api/screenshots/{screenshot}/file/", r#"@image {}"#, SIGN_IN_HIDDEN, SCREENSHOTERS, 200, 403),
        row("POST /api/screenshots/{screenshot}/units/", r#"{"unit_id": {unit}}"#, SIGN_IN_HIDDEN, SCREENSHOTERS, 200, 403),
        row("DELETE /api/screenshots/{screenshot}/units/{unit}/", "", SIGN_IN_HIDDEN, SCREENSHOTERS, 204, 403)
            .setup(&[r#"POST /api/screenshots/{screenshot}/units/ {"unit_id": {unit}}"#]),
        row("GET /api/components/demo/app/screenshots/", "", HIDDEN, EVERY, 200, 200),
        row("GET /api/units/{unit}/screenshots/", "", HIDDEN, EVERY, 200, 200),
        row("POST /api/units/{unit}/screenshots/", r#"{"screenshot_id": {screenshot}}"#, SIGN_IN_HIDDEN, SCREENSHOTERS, 200, 403),
        row("DELETE /api/units/{unit}/screenshots/{screenshot}/", "", SIGN_IN_HIDDEN, SCREENSHOTERS, 204, 403)
            .setup(&[r#"POST /api/units/{unit}/screenshots/ {"screenshot_id": {screenshot}}"#]),
        // Component lists: `featured` holds demo's app, so only those who
        // see it know of the list; managing lists is site-wide.
        row("GET /api/component-lists/", "", OPEN, EVERY, 200, 200),
        row("POST /api/component-lists/", r#"{"name": "List {n}", "slug": "list{n}"}"#, SITE, NONE, 201, 403),
        row("GET /api/component-lists/featured/", "", HIDDEN, EVERY, 200, 200),
        row("PUT /api/component-lists/featured/", r#"{"name": "Featured", "slug": "featured"}"#, SIGN_IN_HIDDEN, NONE, 200, 403),
        row("PATCH /api/component-lists/featured/", "{}", SIGN_IN_HIDDEN, NONE, 200, 403),
        row("DELETE /api/component-lists/victim{n}/", "", SITE, NONE, 204, 403)
            .setup(&[r#"POST /api/component-lists/ {"name": "Victim {n}", "slug": "victim{n}"}"#]),
        row("GET /api/component-lists/featured/components/", "", HIDDEN, EVERY, 200, 200),
        row("POST /api/component-lists/featured/components/", r#"{"component_id": {component}}"#, SIGN_IN_HIDDEN, NONE, 200, 403),
        row("DELETE /api/component-lists/victim{n}/components/app/", "", SIGN_IN_HIDDEN, NONE, 204, 403)
            .setup(&[
                r#"POST /api/component-lists/ {"name": "Victim {n}", "slug": "victim{n}"}"#,
                r#"POST /api/component-lists/victim{n}/components/ {"component_id": {component}}"#,
            ]),
        row("POST /api/groups/{team}/admins/", r#"{"user_id": {target_id}}"#, SIGN_IN_HIDDEN, ADMINISTRATION, 200, 404),
        row("DELETE /api/groups/{team}/admins/{target_id}/", "", SIGN_IN_HIDDEN, ADMINISTRATION, 200, 404)
            .setup(&[r#"POST /api/groups/{team}/admins/ {"user_id": {target_id}}"#]),
        row("POST /api/groups/{free_team}/admins/", r#"{"user_id": {target_id}}"#, [401, 200, 404], NONE, 200, 403),
        // Repository hooks take no credentials: the same for everybody.
        row("POST /hooks/github/", "{}", [400, 400, 400], EVERY, 400, 400),
        // pub's only component shares demo's repository: nothing of its own to update.
        row("GET /hooks/update/pub/", "", [202, 202, 202], EVERY, 202, 202),
        row("GET /hooks/update/pub/app/", "", [202, 202, 202], EVERY, 202, 202),
        // The deprecated hooks serve public projects only (demo is private).
        row("GET /hooks/update/demo/", "", [404, 404, 404], EVERY, 404, 404),
        row("GET /hooks/update/demo/app/", "", [404, 404, 404], EVERY, 404, 404),
        // Operators' endpoints take no credentials and show no project.
        row("GET /healthz", "", [200, 200, 200], EVERY, 200, 200),
        row("GET /readyz", "", [200, 200, 200], EVERY, 200, 200),
        row("GET /metrics", "", [200, 200, 200], EVERY, 200, 200),
    ]
}

/// One caller: a column of the matrix.
struct Caller {
    /// How mismatches name it.
    name: String,
    /// What `{me}` stands for: its username (`target` for anonymous callers).
    username: String,
    token: Option<String>,
    /// Its role team, for role members.
    team: Option<i64>,
}

/// What a row expects of the caller at `column` (0 anonymous, 1 user,
/// 2 token, then the roles in `EVERY`'s order, last the superuser).
fn expected(row: &Row, column: usize) -> u16 {
    match column {
        0..=2 => row.outsiders[column],
        c if c == 3 + EVERY.len() => row.ok,
        c if row.roles.contains(&EVERY[c - 3]) => row.ok,
        _ => row.denied,
    }
}

/// The error code that must come with a refusal.
fn refusal_code(status: u16) -> Option<&'static str> {
    match status {
        401 => Some("not_authenticated"),
        403 => Some("permission_denied"),
        404 => Some("not_found"),
        _ => None,
    }
}

/// The text with every `{name}` of `vars` replaced; a placeholder left
/// over is a mistake in the matrix.
fn fill(text: &str, vars: &HashMap<&str, String>) -> String {
    let mut out = text.to_owned();
    for (name, value) in vars {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    let unfilled = out.split('{').skip(1).any(|rest| {
        rest.split_once('}').is_some_and(|(name, _)| {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
        })
    });
    assert!(!unfilled, "a placeholder left in {out}");
    out
}

/// `METHOD`, path and body of a request line.
fn split(line: &str) -> (Method, &str, &str) {
    let (method, rest) = line.split_once(' ').unwrap();
    let (path, body) = rest.split_once(' ').unwrap_or((rest, ""));
    (Method::from_bytes(method.as_bytes()).unwrap(), path, body)
}

/// A JSON body, or none for empty text.
fn body(text: &str) -> Body<'static> {
    if text.is_empty() {
        Body::None
    } else if let Some(fields) = text.strip_prefix("@image ") {
        // A multipart body: these text fields and a PNG as `image`.
        let fields: serde_json::Map<String, Value> =
            serde_json::from_str(fields).unwrap_or_else(|e| panic!("{e}: {text}"));
        let pairs: Vec<(String, String)> = fields
            .into_iter()
            .map(|(k, v)| (k, v.as_str().unwrap_or_default().to_owned()))
            .collect();
        let pairs: Vec<(&str, &str)> = pairs
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        common::multipart(&pairs, &[("image", "shot.png", &common::png(4))])
    } else {
        Body::Json(serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}")))
    }
}

/// The id in a JSON answer (of its first result, for a list), if any.
fn id_in(reply: &Reply) -> Option<String> {
    let value: Value = serde_json::from_slice(&reply.body).ok()?;
    value
        .get("id")
        .or_else(|| value.pointer("/results/0/id"))
        .map(Value::to_string)
        .or_else(|| {
            // A new screenshot answers without its id, as Weblate's: its link ends with it.
            let url = value.get("url")?.as_str()?.trim_end_matches('/');
            Some(url.rsplit('/').next()?.to_owned())
        })
}

/// A signed-in user (in the default site-wide teams) with a token.
fn user(ctx: &Ctx, username: &str) -> (i64, String) {
    let fields = UserFields {
        username: username.into(),
        full_name: username.into(),
        email: format!("{username}@example.com"),
        is_superuser: false,
        is_active: true,
        is_bot: false,
        date_expires: None,
    };
    let id = ctx
        .service
        .users()
        .create(&Subject::System, Ok(fields))
        .unwrap()
        .row
        .id;
    (id, ctx.service.auth().issue_user_token(id).unwrap())
}

/// The fixture's objects (placeholder values) and the callers.
struct Fixture {
    vars: HashMap<&'static str, String>,
    callers: Vec<Caller>,
}

/// Sends a request line as the superuser, which must succeed; its JSON answer.
async fn send<S: TestApp<B>, B: MessageBody>(app: &S, admin: &str, line: &str) -> Value {
    let (method, path, text) = split(line);
    let reply = call(app, method, path, Some(admin), body(text)).await;
    assert!(reply.status.is_success(), "{line}: {}", reply.text());
    reply.json()
}

/// Builds the fixture: private projects `demo` (a JSON component `app`
/// and a restricted one, `secret`, on the same repository), `shared` and
/// `other` (whose token is a caller); a public project `pub` sharing
/// `app`'s repository; a custom role, the user `target`, the team `Free`,
/// and one team and member per built-in role.
async fn fixture<S: TestApp<B>, B: MessageBody>(
    app: &S,
    ctx: &Ctx,
    upstream: &Upstream,
) -> Fixture {
    let admin = ctx.admin.as_str();
    let mut vars = HashMap::new();
    let mut project_ids = Vec::new();
    for slug in ["demo", "shared", "other", "pub"] {
        let access = if slug == "pub" { 0 } else { 100 };
        let line = format!(
            r#"POST /api/projects/ {{"name": "{slug}", "slug": "{slug}", "web": "https://{slug}.example/", "access_control": {access}}}"#
        );
        project_ids.push(send(app, admin, &line).await["id"].clone());
    }
    vars.insert("demo_id", project_ids[0].to_string());
    let line = format!(
        r#"POST /api/projects/demo/components/ {{"name": "App", "slug": "app", "repo": "{}", "filemask": "countries/*.json", "file_format": "json-nested", "template": "countries/en.json", "new_base": "countries/en.json"}}"#,
        upstream.url()
    );
    let component = send(app, admin, &line).await;
    vars.insert("component", component["id"].to_string());
    let task = component["task_url"]
        .as_str()
        .unwrap()
        .trim_end_matches('/');
    vars.insert("task", task.rsplit('/').next().unwrap().to_owned());
    send(app, admin, r#"POST /api/projects/demo/components/ {"name": "Secret", "slug": "secret", "repo": "weblate://demo/app", "filemask": "countries/*.json", "file_format": "json-nested", "template": "countries/en.json", "restricted": true}"#).await;
    send(app, admin, r#"POST /api/projects/pub/components/ {"name": "App", "slug": "app", "repo": "weblate://demo/app", "filemask": "countries/*.json", "file_format": "json-nested", "template": "countries/en.json"}"#).await;
    ctx.service.tasks().run_due().unwrap();
    for (name, path) in [
        ("unit", "/api/translations/demo/app/ar/units/"),
        ("source_unit", "/api/translations/demo/app/en/units/"),
        ("pub_unit", "/api/translations/pub/app/ar/units/"),
        ("change", "/api/projects/demo/changes/"),
    ] {
        let page = get_json(app, path, Some(admin)).await;
        vars.insert(name, page["results"][0]["id"].to_string());
    }
    send(
        app,
        admin,
        &format!(
            r#"PATCH /api/units/{}/ {{"state": 20, "target": ["Remembered"]}}"#,
            vars["unit"]
        ),
    )
    .await;
    send(
        app,
        admin,
        r#"PATCH /api/components/demo/app/ {"suggestion_voting": true}"#,
    )
    .await;
    let remembered = get_json(app, "/api/memory/?project=demo", Some(admin)).await;
    vars.insert("memory", remembered["results"][0]["id"].to_string());
    let teams = get_json(app, "/api/groups/?page_size=100", Some(admin)).await;
    let translate = teams["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| {
            t["name"] == "Translate"
                && t["defining_project"] == format!("http://{HOST}/api/projects/demo/")
        })
        .expect("demo's Translate team");
    vars.insert("team", translate["id"].to_string());
    let custom = send(
        app,
        admin,
        r#"POST /api/roles/ {"name": "Custom", "permissions": ["unit.edit"]}"#,
    )
    .await;
    vars.insert("role", custom["id"].to_string());
    let list = send(
        app,
        admin,
        r#"POST /api/component-lists/ {"name": "Featured", "slug": "featured"}"#,
    )
    .await;
    vars.insert("list", list["id"].to_string());
    let category = send(
        app,
        admin,
        r#"POST /api/categories/ {"name": "Cat", "slug": "cat", "project": "/api/projects/demo/"}"#,
    )
    .await;
    vars.insert("category", category["id"].to_string());
    let addon = send(
        app,
        admin,
        r#"POST /api/projects/demo/addons/ {"name": "weblate.git.squash"}"#,
    )
    .await;
    vars.insert("addon", addon["id"].to_string());
    let shot = send(
        app,
        admin,
        r#"POST /api/screenshots/ @image {"name": "Shot", "project_slug": "demo", "component_slug": "app", "language_code": "ar"}"#,
    )
    .await;
    let shot_url = shot["url"].as_str().unwrap().trim_end_matches('/');
    vars.insert(
        "screenshot",
        shot_url.rsplit('/').next().unwrap().to_owned(),
    );
    let line = format!(
        r#"POST /api/component-lists/featured/components/ {{"component_id": {}}}"#,
        vars["component"]
    );
    send(app, admin, &line).await;
    let (target_id, _) = user(ctx, "target");
    vars.insert("target_id", target_id.to_string());
    let subscription = send(app, admin, r#"POST /api/users/target/notifications/ {"notification": "NewAnnouncementNotificaton", "scope": 0, "frequency": 1}"#).await;
    vars.insert("subscription", subscription["id"].to_string());
    let free = send(
        app,
        admin,
        r#"POST /api/groups/ {"name": "Free", "project_selection": 0, "language_selection": 1}"#,
    )
    .await;
    let free_team = free["id"].as_i64().unwrap();
    vars.insert("free_team", free_team.to_string());
    join_team(app, Some(admin), "jane", free_team).await;
    let jane_id = get_json(app, "/api/users/jane/", Some(admin)).await["id"].clone();
    send(
        app,
        admin,
        &format!(r#"POST /api/groups/{free_team}/admins/ {{"user_id": {jane_id}}}"#),
    )
    .await;

    let token = send(
        app,
        admin,
        r#"POST /api/projects/other/tokens/ {"name": "other's token"}"#,
    )
    .await;
    let bot = get_json(app, "/api/users/?page_size=100", Some(admin)).await["results"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|u| {
            u["username"]
                .as_str()
                .filter(|name| name.starts_with("bot-other-"))
                .map(str::to_owned)
        })
        .expect("the token's bot");
    let mut callers = vec![
        Caller {
            name: "anonymous".into(),
            username: "target".into(),
            token: None,
            team: None,
        },
        Caller {
            name: "user".into(),
            username: "jane".into(),
            token: Some(ctx.jane.clone()),
            team: None,
        },
        Caller {
            name: "other project's token".into(),
            username: bot,
            token: Some(token["token_key"].as_str().unwrap().to_owned()),
            team: None,
        },
    ];
    let roles = get_json(app, "/api/roles/?page_size=100", Some(admin)).await;
    for (i, name) in EVERY.iter().enumerate() {
        let role = roles["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == *name)
            .unwrap();
        let username = format!("role-{i}");
        let (_, token) = user(ctx, &username);
        let line = format!(
            r#"POST /api/groups/ {{"name": "Role {name}", "project_selection": 0, "language_selection": 1}}"#
        );
        let team = send(app, admin, &line).await["id"].as_i64().unwrap();
        send(
            app,
            admin,
            &format!(
                r#"POST /api/groups/{team}/roles/ {{"role_id": {}}}"#,
                role["id"]
            ),
        )
        .await;
        for project in &project_ids[..2] {
            send(
                app,
                admin,
                &format!(r#"POST /api/groups/{team}/projects/ {{"project_id": {project}}}"#),
            )
            .await;
        }
        for group in [team, free_team] {
            join_team(app, Some(admin), &username, group).await;
        }
        callers.push(Caller {
            name: (*name).into(),
            username,
            token: Some(token),
            team: Some(team),
        });
    }
    callers.push(Caller {
        name: "superuser".into(),
        username: "admin".into(),
        token: Some(admin.into()),
        team: None,
    });
    Fixture { vars, callers }
}

/// Calls every row as every caller; what differs from the matrix.
async fn mismatches<S: TestApp<B>, B: MessageBody>(
    app: &S,
    admin: &str,
    fixture: Fixture,
) -> Vec<String> {
    let mut found = Vec::new();
    let mut n = 0;
    for row in matrix() {
        // A victim outlives the calls that fail to remove it.
        let mut vars = fixture.vars.clone();
        for (column, caller) in fixture.callers.iter().enumerate() {
            n += 1;
            vars.insert("n", n.to_string());
            vars.insert("me", caller.username.clone());
            match caller.team {
                Some(team) => vars.insert("my_team", team.to_string()),
                None => vars.remove("my_team"),
            };
            for line in row.setup {
                if line.contains("{my_team}") && caller.team.is_none() {
                    continue;
                }
                let (method, path, text) = split(line);
                let reply = call(
                    app,
                    method,
                    &fill(path, &vars),
                    Some(admin),
                    body(&fill(text, &vars)),
                )
                .await;
                if let Some(id) = id_in(&reply) {
                    vars.insert("id", id);
                }
            }
            let (method, path, _) = split(row.request);
            let reply = call(
                app,
                method,
                &fill(path, &vars),
                caller.token.as_deref(),
                body(&fill(row.body, &vars)),
            )
            .await;
            let (got, want) = (reply.status.as_u16(), expected(&row, column));
            let who = format!("{} as {}", row.request, caller.name);
            if got != want {
                let text: String = reply.text().chars().take(160).collect();
                found.push(format!("{who}: {got}, expected {want} ({text})"));
            } else if let Some(wanted) = refusal_code(got) {
                let code = serde_json::from_slice::<Value>(&reply.body)
                    .ok()
                    .map(|v| v["errors"][0]["code"].clone());
                if code != Some(Value::from(wanted)) {
                    found.push(format!("{who}: error code {code:?}, expected {wanted}"));
                }
            }
        }
    }
    found
}

#[actix_web::test]
async fn every_route_answers_every_caller_as_the_matrix_says() {
    for db in TestDb::all() {
        let upstream = upstream();
        let ctx = Ctx::with_config(db, ServiceConfig::local(upstream.root()));
        let app = actix_web::test::init_service(tolk_api::app(ctx.unthrottled_state())).await;
        let fixture = fixture(&app, &ctx, &upstream).await;
        let found = mismatches(&app, &ctx.admin, fixture).await;
        assert!(
            found.is_empty(),
            "{} mismatches:\n{}",
            found.len(),
            found.join("\n")
        );
    }
}

/// The route template (`/api/projects/{slug}/`) a concrete request path
/// (`/api/projects/demo/`) reaches: the one matching segment by segment
/// with the most literal segments.
fn template_of<'a>(path: &str, templates: &'a [String]) -> Option<&'a String> {
    let path = path.split_once('?').map_or(path, |(path, _)| path);
    let segments: Vec<&str> = path.split('/').collect();
    templates
        .iter()
        .filter(|t| {
            let parts: Vec<&str> = t.split('/').collect();
            parts.len() == segments.len()
                && parts
                    .iter()
                    .zip(&segments)
                    .all(|(p, s)| p.starts_with('{') || p == s)
        })
        .max_by_key(|t| t.split('/').filter(|p| !p.starts_with('{')).count())
}

#[test]
fn the_matrix_covers_every_route() {
    let document = tolk_api::openapi::document();
    let templates: Vec<String> = document.paths.paths.keys().cloned().collect();
    let mut served = Vec::new();
    for (path, item) in &document.paths.paths {
        for (method, operation) in [
            ("GET", &item.get),
            ("POST", &item.post),
            ("PUT", &item.put),
            ("PATCH", &item.patch),
            ("DELETE", &item.delete),
        ] {
            if operation.is_some() {
                served.push(format!("{method} {path}"));
            }
        }
    }
    let mut covered = Vec::new();
    for row in matrix() {
        let (method, path, _) = split(row.request);
        let template = template_of(path, &templates)
            .unwrap_or_else(|| panic!("{} reaches no route", row.request));
        covered.push(format!("{method} {template}"));
    }
    let missing: Vec<&String> = served.iter().filter(|r| !covered.contains(r)).collect();
    assert!(
        missing.is_empty(),
        "routes missing from the matrix: {missing:#?}"
    );
    let stray: Vec<&String> = covered.iter().filter(|r| !served.contains(r)).collect();
    assert!(
        stray.is_empty(),
        "rows for methods no route serves: {stray:#?}"
    );
}
