//! Units by their text (plural forms joined), across the translations
//! into one language of some components: what the `reused` check
//! compares. Lookups go through the index of the texts' first characters
//! (migration `units_by_text`).

use diesel::dsl::{count, sql};
use diesel::prelude::*;
use diesel::sql_types::Text;

use crate::DbConnection;
use crate::error::StoreResult;
use crate::schema::{translations, units};
use crate::translations::Translation;
use crate::units::UnitRow;

// Texts are counted per language.
diesel::allow_columns_to_appear_in_same_group_by_clause!(translations::language_id, units::target);

/// How many characters of a text the index holds; the expression below
/// must be the index's, word for word, for the databases to use it.
const PREFIX: usize = 48;

/// The indexed start of a unit's text.
fn prefix() -> diesel::expression::SqlLiteral<Text> {
    sql::<Text>("substr(units.target, 1, 48)")
}

/// Texts per statement.
const CHUNK: usize = 200;

/// The units whose text is one of `texts`, in states from `min_state` up,
/// in the translations into `language_ids` of these components, with
/// their translations; one statement per chunk of texts.
pub fn holding(
    conn: &mut DbConnection,
    component_ids: &[i64],
    language_ids: &[i64],
    texts: &[String],
    min_state: i32,
) -> StoreResult<Vec<(UnitRow, Translation)>> {
    let mut found = Vec::new();
    for chunk in texts.chunks(CHUNK) {
        let prefixes: Vec<String> = chunk
            .iter()
            .map(|text| text.chars().take(PREFIX).collect())
            .collect();
        let values = language_ids.len() + component_ids.len() + 2 * chunk.len();
        let query = units::table
            .inner_join(translations::table)
            .filter(translations::language_id.eq_any(language_ids))
            .filter(translations::component_id.eq_any(component_ids))
            .filter(prefix().eq_any(prefixes))
            .filter(units::target.eq_any(chunk))
            .filter(units::state.ge(min_state))
            .select((UnitRow::as_select(), crate::translations::Row::as_select()));
        let rows: Vec<(UnitRow, crate::translations::Row)> =
            crate::sql::kept(query, values).load(conn)?;
        found.extend(rows.into_iter().map(|(unit, t)| (unit, t.into())));
    }
    Ok(found)
}

/// The texts that units of two sources or more hold in states from
/// `min_state` up in one language (the same string shared by several
/// components is one source), and the texts of the units whose failing checks name
/// `check`, in the translations into `language_ids` of these components,
/// each with its language; two statements.
pub fn repeated_or_failing(
    conn: &mut DbConnection,
    component_ids: &[i64],
    language_ids: &[i64],
    min_state: i32,
    check: &str,
) -> StoreResult<Vec<(i64, String)>> {
    let mut texts: Vec<(i64, String)> = units::table
        .inner_join(translations::table)
        .filter(translations::language_id.eq_any(language_ids))
        .filter(translations::component_id.eq_any(component_ids))
        .filter(units::state.ge(min_state))
        .filter(units::target.ne(""))
        .group_by((translations::language_id, units::target))
        .having(count(units::source).aggregate_distinct().gt(1))
        .select((translations::language_id, units::target))
        .load(conn)?;
    let failing: Vec<(i64, String)> = units::table
        .inner_join(translations::table)
        .filter(translations::language_id.eq_any(language_ids))
        .filter(translations::component_id.eq_any(component_ids))
        .filter(units::failing.like(format!("%{check}%")))
        .select((translations::language_id, units::target))
        .load(conn)?;
    texts.extend(failing);
    texts.sort_unstable();
    texts.dedup();
    Ok(texts)
}
