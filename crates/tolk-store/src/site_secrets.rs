//! Secrets made once for the whole site, shared by every instance on the
//! database.

use diesel::prelude::*;

use crate::DbConnection;
use crate::error::StoreResult;
use crate::schema::site_secrets;

/// The secret named `name`, stored as `candidate` if there was none yet.
/// Instances that start together all read the one that was stored first.
pub fn get_or_insert(conn: &mut DbConnection, name: &str, candidate: &str) -> StoreResult<String> {
    let values = (
        site_secrets::name.eq(name),
        site_secrets::value.eq(candidate),
    );
    crate::with_backend!(conn, |c| diesel::insert_into(site_secrets::table)
        .values(&values)
        .on_conflict_do_nothing()
        .execute(c))?;
    Ok(site_secrets::table
        .find(name)
        .select(site_secrets::value)
        .first(conn)?)
}
