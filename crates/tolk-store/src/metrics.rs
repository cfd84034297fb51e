//! Site-wide counts for `/api/metrics/`, read with one statement.

use diesel::prelude::*;
use diesel::sql_types::BigInt;

use crate::DbConnection;
use crate::error::StoreResult;

/// Site-wide counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, QueryableByName)]
pub struct SiteCounts {
    /// Strings in all translations.
    #[diesel(sql_type = BigInt)]
    pub units: i64,
    /// Translated strings in all translations.
    #[diesel(sql_type = BigInt)]
    pub units_translated: i64,
    /// Accounts.
    #[diesel(sql_type = BigInt)]
    pub users: i64,
    /// Recorded changes.
    #[diesel(sql_type = BigInt)]
    pub changes: i64,
    /// Projects.
    #[diesel(sql_type = BigInt)]
    pub projects: i64,
    /// Components.
    #[diesel(sql_type = BigInt)]
    pub components: i64,
    /// Translations.
    #[diesel(sql_type = BigInt)]
    pub translations: i64,
    /// Defined languages.
    #[diesel(sql_type = BigInt)]
    pub languages: i64,
    /// Failing checks, one per unit and check.
    #[diesel(sql_type = BigInt)]
    pub checks: i64,
    /// Pending suggestions.
    #[diesel(sql_type = BigInt)]
    pub suggestions: i64,
}

/// Reads every site-wide count at once.
pub fn site_counts(conn: &mut DbConnection) -> StoreResult<SiteCounts> {
    Ok(diesel::sql_query(
        "SELECT \
         (SELECT CAST(COALESCE(SUM(total), 0) AS BIGINT) FROM translations) AS units, \
         (SELECT CAST(COALESCE(SUM(translated), 0) AS BIGINT) FROM translations) AS units_translated, \
         (SELECT COUNT(*) FROM users) AS users, \
         (SELECT COUNT(*) FROM changes) AS changes, \
         (SELECT COUNT(*) FROM projects) AS projects, \
         (SELECT COUNT(*) FROM components) AS components, \
         (SELECT COUNT(*) FROM translations) AS translations, \
         (SELECT COUNT(*) FROM languages) AS languages, \
         (SELECT COALESCE(SUM(LENGTH(failing) - LENGTH(REPLACE(failing, ',', '')) + 1), 0) \
          FROM units WHERE failing <> '') AS checks, \
         (SELECT COUNT(*) FROM suggestions) AS suggestions",
    )
    .get_result(conn)?)
}

/// Unfinished background tasks per kind (Weblate's metrics call them queues).
pub fn queue_lengths(conn: &mut DbConnection) -> StoreResult<Vec<(String, i64)>> {
    #[derive(QueryableByName)]
    struct QueueLength {
        #[diesel(sql_type = diesel::sql_types::Text)]
        queue: String,
        #[diesel(sql_type = BigInt)]
        length: i64,
    }
    let rows: Vec<QueueLength> = diesel::sql_query(
        "SELECT kind AS queue, COUNT(*) AS length FROM tasks WHERE NOT completed GROUP BY kind",
    )
    .load(conn)?;
    Ok(rows.into_iter().map(|r| (r.queue, r.length)).collect())
}
