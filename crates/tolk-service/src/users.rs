//! User accounts: who sees whom, creating, editing and removing accounts.

use serde_json::json;
use tolk_domain::change::Action;
use tolk_domain::permission::{Permission, Subject, Target};
use tolk_domain::user::{ANONYMOUS_USERNAME, ProfileSettings, UserFields};
use tolk_domain::validation::FieldErrors;
use tolk_store::changes::{self, NewChange};
use tolk_store::users::{self, Identity, ProfileLinks, UserFilter, UserRow};
use tolk_store::{DbConnection, Page, PageRequest, languages, projects, time, tokens};

use crate::access::{page, require};
use crate::conflict::{Unique, unique_violation};
use crate::{ServiceError, ServiceResult};

const DENIED: &str = "Can not manage Users";
/// Refusal to change an account Tolk runs itself (anonymous, project tokens' bots).
const NOT_EDITABLE: &str = "This user can not be edited.";

/// The account fields no two accounts share, whatever their case.
const USERNAME: Unique = Unique {
    attr: "username",
    model: "User",
    label: "Username",
};
const EMAIL: Unique = Unique {
    attr: "email",
    model: "User",
    label: "Email",
};

/// Reports a username or e-mail another account than `except` already has.
fn check_identity(
    conn: &mut DbConnection,
    fields: &UserFields,
    except: Option<i64>,
    errors: &mut FieldErrors,
) -> ServiceResult<()> {
    for (field, kind, value) in [
        (USERNAME, Identity::Username, &fields.username),
        (EMAIL, Identity::Email, &fields.email),
    ] {
        if !errors.has(field.attr) && users::identity_taken(conn, kind, value, except)? {
            field.report(errors);
        }
    }
    Ok(())
}

/// Refuses to leave the site without an active superuser: `attr` names
/// the field whose change would (null for a removal).
fn keep_a_superuser(
    conn: &mut DbConnection,
    user_id: i64,
    attr: Option<&str>,
) -> ServiceResult<()> {
    let others = users::lock_active_superusers(conn)?
        .into_iter()
        .any(|id| id != user_id);
    if others {
        return Ok(());
    }
    let detail = "This is the last active superuser; make another account a superuser first.";
    let mut errors = FieldErrors::default();
    match attr {
        Some(attr) => errors.invalid(attr, detail),
        None => errors.general("invalid", detail),
    }
    Err(errors.into())
}

/// How much of an account the caller may see.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// Id, username and full name.
    Basic,
    /// Everything, for user managers.
    Full,
}

/// An account as shown to a caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserView {
    /// The stored account.
    pub row: UserRow,
    /// Profile preferences.
    pub settings: ProfileSettings,
    /// Profile languages and the watched projects the caller may see.
    pub links: ProfileLinks,
    /// Ids of the account's teams.
    pub teams: Vec<i64>,
}

/// What a list of users is filtered by, as the client asked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserQuery {
    /// Only this id.
    pub id: Option<i64>,
    /// Usernames starting with this.
    pub username: Option<String>,
    /// Only active or inactive accounts.
    pub is_active: Option<bool>,
    /// E-mail (honoured for user managers only).
    pub email: Option<String>,
}

/// The editable state of an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserState {
    /// Identity fields.
    pub fields: UserFields,
    /// Profile preferences.
    pub settings: ProfileSettings,
    /// Codes of translated languages.
    pub languages: Vec<String>,
    /// Codes of secondary languages.
    pub secondary_languages: Vec<String>,
    /// Slugs of watched projects.
    pub watched: Vec<String>,
}

/// May this caller see and manage every account?
pub fn manages_users(subject: &Subject) -> bool {
    subject.can(Permission::USER_VIEW, Target::Site)
        || subject.can(Permission::USER_EDIT, Target::Site)
}

fn detail(subject: &Subject) -> Detail {
    if manages_users(subject) {
        Detail::Full
    } else {
        Detail::Basic
    }
}

/// Adds profile data to account rows, hiding watched projects the caller may not see.
fn views(
    conn: &mut DbConnection,
    subject: &Subject,
    rows: Vec<UserRow>,
) -> ServiceResult<Vec<UserView>> {
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let mut links = users::profile_links(conn, &ids)?;
    let mut teams = tolk_store::teams::of_users(conn, &ids)?;
    let visibility = subject.project_visibility();
    rows.into_iter()
        .map(|row| {
            let mut row_links = links.remove(&row.id).unwrap_or_default();
            row_links
                .watched
                .retain(|(_, project)| visibility.allows(*project));
            Ok(UserView {
                settings: row.settings()?,
                links: row_links,
                teams: teams.remove(&row.id).unwrap_or_default(),
                row,
            })
        })
        .collect()
}

/// The account `username` if the caller may see it (anonymous callers see none).
pub(crate) fn visible_user(
    conn: &mut DbConnection,
    subject: &Subject,
    username: &str,
) -> ServiceResult<(UserView, Detail)> {
    if !subject.is_authenticated() {
        return Err(ServiceError::NotFound);
    }
    let row = users::get_by_username(conn, username)?.ok_or(ServiceError::NotFound)?;
    let view = views(conn, subject, vec![row])?
        .pop()
        .ok_or(ServiceError::NotFound)?;
    Ok((view, detail(subject)))
}

