//! Built-in data every database starts with.

use std::collections::HashMap;

use diesel::prelude::*;
use tolk_domain::language::builtin_languages;
use tolk_domain::user::ANONYMOUS_USERNAME;

use crate::DbConnection;
use crate::error::StoreResult;
use crate::schema::{language_aliases, languages, plurals, users};

/// Loads the language table when no language exists yet, creates the
/// account that stands for anonymous callers, and the built-in roles and
/// site-wide teams (kept up to date with this release's permissions).
pub fn ensure_builtin_data(conn: &mut DbConnection) -> StoreResult<()> {
    if crate::languages::count(conn)? == 0 {
        load_languages(conn)?;
    } else {
        refresh_languages(conn)?;
    }
    let anonymous_exists: bool = diesel::select(diesel::dsl::exists(
        users::table.filter(users::username.eq(ANONYMOUS_USERNAME)),
    ))
    .get_result(conn)?;
    if !anonymous_exists {
        diesel::insert_into(users::table)
            .values((
                users::username.eq(ANONYMOUS_USERNAME),
                users::full_name.eq("Anonymous"),
                users::email.eq("noreply@example.invalid"),
                users::is_active.eq(false),
                users::date_joined.eq(crate::time::now()),
            ))
            .execute(conn)?;
    }
    crate::builtin_teams::ensure_builtin_roles(conn)?;
    crate::builtin_teams::ensure_site_teams(conn)?;
    Ok(())
}

/// Brings the languages of a database an earlier release made up to this
/// release's data: the built-in aliases it lacks are added, and built-in
/// plurals whose Weblate type this release classifies otherwise get the
/// new type. Two reads and one of aliases; writes only what differs.
fn refresh_languages(conn: &mut DbConnection) -> StoreResult<()> {
    let seeds = builtin_languages();
    let ids: HashMap<String, i64> = languages::table
        .select((languages::code, languages::id))
        .load::<(String, i64)>(conn)?
        .into_iter()
        .collect();
    let known: std::collections::HashSet<String> = language_aliases::table
        .select(language_aliases::alias)
        .load::<String>(conn)?
        .into_iter()
        .collect();
    let missing: Vec<_> = seeds
        .iter()
        .filter_map(|s| ids.get(&s.code).map(|id| (*id, s)))
        .flat_map(|(id, s)| s.aliases.iter().map(move |a| (id, a)))
        .filter(|(_, alias)| !known.contains(*alias))
        .map(|(id, alias)| {
            (
                language_aliases::alias.eq(alias),
                language_aliases::language_id.eq(id),
            )
        })
        .collect();
    if !missing.is_empty() {
        crate::with_backend!(conn, |c| diesel::insert_into(language_aliases::table)
            .values(&missing)
            .execute(c))?;
    }
    let stored: Vec<(i64, i64, i32, String, i32)> = plurals::table
        .select((
            plurals::id,
            plurals::language_id,
            plurals::source,
            plurals::formula,
            plurals::kind,
        ))
        .load(conn)?;
    let by_formula: HashMap<(i64, i32, &str), (i64, i32)> = stored
        .iter()
        .map(|(id, language, source, formula, kind)| {
            ((*language, *source, formula.as_str()), (*id, *kind))
        })
        .collect();
    for seed in &seeds {
        let Some(language) = ids.get(&seed.code) else {
            continue;
        };
        for plural in &seed.plurals {
            let key = (*language, plural.source, plural.formula.as_str());
            if let Some((id, kind)) = by_formula.get(&key)
                && *kind != plural.kind.0
            {
                diesel::update(plurals::table.find(id))
                    .set(plurals::kind.eq(plural.kind.0))
                    .execute(conn)?;
            }
        }
    }
    Ok(())
}

/// Inserts the built-in languages, plurals and aliases with three multi-row statements.
fn load_languages(conn: &mut DbConnection) -> StoreResult<()> {
    let seeds = builtin_languages();
    let rows: Vec<_> = seeds
        .iter()
        .map(|s| {
            (
                languages::code.eq(&s.code),
                languages::name.eq(&s.name),
                languages::direction.eq(&s.direction),
                languages::population.eq(s.population),
            )
        })
        .collect();
    crate::with_backend!(conn, |c| diesel::insert_into(languages::table)
        .values(&rows)
        .execute(c))?;
    let ids: HashMap<String, i64> = languages::table
        .select((languages::code, languages::id))
        .load::<(String, i64)>(conn)?
        .into_iter()
        .collect();
    let ids = &ids;
    let plural_rows: Vec<_> = seeds
        .iter()
        .flat_map(|s| s.plurals.iter().map(move |p| (ids[&s.code], p)))
        .map(|(id, p)| {
            (
                plurals::language_id.eq(id),
                plurals::source.eq(p.source),
                plurals::number.eq(p.number),
                plurals::formula.eq(&p.formula),
                plurals::kind.eq(p.kind.0),
            )
        })
        .collect();
    crate::with_backend!(conn, |c| diesel::insert_into(plurals::table)
        .values(&plural_rows)
        .execute(c))?;
    let alias_rows: Vec<_> = seeds
        .iter()
        .flat_map(|s| s.aliases.iter().map(move |a| (ids[&s.code], a)))
        .map(|(id, a)| {
            (
                language_aliases::alias.eq(a),
                language_aliases::language_id.eq(id),
            )
        })
        .collect();
    crate::with_backend!(conn, |c| diesel::insert_into(language_aliases::table)
        .values(&alias_rows)
        .execute(c))?;
    Ok(())
}
