//! User accounts, their profile languages and watched projects.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::prelude::*;
use tolk_domain::permission::{AccessControl, ProjectRef};
use tolk_domain::time::UtcTime;
use tolk_domain::user::{ProfileSettings, UserFields};

use crate::DbConnection;
use crate::error::{StoreError, StoreResult};
use crate::page::{Page, PageRequest};
use crate::schema::{
    languages, password_links, projects, sessions, tokens, user_languages, users, verified_emails,
    watched_projects,
};
use crate::sql::lower;

/// A stored account.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = users)]
pub struct UserRow {
    /// Primary key.
    pub id: i64,
    /// Login name.
    pub username: String,
    /// Display name.
    pub full_name: String,
    /// Primary e-mail.
    pub email: String,
    /// Superuser flag.
    pub is_superuser: bool,
    /// Active flag.
    pub is_active: bool,
    /// Bot flag.
    pub is_bot: bool,
    /// When the account was created.
    pub date_joined: NaiveDateTime,
    /// When the account expires.
    pub date_expires: Option<NaiveDateTime>,
    /// Last sign-in.
    pub last_login: Option<NaiveDateTime>,
    /// Profile preferences as JSON.
    pub profile: String,
    /// Translated strings.
    pub translated: i64,
    /// Suggestions made.
    pub suggested: i64,
    /// Uploads made.
    pub uploaded: i64,
    /// Comments posted.
    pub commented: i64,
}

impl UserRow {
    /// The identity fields.
    pub fn fields(&self) -> UserFields {
        UserFields {
            username: self.username.clone(),
            full_name: self.full_name.clone(),
            email: self.email.clone(),
            is_superuser: self.is_superuser,
            is_active: self.is_active,
            is_bot: self.is_bot,
            date_expires: self.date_expires.map(UtcTime),
        }
    }

    /// The profile preferences; defaults fill what is not stored.
    pub fn settings(&self) -> StoreResult<ProfileSettings> {
        serde_json::from_str(&self.profile).map_err(|_| StoreError::Corrupt("users.profile"))
    }
}

/// Profile relations of one user.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProfileLinks {
    /// Codes of the translated languages.
    pub languages: Vec<String>,
    /// Codes of the secondary languages.
    pub secondary_languages: Vec<String>,
    /// Watched projects (slug and what the access check needs), sorted by
    /// name; the caller hides those the viewer may not see.
    pub watched: Vec<(String, ProjectRef)>,
}

/// Filters of the user list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserFilter {
    /// Only this user.
    pub id: Option<i64>,
    /// Usernames starting with this text.
    pub username_prefix: Option<String>,
    /// Only active or inactive users.
    pub is_active: Option<bool>,
    /// E-mail, compared without case.
    pub email: Option<String>,
}

type BoxedUsers<'a> = users::BoxedQuery<'a, crate::MultiBackend>;

fn filtered(filter: &UserFilter) -> BoxedUsers<'static> {
    let mut query = users::table.into_boxed();
    if let Some(id) = filter.id {
        query = query.filter(users::id.eq(id));
    }
    if let Some(prefix) = &filter.username_prefix {
        query = query.filter(
            users::username
                .like(format!("{}%", escape_like(prefix)))
                .escape('\\'),
        );
    }
    if let Some(active) = filter.is_active {
        query = query.filter(users::is_active.eq(active));
    }
    if let Some(email) = &filter.email {
        query = query.filter(lower(users::email).eq(email.to_lowercase()));
    }
    query
}

fn escape_like(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}

/// Lists users by id; `None` for a page past the end.
pub fn list(
    conn: &mut DbConnection,
    filter: &UserFilter,
    page: PageRequest,
) -> StoreResult<Option<Page<UserRow>>> {
    page.run(
        conn,
        |conn| Ok::<_, crate::StoreError>(filtered(filter).count().get_result(conn)?),
        |conn, offset, limit| {
            Ok(filtered(filter)
                .order(users::id)
                .offset(offset)
                .limit(limit)
                .select(UserRow::as_select())
                .load(conn)?)
        },
    )
}

