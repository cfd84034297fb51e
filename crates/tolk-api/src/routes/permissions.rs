//! The one table of what every route checks before it acts, read by
//! people (and `docs/permissions.md`) and kept complete by a test that
//! walks the OpenAPI document: a route missing here fails the build's
//! tests. Requests from anonymous callers to routes that need a signed-in
//! caller stop here (401, before the body is read); the use-cases in
//! `tolk-service` make the permission checks, with `Subject::can`.

use tolk_domain::permission::Permission;

/// What a route asks of its caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// Nothing: anyone may call it.
    Public,
    /// A signed-in caller.
    SignedIn,
    /// Anyone; only what the caller may see is listed.
    Listed,
    /// Anyone who may see the object (hidden objects are 404).
    Visible,
    /// The permission on the object, which must be visible first (403 when
    /// it is visible but the permission is missing, 404 when hidden).
    On(Permission),
    /// The permission on the object, which anonymous callers may hold too
    /// (guests download public translations): no sign-in needed to read.
    Open(Permission),
    /// The permission on the object, which anonymous callers may use to
    /// write too (guests suggest translations of public projects).
    Guest(Permission),
    /// A repository: for status any of `vcs.push`, `vcs.commit`,
    /// `vcs.reset`, `vcs.update`, for an operation its own, on every
    /// component of the repository; the status is refused with 403 even to
    /// anonymous callers, as Weblate does, operations need a sign-in.
    Repository,
    /// The permission site-wide.
    Site(Permission),
    /// One's own account, or the permission site-wide.
    OwnOr(Permission),
    /// A team's editors: `group.edit`, or `project.permissions` on the
    /// team's project (Weblate's `meta:team.edit`).
    Team,
    /// A team's editors and its admins (Weblate's `meta:team.users`).
    TeamUsers,
    /// An add-on: `component.edit` on its component, or `project.edit`
    /// on its project; those without it do not see it (404).
    Managed,
}

