//! The cache generation: a number that database triggers bump whenever
//! tokens, teams, roles, users' standing, projects, components or
//! languages change, by any instance. A server caches what those hold and
//! reads only this number per request to know whether its copy still holds.

use diesel::prelude::*;

use crate::DbConnection;
use crate::error::StoreResult;
use crate::schema::cache_generation;

/// The current generation; one statement.
pub fn current(conn: &mut DbConnection) -> StoreResult<i64> {
    Ok(cache_generation::table
        .find(1)
        .select(cache_generation::value)
        .first(conn)?)
}

/// The current generation as a scalar subquery, to read it along with
/// other rows in one statement.
pub fn subquery() -> diesel::dsl::AssumeNotNull<
    diesel::dsl::SingleValue<
        diesel::dsl::Select<
            diesel::dsl::Find<cache_generation::table, i32>,
            cache_generation::value,
        >,
    >,
> {
    cache_generation::table
        .find(1)
        .select(cache_generation::value)
        .single_value()
        .assume_not_null()
}
