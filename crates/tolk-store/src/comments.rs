//! Comments on units (§10.4): on one translation's unit, or on the
//! source unit for every translation of the string.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::DbConnection;
use crate::error::{StoreError, StoreResult};
use crate::page::{Page, PageRequest};
use crate::schema::{comments, users};

/// A stored comment with its author's name.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = comments)]
pub struct Comment {
    /// Primary key.
    pub id: i64,
    /// The unit it is on.
    pub unit_id: i64,
    /// Its author; none for removed accounts.
    pub user_id: Option<i64>,
    /// The text (Markdown).
    pub comment: String,
    /// Whether it was resolved.
    pub resolved: bool,
    /// When it was made.
    pub created: NaiveDateTime,
    /// The author's username.
    #[diesel(select_expression = users::username.nullable())]
    #[diesel(select_expression_type = diesel::dsl::Nullable<users::username>)]
    pub username: Option<String>,
}

/// The comments on these units (a unit and its source unit), by id;
/// `None` for a page past the end.
pub fn of_units(
    conn: &mut DbConnection,
    unit_ids: &[i64],
    page: PageRequest,
) -> StoreResult<Option<Page<Comment>>> {
    let on = || {
        comments::table
            .left_join(users::table)
            .filter(comments::unit_id.eq_any(unit_ids.to_vec()))
    };
    page.run(
        conn,
        |conn| Ok::<_, StoreError>(on().count().get_result(conn)?),
        |conn, offset, limit| {
            Ok(on()
                .order(comments::id)
                .offset(offset)
                .limit(limit)
                .select(Comment::as_select())
                .load(conn)?)
        },
    )
}

/// Stores a comment; it as stored.
pub fn insert(
    conn: &mut DbConnection,
    unit_id: i64,
    user_id: Option<i64>,
    text: &str,
    at: NaiveDateTime,
) -> StoreResult<Comment> {
    let values = (
        comments::unit_id.eq(unit_id),
        comments::user_id.eq(user_id),
        comments::comment.eq(text),
        comments::created.eq(at),
    );
    let id: i64 = crate::with_backend!(conn, |c| diesel::insert_into(comments::table)
        .values(&values)
        .returning(comments::id)
        .get_result(c))?;
    Ok(comments::table
        .left_join(users::table)
        .filter(comments::id.eq(id))
        .select(Comment::as_select())
        .first(conn)?)
}

/// Number of unresolved comments on these units.
pub fn unresolved_on(conn: &mut DbConnection, unit_ids: &[i64]) -> StoreResult<i64> {
    Ok(comments::table
        .filter(comments::unit_id.eq_any(unit_ids.to_vec()))
        .filter(comments::resolved.eq(false))
        .count()
        .get_result(conn)?)
}

/// Which of these units have unresolved comments of their own; one statement.
pub fn units_with_unresolved(
    conn: &mut DbConnection,
    unit_ids: &[i64],
) -> StoreResult<std::collections::HashSet<i64>> {
    let ids: Vec<i64> = comments::table
        .filter(comments::unit_id.eq_any(unit_ids.to_vec()))
        .filter(comments::resolved.eq(false))
        .select(comments::unit_id)
        .distinct()
        .load(conn)?;
    Ok(ids.into_iter().collect())
}
