//! Suggestions (§11): translations proposed for a unit, waiting to be
//! accepted or removed.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::BigInt;
use tolk_domain::permission::ProjectVisibility;

use crate::DbConnection;
use crate::error::{StoreError, StoreResult};
use crate::page::{Page, PageRequest};
use crate::schema::{suggestions, translations, units, users};

/// A stored suggestion with its author's name.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = suggestions)]
pub struct Suggestion {
    /// Primary key.
    pub id: i64,
    /// The unit it is for.
    pub unit_id: i64,
    /// Its author; none for anonymous suggestions and removed accounts.
    pub user_id: Option<i64>,
    /// The proposed text (plural forms joined).
    pub target: String,
    /// When it was made.
    pub created: NaiveDateTime,
    /// The author's username.
    #[diesel(select_expression = users::username.nullable())]
    #[diesel(select_expression_type = diesel::dsl::Nullable<users::username>)]
    pub username: Option<String>,
    /// The sum of its votes.
    #[diesel(select_expression = Votes)]
    #[diesel(select_expression_type = Votes)]
    pub votes: i64,
}

crate::sql::fixed_sql!(
    /// The sum of a suggestion's votes.
    Votes: BigInt = "(SELECT CAST(COALESCE(SUM(v.value), 0) AS BIGINT) FROM suggestion_votes v \
     WHERE v.suggestion_id = suggestions.id)"
);

/// Records `user_id`'s vote (+1 or -1) on a suggestion, replacing an
/// earlier one; two statements.
pub fn vote(
    conn: &mut DbConnection,
    suggestion_id: i64,
    user_id: i64,
    value: i32,
) -> StoreResult<()> {
    use crate::schema::suggestion_votes as v;
    diesel::delete(
        v::table
            .filter(v::suggestion_id.eq(suggestion_id))
            .filter(v::user_id.eq(user_id)),
    )
    .execute(conn)?;
    diesel::insert_into(v::table)
        .values((
            v::suggestion_id.eq(suggestion_id),
            v::user_id.eq(user_id),
            v::value.eq(value),
        ))
        .execute(conn)?;
    Ok(())
}

type Boxed<'a> = diesel::dsl::IntoBoxed<
    'a,
    diesel::dsl::LeftJoin<suggestions::table, users::table>,
    crate::MultiBackend,
>;

/// Suggestions of units the caller may see, of one unit when given.
fn visible(visibility: &ProjectVisibility, unit_id: Option<i64>) -> Boxed<'static> {
    let mut query = suggestions::table.left_join(users::table).into_boxed();
    if let Some(ids) = crate::components::visible_ids(visibility) {
        query = query.filter(
            suggestions::unit_id.eq_any(
                units::table
                    .filter(
                        units::translation_id.eq_any(
                            translations::table
                                .filter(translations::component_id.eq_any(ids))
                                .select(translations::id),
                        ),
                    )
                    .select(units::id),
            ),
        );
    }
    if let Some(id) = unit_id {
        query = query.filter(suggestions::unit_id.eq(id));
    }
    query
}

/// Lists visible suggestions (of one unit, when given), newest first;
/// `None` for a page past the end.
pub fn list(
    conn: &mut DbConnection,
    visibility: &ProjectVisibility,
    unit_id: Option<i64>,
    page: PageRequest,
) -> StoreResult<Option<Page<Suggestion>>> {
    page.run(
        conn,
        |conn| Ok::<_, StoreError>(visible(visibility, unit_id).count().get_result(conn)?),
        |conn, offset, limit| {
            Ok(visible(visibility, unit_id)
                .order(suggestions::id.desc())
                .offset(offset)
                .limit(limit)
                .select(Suggestion::as_select())
                .load(conn)?)
        },
    )
}

/// A suggestion by id.
pub fn get(conn: &mut DbConnection, id: i64) -> StoreResult<Option<Suggestion>> {
    Ok(suggestions::table
        .left_join(users::table)
        .filter(suggestions::id.eq(id))
        .select(Suggestion::as_select())
        .first(conn)
        .optional()?)
}

/// The (unit, text, author) of the suggestions of these units; one
/// statement per few hundred units.
pub fn of_units(
    conn: &mut DbConnection,
    unit_ids: &[i64],
) -> StoreResult<Vec<(i64, String, Option<i64>)>> {
    let mut found = Vec::new();
    for chunk in unit_ids.chunks(500) {
        found.extend(
            suggestions::table
                .filter(suggestions::unit_id.eq_any(chunk.to_vec()))
                .select((
                    suggestions::unit_id,
                    suggestions::target,
                    suggestions::user_id,
                ))
                .load::<(i64, String, Option<i64>)>(conn)?,
        );
    }
    Ok(found)
}

/// Stores suggestions (unit and text) by one author at one time; one
/// statement per few hundred.
pub fn insert_many(
    conn: &mut DbConnection,
    made: &[(i64, &str)],
    user_id: Option<i64>,
    at: NaiveDateTime,
) -> StoreResult<()> {
    for chunk in made.chunks(500) {
        let rows: Vec<_> = chunk
            .iter()
            .map(|(unit_id, target)| {
                (
                    suggestions::unit_id.eq(*unit_id),
                    suggestions::user_id.eq(user_id),
                    suggestions::target.eq(*target),
                    suggestions::created.eq(at),
                )
            })
            .collect();
        crate::with_backend!(conn, |c| diesel::insert_into(suggestions::table)
            .values(&rows)
            .execute(c))?;
    }
    Ok(())
}

/// Stores a suggestion; its id.
pub fn insert(
    conn: &mut DbConnection,
    unit_id: i64,
    user_id: Option<i64>,
    target: &str,
    at: NaiveDateTime,
) -> StoreResult<i64> {
    let values = (
        suggestions::unit_id.eq(unit_id),
        suggestions::user_id.eq(user_id),
        suggestions::target.eq(target),
        suggestions::created.eq(at),
    );
    Ok(crate::with_backend!(conn, |c| diesel::insert_into(
        suggestions::table
    )
    .values(&values)
    .returning(suggestions::id)
    .get_result(c))?)
}

/// Deletes a suggestion; false when it was gone.
pub fn delete(conn: &mut DbConnection, id: i64) -> StoreResult<bool> {
    Ok(diesel::delete(suggestions::table.find(id)).execute(conn)? == 1)
}

/// A unit's suggestions with this text, oldest first.
pub fn with_text(
    conn: &mut DbConnection,
    unit_id: i64,
    target: &str,
) -> StoreResult<Vec<Suggestion>> {
    Ok(visible(&ProjectVisibility::All, Some(unit_id))
        .filter(suggestions::target.eq(target.to_owned()))
        .order(suggestions::id)
        .select(Suggestion::as_select())
        .load(conn)?)
}

/// Number of a unit's suggestions.
pub fn count_of_unit(conn: &mut DbConnection, unit_id: i64) -> StoreResult<i64> {
    Ok(suggestions::table
        .filter(suggestions::unit_id.eq(unit_id))
        .count()
        .get_result(conn)?)
}