/// The account `username` if the caller may change it: user managers may
/// change any but the built-in anonymous one; with `own`, users may change
/// their own.
pub(crate) fn editable_user(
    conn: &mut DbConnection,
    subject: &Subject,
    username: &str,
    own: bool,
) -> ServiceResult<(UserView, Detail)> {
    let (view, detail) = visible_user(conn, subject, username)?;
    let is_own = own && subject.user_id() == Some(view.row.id);
    if !is_own {
        require(subject, Permission::USER_EDIT, Target::Site, DENIED)?;
    }
    if view.row.username == ANONYMOUS_USERNAME {
        return Err(ServiceError::PermissionDenied(NOT_EDITABLE.into()));
    }
    Ok((view, detail))
}

fn state(view: &UserView) -> UserState {
    UserState {
        fields: view.row.fields(),
        settings: view.settings.clone(),
        languages: view.links.languages.clone(),
        secondary_languages: view.links.secondary_languages.clone(),
        watched: view
            .links
            .watched
            .iter()
            .map(|(slug, _)| slug.clone())
            .collect(),
    }
}

/// Resolves language codes to ids, reporting unknown ones on `attr`.
fn language_ids(
    conn: &mut DbConnection,
    codes: &[String],
    attr: &str,
    errors: &mut FieldErrors,
) -> ServiceResult<Vec<i64>> {
    let rows = languages::get_by_codes(conn, codes)?;
    let missing: Vec<&str> = codes
        .iter()
        .filter(|c| !rows.iter().any(|r| &&r.code == c))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        errors.invalid(attr, &format!("Invalid value: {}", missing.join(", ")));
    }
    Ok(codes
        .iter()
        .filter_map(|c| rows.iter().find(|r| &r.code == c).map(|r| r.id))
        .collect())
}

/// Resolves project slugs the caller may see to ids.
fn project_ids(
    conn: &mut DbConnection,
    subject: &Subject,
    slugs: &[String],
    errors: &mut FieldErrors,
) -> ServiceResult<Vec<i64>> {
    let visibility = subject.project_visibility();
    let found: Vec<_> = projects::get_by_slugs(conn, slugs)?
        .into_iter()
        .filter(|p| visibility.allows(p.as_ref()))
        .collect();
    let ids = slugs
        .iter()
        .filter_map(|s| found.iter().find(|p| &p.settings.slug == s).map(|p| p.id))
        .collect();
    let missing: Vec<&str> = slugs
        .iter()
        .filter(|s| !found.iter().any(|p| &&p.settings.slug == s))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        errors.invalid(
            "profile.watched",
            &format!("Invalid value: {}", missing.join(", ")),
        );
    }
    Ok(ids)
}

crate::service::area!(
    /// The use-cases of user accounts.
    Users,
    users
);