/// Finds a user by username.
pub fn get_by_username(conn: &mut DbConnection, username: &str) -> StoreResult<Option<UserRow>> {
    Ok(users::table
        .filter(users::username.eq(username))
        .select(UserRow::as_select())
        .first(conn)
        .optional()?)
}

/// The stored password hash of an active account by username, with its
/// id; `None` for no such account, `Some((id, None))` for one without a
/// password.
pub fn password_of(
    conn: &mut DbConnection,
    username: &str,
) -> StoreResult<Option<(i64, Option<String>)>> {
    Ok(users::table
        .filter(users::username.eq(username))
        .filter(users::is_active.eq(true))
        .select((users::id, users::password))
        .first(conn)
        .optional()?)
}

/// Sets an account's password hash.
pub fn set_password(conn: &mut DbConnection, id: i64, hash: &str) -> StoreResult<bool> {
    Ok(diesel::update(users::table.find(id))
        .set(users::password.eq(hash))
        .execute(conn)?
        > 0)
}

/// Notes a sign-in.
pub fn set_last_login(conn: &mut DbConnection, id: i64, at: NaiveDateTime) -> StoreResult<()> {
    diesel::update(users::table.find(id))
        .set(users::last_login.eq(at))
        .execute(conn)?;
    Ok(())
}

/// Finds a user by id.
pub fn get(conn: &mut DbConnection, id: i64) -> StoreResult<Option<UserRow>> {
    Ok(users::table
        .find(id)
        .select(UserRow::as_select())
        .first(conn)
        .optional()?)
}

/// Usernames of the given users.
pub fn usernames(conn: &mut DbConnection, ids: &[i64]) -> StoreResult<HashMap<i64, String>> {
    Ok(users::table
        .filter(users::id.eq_any(ids))
        .select((users::id, users::username))
        .load::<(i64, String)>(conn)?
        .into_iter()
        .collect())
}

/// Id of the user with this username.
pub fn id_of(conn: &mut DbConnection, username: &str) -> StoreResult<Option<i64>> {
    Ok(users::table
        .filter(users::username.eq(username))
        .select(users::id)
        .first(conn)
        .optional()?)
}

/// A field that names an account and is unique whatever its case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Identity {
    /// The login name.
    Username,
    /// The primary e-mail.
    Email,
}

/// True when another account than `except_id` has this username or
/// e-mail, whatever its case.
pub fn identity_taken(
    conn: &mut DbConnection,
    field: Identity,
    value: &str,
    except_id: Option<i64>,
) -> StoreResult<bool> {
    let value = lower(value.to_owned());
    let mut query = match field {
        Identity::Username => users::table
            .filter(lower(users::username).eq(value))
            .into_boxed(),
        Identity::Email => users::table
            .filter(lower(users::email).eq(value))
            .into_boxed(),
    };
    if let Some(id) = except_id {
        query = query.filter(users::id.ne(id));
    }
    Ok(query.count().get_result::<i64>(conn)? > 0)
}

/// Locks the active superusers' rows until the transaction ends (on
/// PostgreSQL; SQLite's writers run one at a time) and returns their ids,
/// so that two requests cannot each remove a different last superuser.
pub fn lock_active_superusers(conn: &mut DbConnection) -> StoreResult<Vec<i64>> {
    let query = users::table
        .filter(users::is_superuser.eq(true))
        .filter(users::is_active.eq(true))
        .select(users::id)
        .order(users::id);
    Ok(match conn {
        DbConnection::Pg(c) => query.for_update().load(c)?,
        DbConnection::Sqlite(c) => query.load(c)?,
    })
}

/// Creates an account; its e-mail counts as verified, and unless it is a
/// bot it joins the built-in teams every user is in.
pub fn insert(
    conn: &mut DbConnection,
    fields: &UserFields,
    date_joined: NaiveDateTime,
) -> StoreResult<UserRow> {
    let values = (
        users::username.eq(&fields.username),
        users::full_name.eq(&fields.full_name),
        users::email.eq(&fields.email),
        users::is_superuser.eq(fields.is_superuser),
        users::is_active.eq(fields.is_active),
        users::is_bot.eq(fields.is_bot),
        users::date_joined.eq(date_joined),
        users::date_expires.eq(fields.date_expires.map(|t| t.0)),
    );
    let id: i64 = crate::with_backend!(conn, |c| diesel::insert_into(users::table)
        .values(&values)
        .returning(users::id)
        .get_result(c))?;
    add_verified_email(conn, id, &fields.email)?;
    if !fields.is_bot {
        crate::builtin_teams::join_default_teams(conn, id)?;
    }
    get(conn, id)?.ok_or(StoreError::Corrupt("users"))
}