/// Every route: method, path (as the OpenAPI document writes it) and check.
pub const ROUTES: &[(&str, &str, Check)] = &[
    ("GET", "/api/groups/", Check::Listed),
    ("POST", "/api/groups/", Check::SignedIn),
    ("GET", "/api/groups/{id}/", Check::Visible),
    ("PUT", "/api/groups/{id}/", Check::Team),
    ("PATCH", "/api/groups/{id}/", Check::Team),
    ("DELETE", "/api/groups/{id}/", Check::Team),
    ("POST", "/api/groups/{id}/roles/", Check::Team),
    ("DELETE", "/api/groups/{id}/roles/{role_id}/", Check::Team),
    ("POST", "/api/groups/{id}/languages/", Check::Team),
    (
        "DELETE",
        "/api/groups/{id}/languages/{language_code}/",
        Check::Team,
    ),
    ("POST", "/api/groups/{id}/projects/", Check::Team),
    (
        "DELETE",
        "/api/groups/{id}/projects/{project_id}/",
        Check::Team,
    ),
    ("POST", "/api/groups/{id}/components/", Check::Team),
    (
        "DELETE",
        "/api/groups/{id}/components/{component_id}/",
        Check::Team,
    ),
    ("POST", "/api/groups/{id}/componentlists/", Check::Team),
    (
        "DELETE",
        "/api/groups/{id}/componentlists/{component_list_id}/",
        Check::Team,
    ),
    ("POST", "/api/groups/{id}/admins/", Check::TeamUsers),
    (
        "DELETE",
        "/api/groups/{id}/admins/{user_id}/",
        Check::TeamUsers,
    ),
    (
        "POST",
        "/api/users/{username}/groups/",
        Check::Site(Permission::USER_EDIT),
    ),
    (
        "DELETE",
        "/api/users/{username}/groups/",
        Check::Site(Permission::USER_EDIT),
    ),
    (
        "GET",
        "/api/projects/{slug}/tokens/",
        Check::On(Permission::PROJECT_PERMISSIONS),
    ),
    (
        "POST",
        "/api/projects/{slug}/tokens/",
        Check::On(Permission::PROJECT_PERMISSIONS),
    ),
    (
        "DELETE",
        "/api/projects/{slug}/tokens/{id}/",
        Check::On(Permission::PROJECT_PERMISSIONS),
    ),
    ("GET", "/api/categories/", Check::Listed),
    (
        "POST",
        "/api/categories/",
        Check::On(Permission::PROJECT_EDIT),
    ),
    ("GET", "/api/categories/{id}/", Check::Visible),
    (
        "PUT",
        "/api/categories/{id}/",
        Check::On(Permission::PROJECT_EDIT),
    ),
    (
        "PATCH",
        "/api/categories/{id}/",
        Check::On(Permission::PROJECT_EDIT),
    ),
    (
        "DELETE",
        "/api/categories/{id}/",
        Check::On(Permission::PROJECT_EDIT),
    ),
    ("GET", "/api/categories/{id}/statistics/", Check::Visible),
    ("GET", "/api/projects/{slug}/categories/", Check::Visible),
    ("GET", "/api/addons/", Check::Listed),
    ("GET", "/api/addons/{id}/", Check::Managed),
    ("PUT", "/api/addons/{id}/", Check::Managed),
    ("PATCH", "/api/addons/{id}/", Check::Managed),
    ("DELETE", "/api/addons/{id}/", Check::Managed),
    ("POST", "/api/addons/{id}/trigger/", Check::Managed),
    (
        "POST",
        "/api/components/{project}/{component}/addons/",
        Check::On(Permission::COMPONENT_EDIT),
    ),
    (
        "POST",
        "/api/projects/{slug}/addons/",
        Check::On(Permission::PROJECT_EDIT),
    ),
    ("GET", "/api/screenshots/", Check::Listed),
    (
        "POST",
        "/api/screenshots/",
        Check::On(Permission::SCREENSHOT_ADD),
    ),
    ("GET", "/api/screenshots/{id}/", Check::Visible),
    (
        "PUT",
        "/api/screenshots/{id}/",
        Check::On(Permission::SCREENSHOT_EDIT),
    ),
    (
        "PATCH",
        "/api/screenshots/{id}/",
        Check::On(Permission::SCREENSHOT_EDIT),
    ),
    (
        "DELETE",
        "/api/screenshots/{id}/",
        Check::On(Permission::SCREENSHOT_DELETE),
    ),
    ("GET", "/api/screenshots/{id}/file/", Check::Visible),
    (
        "POST",
        "/api/screenshots/{id}/file/",
        Check::On(Permission::SCREENSHOT_EDIT),
    ),
    (
        "PUT",
        "/api/screenshots/{id}/file/",
        Check::On(Permission::SCREENSHOT_EDIT),
    ),
    (
        "POST",
        "/api/screenshots/{id}/units/",
        Check::On(Permission::SCREENSHOT_EDIT),
    ),
    (
        "DELETE",
        "/api/screenshots/{id}/units/{unit_id}/",
        Check::On(Permission::SCREENSHOT_EDIT),
    ),
    (
        "GET",
        "/api/components/{project}/{component}/screenshots/",
        Check::Visible,
    ),
    ("GET", "/api/component-lists/", Check::Listed),
    (
        "POST",
        "/api/component-lists/",
        Check::Site(Permission::COMPONENTLIST_EDIT),
    ),
    ("GET", "/api/component-lists/{slug}/", Check::Visible),
    (
        "PUT",
        "/api/component-lists/{slug}/",
        Check::Site(Permission::COMPONENTLIST_EDIT),
    ),
    (
        "PATCH",
        "/api/component-lists/{slug}/",
        Check::Site(Permission::COMPONENTLIST_EDIT),
    ),
    (
        "DELETE",
        "/api/component-lists/{slug}/",
        Check::Site(Permission::COMPONENTLIST_EDIT),
    ),
    (
        "GET",
        "/api/component-lists/{slug}/components/",
        Check::Visible,
    ),
    (
        "POST",
        "/api/component-lists/{slug}/components/",
        Check::Site(Permission::COMPONENTLIST_EDIT),
    ),
    (
        "DELETE",
        "/api/component-lists/{slug}/components/{component_slug}/",
        Check::Site(Permission::COMPONENTLIST_EDIT),
    ),
    (
        "GET",
        "/api/projects/{slug}/languages/{language}/workflow/",
        Check::Visible,
    ),
    (
        "PATCH",
        "/api/projects/{slug}/languages/{language}/workflow/",
        Check::On(Permission::PROJECT_EDIT),
    ),
    (
        "DELETE",
        "/api/projects/{slug}/languages/{language}/workflow/",
        Check::On(Permission::PROJECT_EDIT),
    ),
    ("GET", "/api/projects/{slug}/metrics/", Check::Visible),
    ("GET", "/api/projects/{slug}/labels/", Check::Visible),
    (
        "POST",
        "/api/projects/{slug}/labels/",
        Check::On(Permission::PROJECT_EDIT),
    ),
    (
        "DELETE",
        "/api/projects/{slug}/labels/{id}/",
        Check::On(Permission::PROJECT_EDIT),
    ),
    ("GET", "/api/projects/{slug}/announcements/", Check::Visible),
    (
        "POST",
        "/api/projects/{slug}/announcements/",
        Check::On(Permission::ANNOUNCEMENT_ADD),
    ),
    (
        "DELETE",
        "/api/projects/{slug}/announcements/{announcement_id}/",
        Check::On(Permission::ANNOUNCEMENT_DELETE),
    ),
    (
        "GET",
        "/api/projects/{slug}/languages/{language_code}/announcements/",
        Check::Visible,
    ),
    (
        "POST",
        "/api/projects/{slug}/languages/{language_code}/announcements/",
        Check::On(Permission::ANNOUNCEMENT_ADD),
    ),
    (
        "DELETE",
        "/api/projects/{slug}/languages/{language_code}/announcements/{announcement_id}/",
        Check::On(Permission::ANNOUNCEMENT_DELETE),
    ),
    ("GET", "/api/categories/{id}/announcements/", Check::Visible),
    (
        "POST",
        "/api/categories/{id}/announcements/",
        Check::On(Permission::ANNOUNCEMENT_ADD),
    ),
    (
        "DELETE",
        "/api/categories/{id}/announcements/{announcement_id}/",
        Check::On(Permission::ANNOUNCEMENT_DELETE),
    ),
    (
        "GET",
        "/api/components/{project}/{component}/announcements/",
        Check::Visible,
    ),
    (
        "POST",
        "/api/components/{project}/{component}/announcements/",
        Check::On(Permission::ANNOUNCEMENT_ADD),
    ),
    (
        "DELETE",
        "/api/components/{project}/{component}/announcements/{announcement_id}/",
        Check::On(Permission::ANNOUNCEMENT_DELETE),
    ),
    (
        "GET",
        "/api/translations/{project}/{component}/{language}/announcements/",
        Check::Visible,
    ),
    (
        "POST",
        "/api/translations/{project}/{component}/{language}/announcements/",
        Check::On(Permission::ANNOUNCEMENT_ADD),
    ),
    (
        "DELETE",
        "/api/translations/{project}/{component}/{language}/announcements/{announcement_id}/",
        Check::On(Permission::ANNOUNCEMENT_DELETE),
    ),
    (
        "POST",
        "/api/users/{username}/token/",
        Check::OwnOr(Permission::USER_EDIT),
    ),
    (
        "DELETE",
        "/api/users/{username}/token/",
        Check::OwnOr(Permission::USER_EDIT),
    ),
    (
        "GET",
        "/api/users/{username}/notifications/",
        Check::OwnOr(Permission::USER_EDIT),
    ),
    (
        "POST",
        "/api/users/{username}/notifications/",
        Check::OwnOr(Permission::USER_EDIT),
    ),
    (
        "GET",
        "/api/users/{username}/notifications/{id}/",
        Check::OwnOr(Permission::USER_EDIT),
    ),
    (
        "PUT",
        "/api/users/{username}/notifications/{id}/",
        Check::OwnOr(Permission::USER_EDIT),
    ),
    (
        "PATCH",
        "/api/users/{username}/notifications/{id}/",
        Check::OwnOr(Permission::USER_EDIT),
    ),
    (
        "DELETE",
        "/api/users/{username}/notifications/{id}/",
        Check::OwnOr(Permission::USER_EDIT),
    ),
    ("GET", "/api/users/{username}/statistics/", Check::Visible),
    (
        "GET",
        "/api/users/{username}/contributions/",
        Check::Visible,
    ),
    ("GET", "/api/roles/", Check::Listed),
    ("POST", "/api/roles/", Check::Site(Permission::ROLE_EDIT)),
    ("GET", "/api/roles/{id}/", Check::Visible),
    (
        "PUT",
        "/api/roles/{id}/",
        Check::Site(Permission::ROLE_EDIT),
    ),
    (
        "PATCH",
        "/api/roles/{id}/",
        Check::Site(Permission::ROLE_EDIT),
    ),
    (
        "DELETE",
        "/api/roles/{id}/",
        Check::Site(Permission::ROLE_EDIT),
    ),
    ("GET", "/api/", Check::Public),
    ("GET", "/api/metrics/", Check::SignedIn),
    ("GET", "/api/changes/", Check::Listed),
    ("GET", "/api/changes/{id}/", Check::Visible),
    ("GET", "/api/components/", Check::Listed),
    (
        "GET",
        "/api/components/{project}/{component}/",
        Check::Visible,
    ),
    (
        "PUT",
        "/api/components/{project}/{component}/",
        Check::On(Permission::COMPONENT_EDIT),
    ),
    (
        "PATCH",
        "/api/components/{project}/{component}/",
        Check::On(Permission::COMPONENT_EDIT),
    ),
    (
        "DELETE",
        "/api/components/{project}/{component}/",
        Check::On(Permission::COMPONENT_EDIT),
    ),
    (
        "GET",
        "/api/components/{project}/{component}/changes/",
        Check::Visible,
    ),
    (
        "GET",
        "/api/components/{project}/{component}/links/",
        Check::Visible,
    ),
    (
        "POST",
        "/api/components/{project}/{component}/links/",
        Check::On(Permission::COMPONENT_EDIT),
    ),
    (
        "DELETE",
        "/api/components/{project}/{component}/links/{project_slug}/",
        Check::On(Permission::COMPONENT_EDIT),
    ),
    (
        "GET",
        "/api/components/{project}/{component}/lock/",
        Check::Visible,
    ),
    (
        "POST",
        "/api/components/{project}/{component}/lock/",
        Check::On(Permission::COMPONENT_LOCK),
    ),
    (
        "GET",
        "/api/components/{project}/{component}/monolingual_base/",
        Check::Open(Permission::TRANSLATION_DOWNLOAD),
    ),
    (
        "GET",
        "/api/components/{project}/{component}/new_template/",
        Check::Open(Permission::TRANSLATION_DOWNLOAD),
    ),
    (
        "GET",
        "/api/components/{project}/{component}/repository/",
        Check::Repository,
    ),
    (
        "POST",
        "/api/components/{project}/{component}/repository/",
        Check::Repository,
    ),
    (
        "GET",
        "/api/components/{project}/{component}/statistics/",
        Check::Visible,
    ),
    (
        "GET",
        "/api/components/{project}/{component}/translations/",
        Check::Visible,
    ),
    (
        "POST",
        "/api/components/{project}/{component}/translations/",
        Check::On(Permission::TRANSLATION_ADD),
    ),
    ("GET", "/api/languages/", Check::Listed),
    (
        "POST",
        "/api/languages/",
        Check::Site(Permission::LANGUAGE_EDIT),
    ),
    ("GET", "/api/languages/{code}/", Check::Visible),
    (
        "PUT",
        "/api/languages/{code}/",
        Check::On(Permission::LANGUAGE_EDIT),
    ),
    (
        "PATCH",
        "/api/languages/{code}/",
        Check::On(Permission::LANGUAGE_EDIT),
    ),
    (
        "DELETE",
        "/api/languages/{code}/",
        Check::On(Permission::LANGUAGE_EDIT),
    ),
    ("GET", "/api/languages/{code}/statistics/", Check::Visible),
    ("GET", "/api/projects/", Check::Listed),
    (
        "POST",
        "/api/projects/",
        Check::Site(Permission::PROJECT_ADD),
    ),
    ("GET", "/api/projects/{slug}/", Check::Visible),
    (
        "PUT",
        "/api/projects/{slug}/",
        Check::On(Permission::PROJECT_EDIT),
    ),
    (
        "PATCH",
        "/api/projects/{slug}/",
        Check::On(Permission::PROJECT_EDIT),
    ),
    (
        "DELETE",
        "/api/projects/{slug}/",
        Check::On(Permission::PROJECT_EDIT),
    ),
    ("GET", "/api/projects/{slug}/changes/", Check::Visible),
    ("GET", "/api/projects/{slug}/languages/", Check::Visible),
    ("GET", "/api/projects/{slug}/statistics/", Check::Visible),
    ("GET", "/api/projects/{slug}/components/", Check::Visible),
    (
        "POST",
        "/api/projects/{slug}/components/",
        Check::On(Permission::PROJECT_EDIT),
    ),
    ("GET", "/api/projects/{slug}/repository/", Check::Repository),
    (
        "POST",
        "/api/projects/{slug}/repository/",
        Check::Repository,
    ),
    ("GET", "/api/units/{id}/screenshots/", Check::Visible),
    (
        "POST",
        "/api/units/{id}/screenshots/",
        Check::On(Permission::SCREENSHOT_EDIT),
    ),
    (
        "DELETE",
        "/api/units/{id}/screenshots/{screenshot_id}/",
        Check::On(Permission::SCREENSHOT_EDIT),
    ),
    ("GET", "/api/tasks/{id}/", Check::Visible),
    (
        "DELETE",
        "/api/tasks/{id}/",
        Check::On(Permission::COMPONENT_EDIT),
    ),
    ("GET", "/api/translations/", Check::Listed),
    (
        "GET",
        "/api/translations/{project}/{component}/{language}/",
        Check::Visible,
    ),
    (
        "DELETE",
        "/api/translations/{project}/{component}/{language}/",
        Check::On(Permission::TRANSLATION_DELETE),
    ),
    (
        "GET",
        "/api/translations/{project}/{component}/{language}/changes/",
        Check::Visible,
    ),
    (
        "GET",
        "/api/translations/{project}/{component}/{language}/file/",
        Check::Open(Permission::TRANSLATION_DOWNLOAD),
    ),
    (
        "GET",
        "/api/components/{project}/{component}/file/",
        Check::Open(Permission::TRANSLATION_DOWNLOAD),
    ),
    (
        "GET",
        "/api/projects/{slug}/file/",
        Check::Open(Permission::TRANSLATION_DOWNLOAD),
    ),
    (
        "GET",
        "/api/projects/{slug}/languages/{code}/file/",
        Check::Open(Permission::TRANSLATION_DOWNLOAD),
    ),
    ("GET", "/api/projects/{slug}/lock/", Check::Visible),
    (
        "POST",
        "/api/projects/{slug}/lock/",
        Check::On(Permission::PROJECT_EDIT),
    ),
    ("GET", "/exports/stats/{project}/", Check::Visible),
    ("GET", "/exports/rss/", Check::Listed),
    ("GET", "/exports/rss/language/{code}/", Check::Listed),
    ("GET", "/exports/rss/{project}/", Check::Visible),
    ("GET", "/exports/rss/{project}/{component}/", Check::Visible),
    (
        "GET",
        "/exports/rss/{project}/{component}/{language}/",
        Check::Visible,
    ),
    (
        "GET",
        "/exports/stats/{project}/{component}/",
        Check::Visible,
    ),
    (
        "POST",
        "/api/translations/{project}/{component}/{language}/file/",
        Check::On(Permission::UPLOAD_PERFORM),
    ),
    (
        "PUT",
        "/api/translations/{project}/{component}/{language}/file/",
        Check::On(Permission::UPLOAD_PERFORM),
    ),
    (
        "GET",
        "/api/translations/{project}/{component}/{language}/repository/",
        Check::Repository,
    ),
    (
        "POST",
        "/api/translations/{project}/{component}/{language}/repository/",
        Check::Repository,
    ),
    (
        "GET",
        "/api/translations/{project}/{component}/{language}/statistics/",
        Check::Visible,
    ),
    (
        "GET",
        "/api/translations/{project}/{component}/{language}/units/",
        Check::Visible,
    ),
    (
        "PATCH",
        "/api/translations/{project}/{component}/{language}/units/",
        Check::On(Permission::UNIT_EDIT),
    ),
    (
        "POST",
        "/api/translations/{project}/{component}/{language}/units/",
        Check::On(Permission::UNIT_ADD),
    ),
    (
        "POST",
        "/api/translations/{project}/{component}/{language}/autotranslate/",
        Check::On(Permission::TRANSLATION_AUTO),
    ),
    ("GET", "/api/units/", Check::Listed),
    ("GET", "/api/units/{id}/", Check::Visible),
    ("PUT", "/api/units/{id}/", Check::On(Permission::UNIT_EDIT)),
    (
        "PATCH",
        "/api/units/{id}/",
        Check::On(Permission::UNIT_EDIT),
    ),
    (
        "DELETE",
        "/api/units/{id}/",
        Check::On(Permission::UNIT_DELETE),
    ),
    ("GET", "/api/search/", Check::Listed),
    ("GET", "/api/memory/", Check::SignedIn),
    ("POST", "/api/memory/lookup/", Check::SignedIn),
    ("GET", "/api/memory/{id}/", Check::SignedIn),
    ("DELETE", "/api/memory/{id}/", Check::SignedIn),
    ("GET", "/api/suggestions/", Check::Listed),
    ("GET", "/api/suggestions/{id}/", Check::Visible),
    ("DELETE", "/api/suggestions/{id}/", Check::SignedIn),
    (
        "POST",
        "/api/suggestions/{id}/vote/",
        Check::On(Permission::SUGGESTION_VOTE),
    ),
    (
        "POST",
        "/api/suggestions/{id}/accept/",
        Check::On(Permission::SUGGESTION_ACCEPT),
    ),
    ("GET", "/api/units/{id}/translations/", Check::Visible),
    ("GET", "/api/units/{id}/suggestions/", Check::Visible),
    (
        "POST",
        "/api/units/{id}/suggestions/",
        Check::Guest(Permission::SUGGESTION_ADD),
    ),
    ("GET", "/api/units/{id}/comments/", Check::Visible),
    (
        "POST",
        "/api/units/{id}/comments/",
        Check::On(Permission::COMMENT_ADD),
    ),
    ("GET", "/api/users/", Check::Listed),
    ("POST", "/hooks/{service}/", Check::Public),
    ("GET", "/hooks/update/{project}/", Check::Public),
    ("GET", "/hooks/update/{project}/{component}/", Check::Public),
    ("GET", "/healthz", Check::Public),
    ("GET", "/readyz", Check::Public),
    ("GET", "/metrics", Check::Public),
    ("POST", "/api/users/", Check::Site(Permission::USER_EDIT)),
    ("GET", "/api/users/{username}/", Check::Visible),
    (
        "PUT",
        "/api/users/{username}/",
        Check::OwnOr(Permission::USER_EDIT),
    ),
    (
        "PATCH",
        "/api/users/{username}/",
        Check::OwnOr(Permission::USER_EDIT),
    ),
    (
        "DELETE",
        "/api/users/{username}/",
        Check::Site(Permission::USER_EDIT),
    ),
];

