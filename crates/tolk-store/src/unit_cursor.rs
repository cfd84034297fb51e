//! Where a unit stands in a filtered list of a translation's units (the
//! editor's "string 12 of 40", its previous and next strings), ordered by
//! id as the lists are. A unit need not match the filter itself: one just
//! translated out of a list of untranslated strings still has its place.

use diesel::prelude::*;

use crate::schema::units;
use crate::units::{UnitFilter, filtered, matched};
use tolk_domain::permission::ProjectVisibility;

use crate::DbConnection;
use crate::error::StoreResult;

/// A unit's place among the units a filter selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// Matching units before it.
    pub before: i64,
    /// Matching units in all.
    pub count: i64,
    /// The `id_hash` of the matching unit just before it.
    pub previous: Option<i64>,
    /// The `id_hash` of the matching unit just after it.
    pub next: Option<i64>,
}

/// The place of the unit `id` among those `filter` selects (of one
/// translation, already known to be visible); four statements at most
/// (three when the filter's count is known), besides a regular
/// expression's scan.
pub fn place(conn: &mut DbConnection, filter: &UnitFilter, id: i64) -> StoreResult<Place> {
    let sqlite = matches!(conn, DbConnection::Sqlite(_));
    let visibility = ProjectVisibility::All;
    let matched = matched(conn, &visibility, filter)?;
    let list = || filtered(&visibility, filter, sqlite, &matched);
    let count = match filter.known_count {
        Some(count) => count,
        None => list().count().get_result(conn)?,
    };
    let before = list().filter(units::id.lt(id)).count().get_result(conn)?;
    let previous = list()
        .filter(units::id.lt(id))
        .order(units::id.desc())
        .select(units::id_hash)
        .first(conn)
        .optional()?;
    let next = list()
        .filter(units::id.gt(id))
        .order(units::id)
        .select(units::id_hash)
        .first(conn)
        .optional()?;
    Ok(Place {
        before,
        count,
        previous,
        next,
    })
}
