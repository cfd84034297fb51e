//! Announcements (§17.2): messages shown on a project, a project's
//! language, a category, a component or a translation. Where one is
//! posted is its [`Place`]; a list shows the announcements of exactly
//! that place, not those of the places inside it.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use crate::DbConnection;
use crate::error::{StoreError, StoreResult};
use crate::page::{Page, PageRequest};
use crate::schema::announcements;

/// Where an announcement is posted: the project, and at most the one
/// category, or the component and language, that narrow it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// The project, always.
    pub project_id: i64,
    /// A category of it (only alone).
    pub category_id: Option<i64>,
    /// A component of it.
    pub component_id: Option<i64>,
    /// A language: of the project, or with `component_id` a translation.
    pub language_id: Option<i64>,
}

/// A stored announcement.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = announcements)]
pub struct Announcement {
    /// Primary key.
    pub id: i64,
    /// The message, in Markdown.
    pub message: String,
    /// `info`, `warning`, `danger` or `success`.
    pub severity: String,
    /// The last day it is shown, if it ends.
    pub expiry: Option<NaiveDate>,
    /// Whether subscribers were to be told.
    pub notify: bool,
}

/// An announcement to store at a place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAnnouncement {
    /// Where it is posted.
    pub place: Place,
    /// Who posted it.
    pub user_id: Option<i64>,
    /// The message.
    pub message: String,
    /// Its severity.
    pub severity: String,
    /// The last day it is shown.
    pub expiry: Option<NaiveDate>,
    /// Whether subscribers are to be told.
    pub notify: bool,
    /// When it was posted.
    pub created: NaiveDateTime,
}

/// The announcements of exactly `place`, as a boxed query.
fn at(place: Place) -> announcements::BoxedQuery<'static, crate::MultiBackend> {
    let mut query = announcements::table
        .filter(announcements::project_id.eq(place.project_id))
        .into_boxed();
    query = match place.category_id {
        Some(id) => query.filter(announcements::category_id.eq(id)),
        None => query.filter(announcements::category_id.is_null()),
    };
    query = match place.component_id {
        Some(id) => query.filter(announcements::component_id.eq(id)),
        None => query.filter(announcements::component_id.is_null()),
    };
    match place.language_id {
        Some(id) => query.filter(announcements::language_id.eq(id)),
        None => query.filter(announcements::language_id.is_null()),
    }
}

/// Stores an announcement; its id.
pub fn insert(conn: &mut DbConnection, new: &NewAnnouncement) -> StoreResult<i64> {
    let row = (
        announcements::project_id.eq(new.place.project_id),
        announcements::category_id.eq(new.place.category_id),
        announcements::component_id.eq(new.place.component_id),
        announcements::language_id.eq(new.place.language_id),
        announcements::user_id.eq(new.user_id),
        announcements::message.eq(&new.message),
        announcements::severity.eq(&new.severity),
        announcements::expiry.eq(new.expiry),
        announcements::notify.eq(new.notify),
        announcements::created.eq(new.created),
    );
    Ok(crate::with_backend!(conn, |c| diesel::insert_into(
        announcements::table
    )
    .values(row)
    .returning(announcements::id)
    .get_result(c))?)
}

/// The announcement `id` of `place`, if there is one.
pub fn get(conn: &mut DbConnection, place: Place, id: i64) -> StoreResult<Option<Announcement>> {
    Ok(at(place)
        .filter(announcements::id.eq(id))
        .select(Announcement::as_select())
        .first(conn)
        .optional()?)
}

/// The announcements of `place` by id; `None` for a page past the end.
pub fn list(
    conn: &mut DbConnection,
    place: Place,
    page: PageRequest,
) -> StoreResult<Option<Page<Announcement>>> {
    page.run(
        conn,
        |conn| Ok::<_, StoreError>(at(place).count().get_result(conn)?),
        |conn, offset, limit| {
            Ok(at(place)
                .order(announcements::id)
                .offset(offset)
                .limit(limit)
                .select(Announcement::as_select())
                .load(conn)?)
        },
    )
}

/// Deletes the announcement `id` of `place`; false when there is none.
pub fn delete(conn: &mut DbConnection, place: Place, id: i64) -> StoreResult<bool> {
    if get(conn, place, id)?.is_none() {
        return Ok(false);
    }
    let rows =
        diesel::delete(announcements::table.filter(announcements::id.eq(id))).execute(conn)?;
    Ok(rows == 1)
}