fn add_verified_email(conn: &mut DbConnection, user_id: i64, email: &str) -> StoreResult<()> {
    let exists: bool = diesel::select(diesel::dsl::exists(
        verified_emails::table
            .filter(verified_emails::user_id.eq(user_id))
            .filter(verified_emails::email.eq(email)),
    ))
    .get_result(conn)?;
    if !exists && !email.is_empty() {
        diesel::insert_into(verified_emails::table)
            .values((
                verified_emails::user_id.eq(user_id),
                verified_emails::email.eq(email),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// True when the user has verified this e-mail address.
pub fn is_verified_email(conn: &mut DbConnection, user_id: i64, email: &str) -> StoreResult<bool> {
    Ok(diesel::select(diesel::dsl::exists(
        verified_emails::table
            .filter(verified_emails::user_id.eq(user_id))
            .filter(lower(verified_emails::email).eq(email.to_lowercase())),
    ))
    .get_result(conn)?)
}

/// Replaces the identity fields and profile preferences of the account
/// `id`, if it is still called `username` (`None` when another
/// transaction renamed or removed it since it was read). An e-mail set by
/// an administrator counts as verified.
pub fn update(
    conn: &mut DbConnection,
    id: i64,
    username: &str,
    fields: &UserFields,
    settings: &ProfileSettings,
) -> StoreResult<Option<UserRow>> {
    let profile = serde_json::to_string(settings).map_err(|_| StoreError::Corrupt("profile"))?;
    let rows = diesel::update(still_named(id, username))
        .set((
            users::username.eq(&fields.username),
            users::full_name.eq(&fields.full_name),
            users::email.eq(&fields.email),
            users::is_superuser.eq(fields.is_superuser),
            users::is_active.eq(fields.is_active),
            users::is_bot.eq(fields.is_bot),
            users::date_expires.eq(fields.date_expires.map(|t| t.0)),
            users::profile.eq(profile),
        ))
        .execute(conn)?;
    if rows == 0 {
        return Ok(None);
    }
    add_verified_email(conn, id, &fields.email)?;
    get(conn, id)
}

/// The account `id` while it is still called `username`.
fn still_named(
    id: i64,
    username: &str,
) -> diesel::dsl::Filter<
    diesel::dsl::Find<users::table, i64>,
    diesel::dsl::Eq<users::username, String>,
> {
    users::table
        .find(id)
        .filter(users::username.eq(username.to_owned()))
}

/// Replaces the profile's translated (`secondary` false) or secondary languages.
pub fn set_languages(
    conn: &mut DbConnection,
    user_id: i64,
    secondary: bool,
    language_ids: &[i64],
) -> StoreResult<()> {
    diesel::delete(
        user_languages::table
            .filter(user_languages::user_id.eq(user_id))
            .filter(
                user_languages::secondary
                    .eq(secondary)
                    .or(user_languages::language_id.eq_any(language_ids)),
            ),
    )
    .execute(conn)?;
    let rows: Vec<_> = language_ids
        .iter()
        .map(|language_id| {
            (
                user_languages::user_id.eq(user_id),
                user_languages::language_id.eq(*language_id),
                user_languages::secondary.eq(secondary),
            )
        })
        .collect();
    if !rows.is_empty() {
        crate::with_backend!(conn, |c| diesel::insert_into(user_languages::table)
            .values(&rows)
            .execute(c))?;
    }
    Ok(())
}

/// Replaces the watched projects.
pub fn set_watched(conn: &mut DbConnection, user_id: i64, project_ids: &[i64]) -> StoreResult<()> {
    diesel::delete(watched_projects::table.filter(watched_projects::user_id.eq(user_id)))
        .execute(conn)?;
    let rows: Vec<_> = project_ids
        .iter()
        .map(|project_id| {
            (
                watched_projects::user_id.eq(user_id),
                watched_projects::project_id.eq(*project_id),
            )
        })
        .collect();
    if !rows.is_empty() {
        crate::with_backend!(conn, |c| diesel::insert_into(watched_projects::table)
            .values(&rows)
            .execute(c))?;
    }
    Ok(())
}

/// Profile relations of several users, with two statements.
pub fn profile_links(
    conn: &mut DbConnection,
    user_ids: &[i64],
) -> StoreResult<HashMap<i64, ProfileLinks>> {
    let mut links: HashMap<i64, ProfileLinks> = HashMap::new();
    let languages_rows: Vec<(i64, bool, String)> = user_languages::table
        .inner_join(languages::table.on(languages::id.eq(user_languages::language_id)))
        .filter(user_languages::user_id.eq_any(user_ids))
        .order(languages::code)
        .select((
            user_languages::user_id,
            user_languages::secondary,
            languages::code,
        ))
        .load(conn)?;
    for (user_id, secondary, code) in languages_rows {
        let entry = links.entry(user_id).or_default();
        if secondary {
            entry.secondary_languages.push(code);
        } else {
            entry.languages.push(code);
        }
    }
    let watched_rows: Vec<(i64, String, i64, i32)> = watched_projects::table
        .inner_join(projects::table.on(projects::id.eq(watched_projects::project_id)))
        .filter(watched_projects::user_id.eq_any(user_ids))
        .order(projects::name)
        .select((
            watched_projects::user_id,
            projects::slug,
            projects::id,
            projects::access_control,
        ))
        .load(conn)?;
    for (user_id, slug, id, access) in watched_rows {
        let access = AccessControl::from_code(access).unwrap_or(AccessControl::Private);
        links
            .entry(user_id)
            .or_default()
            .watched
            .push((slug, ProjectRef { id, access }));
    }
    Ok(links)
}

/// Anonymises and deactivates an account, keeping its history.
pub fn deactivate(conn: &mut DbConnection, id: i64, username: &str) -> StoreResult<bool> {
    let rows = diesel::update(still_named(id, username))
        .set((
            users::username.eq(format!("deleted-{id}")),
            users::full_name.eq("Deleted User"),
            users::email.eq(format!("noreply+{id}@example.invalid")),
            users::password.eq(None::<String>),
            users::is_active.eq(false),
            users::is_superuser.eq(false),
            users::profile.eq("{}"),
        ))
        .execute(conn)?;
    if rows == 0 {
        return Ok(false);
    }
    diesel::delete(verified_emails::table.filter(verified_emails::user_id.eq(id))).execute(conn)?;
    diesel::delete(user_languages::table.filter(user_languages::user_id.eq(id))).execute(conn)?;
    diesel::delete(watched_projects::table.filter(watched_projects::user_id.eq(id)))
        .execute(conn)?;
    // Its tokens, sessions and password links are revoked.
    diesel::delete(tokens::table.filter(tokens::user_id.eq(id))).execute(conn)?;
    diesel::delete(sessions::table.filter(sessions::user_id.eq(id))).execute(conn)?;
    diesel::delete(password_links::table.filter(password_links::user_id.eq(id))).execute(conn)?;
    Ok(true)
}

/// Number of accounts.
pub fn count(conn: &mut DbConnection) -> StoreResult<i64> {
    Ok(users::table.count().get_result(conn)?)
}

/// Accounts by id, in any order.
pub fn get_by_ids(conn: &mut DbConnection, ids: &[i64]) -> StoreResult<Vec<UserRow>> {
    Ok(users::table
        .filter(users::id.eq_any(ids.to_vec()))
        .select(UserRow::as_select())
        .load(conn)?)
}

/// Counts `strings` more strings translated by the user (the profile's
/// `translated`, kept as edits happen rather than recounted).
pub fn count_translated(conn: &mut DbConnection, id: i64, strings: i64) -> StoreResult<()> {
    crate::sql::update(
        users::table,
        users::translated.eq(users::translated + strings),
        users::id.eq(id),
    )
    .execute(conn)?;
    Ok(())
}