impl Users<'_> {
    /// Lists accounts: everything for user managers, only oneself (or
    /// usernames starting with at least two given characters) for other
    /// users, nothing for anonymous callers.
    pub fn list(
        &self,
        subject: &Subject,
        query: UserQuery,
        request: PageRequest,
    ) -> ServiceResult<(Page<UserView>, Detail)> {
        let detail = detail(subject);
        let mut filter = UserFilter {
            id: query.id,
            username_prefix: query.username.clone(),
            is_active: query.is_active,
            email: None,
        };
        match (detail, subject.user_id()) {
            (Detail::Full, _) => filter.email = query.email,
            (Detail::Basic, Some(own_id)) => {
                let long_prefix = query
                    .username
                    .as_ref()
                    .is_some_and(|u| u.chars().count() >= 2);
                if !long_prefix {
                    filter.username_prefix = None;
                    filter.id = match query.id {
                        Some(id) if id != own_id => Some(-1),
                        _ => Some(own_id),
                    };
                }
            }
            (Detail::Basic, None) => filter.id = Some(-1),
        }
        self.store.read(|conn| {
            let found = page(users::list(conn, &filter, request))?;
            Ok((
                found.try_map_items(|rows| views(conn, subject, rows))?,
                detail,
            ))
        })
    }

    /// One account by username; anonymous callers see none.
    pub fn get(&self, subject: &Subject, username: &str) -> ServiceResult<(UserView, Detail)> {
        self.store
            .read(|conn| visible_user(conn, subject, username))
    }

    /// Creates an account.
    pub fn create(
        &self,
        subject: &Subject,
        fields: Result<UserFields, FieldErrors>,
    ) -> ServiceResult<UserView> {
        require(subject, Permission::USER_EDIT, Target::Site, DENIED)?;
        let fields = fields?;
        self.store.write(|conn| {
            let mut errors = fields.validate();
            check_identity(conn, &fields, None, &mut errors)?;
            errors.into_result()?;
            let row = users::insert(conn, &fields, time::now())
                .map_err(|e| unique_violation(e, &[USERNAME, EMAIL]))?;
            let change = NewChange {
                target: row.username.clone(),
                details: json!({"username": row.username}),
                ..NewChange::new(Action::ADD_USER, subject.user_id())
            };
            changes::record(conn, &change, row.date_joined)?;
            views(conn, subject, vec![row])?
                .pop()
                .ok_or(ServiceError::NotFound)
        })
    }

    /// Edits an account: user managers may edit any, others only their
    /// own. `edit` receives the current state and whether the caller
    /// manages users, and returns the new state.
    pub fn update(
        &self,
        subject: &Subject,
        username: &str,
        edit: impl FnOnce(&UserState, Detail) -> Result<UserState, FieldErrors>,
    ) -> ServiceResult<(UserView, Detail)> {
        self.store.write(|conn| {
            let (current, detail) = editable_user(conn, subject, username, true)?;
            if tokens::is_project_bot(conn, current.row.id)? {
                return Err(ServiceError::PermissionDenied(NOT_EDITABLE.into()));
            }
            let before = state(&current);
            let after = edit(&before, detail)?;
            let mut errors = after.fields.validate();
            errors.extend(after.settings.validate());
            check_identity(conn, &after.fields, Some(current.row.id), &mut errors)?;
            if detail == Detail::Basic
                && after.fields.email != before.fields.email
                && !users::is_verified_email(conn, current.row.id, &after.fields.email)?
            {
                errors.invalid("email", "This e-mail address has not been verified.");
            }
            let primary = language_ids(conn, &after.languages, "profile.languages", &mut errors)?;
            let secondary = language_ids(
                conn,
                &after.secondary_languages,
                "profile.secondary_languages",
                &mut errors,
            )?;
            let watched = project_ids(conn, subject, &after.watched, &mut errors)?;
            errors.into_result()?;
            let was_admin = before.fields.is_superuser && before.fields.is_active;
            if was_admin && !after.fields.is_superuser {
                keep_a_superuser(conn, current.row.id, Some("is_superuser"))?;
            } else if was_admin && !after.fields.is_active {
                keep_a_superuser(conn, current.row.id, Some("is_active"))?;
            }
            let row = users::update(
                conn,
                current.row.id,
                &current.row.username,
                &after.fields,
                &after.settings,
            )
            .map_err(|e| unique_violation(e, &[USERNAME, EMAIL]))?
            .ok_or(ServiceError::NotFound)?;
            users::set_languages(conn, row.id, false, &primary)?;
            users::set_languages(conn, row.id, true, &secondary)?;
            users::set_watched(conn, row.id, &watched)?;
            let access_changed = before.fields.is_superuser != after.fields.is_superuser
                || before.fields.is_active != after.fields.is_active
                || before.fields.is_bot != after.fields.is_bot;
            let action = if access_changed {
                Action::USER_ACCESS_CHANGE
            } else {
                Action::UPDATE
            };
            let change = NewChange {
                target: row.username.clone(),
                old: before.fields.username.clone(),
                details: json!({"username": row.username}),
                ..NewChange::new(action, subject.user_id())
            };
            changes::record(conn, &change, time::now())?;
            let view = views(conn, subject, vec![row])?
                .pop()
                .ok_or(ServiceError::NotFound)?;
            Ok((view, detail))
        })
    }

    /// Removes an account: it is anonymised and deactivated, its history kept.
    pub fn delete(&self, subject: &Subject, username: &str) -> ServiceResult<()> {
        self.store.write(|conn| {
            let (current, _) = editable_user(conn, subject, username, false)?;
            if current.row.is_superuser && current.row.is_active {
                keep_a_superuser(conn, current.row.id, None)?;
            }
            if !users::deactivate(conn, current.row.id, &current.row.username)? {
                // Another request renamed or removed it first.
                return Err(ServiceError::NotFound);
            }
            let change = NewChange {
                target: current.row.username.clone(),
                details: json!({"username": current.row.username}),
                ..NewChange::new(Action::REMOVE_USER, subject.user_id())
            };
            changes::record(conn, &change, time::now())?;
            Ok(())
        })
    }
}

/// A user's contribution counters (§3.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UserStatistics {
    /// Strings translated.
    pub translated: i64,
    /// Suggestions made.
    pub suggested: i64,
    /// Files uploaded.
    pub uploaded: i64,
    /// Comments posted.
    pub commented: i64,
    /// Languages in the profile.
    pub languages: i64,
}

impl crate::users::Users<'_> {
    /// A user's contribution counters, for whoever may see the user.
    pub fn statistics(&self, subject: &Subject, username: &str) -> ServiceResult<UserStatistics> {
        let (view, _) = self.users().get(subject, username)?;
        Ok(UserStatistics {
            translated: view.row.translated,
            suggested: view.row.suggested,
            uploaded: view.row.uploaded,
            commented: view.row.commented,
            languages: i64::try_from(view.links.languages.len()).unwrap_or(i64::MAX),
        })
    }
}