impl Check {
    /// True when anonymous callers are turned away before anything else
    /// (401): always, except on public routes and on reads (`safe`) that
    /// anonymous callers may make.
    pub fn needs_sign_in(self, safe: bool) -> bool {
        match self {
            Check::Public | Check::Guest(_) => false,
            Check::Listed
            | Check::Visible
            | Check::Open(_)
            | Check::Repository
            | Check::Managed => !safe,
            _ => true,
        }
    }
}

/// The check of a route, if it is in the table.
pub fn check(method: &str, path: &str) -> Option<Check> {
    ROUTES
        .iter()
        .find(|(m, p, _)| *m == method && *p == path)
        .map(|(_, _, check)| *check)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_has_exactly_one_entry() {
        let document = crate::openapi::document();
        let mut served: Vec<(String, String)> = Vec::new();
        for (path, item) in &document.paths.paths {
            let operations = [
                ("GET", &item.get),
                ("POST", &item.post),
                ("PUT", &item.put),
                ("PATCH", &item.patch),
                ("DELETE", &item.delete),
            ];
            for (method, operation) in operations {
                if operation.is_some() {
                    served.push((method.to_owned(), path.clone()));
                }
            }
        }
        let missing: Vec<&(String, String)> = served
            .iter()
            .filter(|(m, p)| check(m, p).is_none())
            .collect();
        assert!(missing.is_empty(), "routes without a check: {missing:?}");
        let stale: Vec<_> = ROUTES
            .iter()
            .filter(|(m, p, _)| !served.iter().any(|(sm, sp)| sm == m && sp == p))
            .collect();
        assert!(
            stale.is_empty(),
            "checks of routes that do not exist: {stale:?}"
        );
        let mut keys: Vec<(&str, &str)> = ROUTES.iter().map(|(m, p, _)| (*m, *p)).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), ROUTES.len(), "a route listed twice");
    }
}
