//! Languages with their default plural and aliases.

use std::collections::HashMap;

use diesel::prelude::*;
use tolk_domain::language::LanguageFields;
use tolk_domain::plural::PluralType;

use crate::DbConnection;
use crate::error::StoreResult;
use crate::page::{Page, PageRequest};
use crate::schema::{language_aliases, languages, plurals, translations};

/// A stored language row.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = languages)]
pub struct LanguageRow {
    /// Primary key.
    pub id: i64,
    /// Unique code.
    pub code: String,
    /// English name.
    pub name: String,
    /// `ltr` or `rtl`.
    pub direction: String,
    /// Number of speakers.
    pub population: i64,
}

/// A stored plural definition.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = plurals)]
pub struct PluralRow {
    /// Primary key.
    pub id: i64,
    /// Owning language.
    pub language_id: i64,
    /// `plural.source` code.
    pub source: i32,
    /// Number of forms.
    pub number: i32,
    /// Gettext formula.
    pub formula: String,
    /// Plural type code.
    pub kind: i32,
}

/// A language as the API shows it: its row, default plural and aliases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Language {
    /// The language row.
    pub row: LanguageRow,
    /// The default plural (the language's first).
    pub plural: PluralRow,
    /// Alias codes, sorted.
    pub aliases: Vec<String>,
}

/// Which languages a list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LanguageScope {
    /// Every defined language.
    All,
    /// Only languages that have at least one translation.
    InUse,
}

type BoxedLanguages<'a> = languages::BoxedQuery<'a, crate::MultiBackend>;

fn scoped(scope: LanguageScope) -> BoxedLanguages<'static> {
    let query = languages::table.into_boxed();
    match scope {
        LanguageScope::All => query,
        LanguageScope::InUse => query.filter(
            languages::id.eq_any(
                translations::table
                    .select(translations::language_id)
                    .distinct(),
            ),
        ),
    }
}

/// Lists languages by id; `None` for a page past the end. Costs four statements.
pub fn list(
    conn: &mut DbConnection,
    scope: LanguageScope,
    page: PageRequest,
) -> StoreResult<Option<Page<Language>>> {
    let page = page.run(
        conn,
        |conn| Ok::<_, crate::StoreError>(scoped(scope).count().get_result(conn)?),
        |conn, offset, limit| {
            Ok(scoped(scope)
                .order(languages::id)
                .offset(offset)
                .limit(limit)
                .select(LanguageRow::as_select())
                .load(conn)?)
        },
    )?;
    page.map(|p| p.try_map_items(|rows| attach(conn, rows)))
        .transpose()
}

/// Finds a language by its code within `scope`.
pub fn get_by_code(
    conn: &mut DbConnection,
    code: &str,
    scope: LanguageScope,
) -> StoreResult<Option<Language>> {
    let row = scoped(scope)
        .filter(languages::code.eq(code))
        .select(LanguageRow::as_select())
        .first(conn)
        .optional()?;
    Ok(attach(conn, row.into_iter().collect())?.pop())
}

/// Finds languages by id, in any order.
pub fn get_by_ids(conn: &mut DbConnection, ids: &[i64]) -> StoreResult<Vec<LanguageRow>> {
    Ok(languages::table
        .filter(languages::id.eq_any(ids))
        .select(LanguageRow::as_select())
        .load(conn)?)
}

/// Languages with their plurals and aliases, by id, in any order.
pub fn get_full_by_ids(conn: &mut DbConnection, ids: &[i64]) -> StoreResult<Vec<Language>> {
    let rows = get_by_ids(conn, ids)?;
    attach(conn, rows)
}

/// Finds languages by code; unknown codes are left out.
pub fn get_by_codes(conn: &mut DbConnection, codes: &[String]) -> StoreResult<Vec<LanguageRow>> {
    Ok(languages::table
        .filter(languages::code.eq_any(codes))
        .select(LanguageRow::as_select())
        .load(conn)?)
}

/// The languages that codes name, directly or through an alias, keyed by
/// the code as given; unknown codes are left out. Four statements.
pub fn resolve(
    conn: &mut DbConnection,
    codes: &[String],
) -> StoreResult<HashMap<String, Language>> {
    let aliased: Vec<(String, i64)> = language_aliases::table
        .filter(language_aliases::alias.eq_any(codes))
        .select((language_aliases::alias, language_aliases::language_id))
        .load(conn)?;
    let alias_ids: Vec<i64> = aliased.iter().map(|(_, id)| *id).collect();
    let rows: Vec<LanguageRow> = languages::table
        .filter(
            languages::code
                .eq_any(codes)
                .or(languages::id.eq_any(&alias_ids)),
        )
        .select(LanguageRow::as_select())
        .load(conn)?;
    let languages = attach(conn, rows)?;
    let mut found = HashMap::new();
    for language in &languages {
        if codes.contains(&language.row.code) {
            found.insert(language.row.code.clone(), language.clone());
        }
    }
    for (alias, id) in aliased {
        if let Some(language) = languages.iter().find(|l| l.row.id == id) {
            found.entry(alias).or_insert_with(|| language.clone());
        }
    }
    Ok(found)
}

/// Adds plurals and aliases to language rows with two statements.
fn attach(conn: &mut DbConnection, rows: Vec<LanguageRow>) -> StoreResult<Vec<Language>> {
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    let mut first_plural: HashMap<i64, PluralRow> = HashMap::new();
    for plural in plurals::table
        .filter(plurals::language_id.eq_any(&ids))
        .order(plurals::id)
        .select(PluralRow::as_select())
        .load(conn)?
    {
        first_plural.entry(plural.language_id).or_insert(plural);
    }
    let mut aliases: HashMap<i64, Vec<String>> = HashMap::new();
    for (alias, language_id) in language_aliases::table
        .filter(language_aliases::language_id.eq_any(&ids))
        .order(language_aliases::alias)
        .select((language_aliases::alias, language_aliases::language_id))
        .load::<(String, i64)>(conn)?
    {
        aliases.entry(language_id).or_default().push(alias);
    }
    // A language and its plural are written in one transaction, so a row
    // without a plural was deleted between the two statements: it is gone.
    Ok(rows
        .into_iter()
        .filter_map(|row| {
            let plural = first_plural.remove(&row.id)?;
            Some(Language {
                aliases: aliases.remove(&row.id).unwrap_or_default(),
                plural,
                row,
            })
        })
        .collect())
}

/// True when a language with this code exists.
pub fn code_exists(
    conn: &mut DbConnection,
    code: &str,
    except_id: Option<i64>,
) -> StoreResult<bool> {
    let mut query = languages::table
        .filter(languages::code.eq(code))
        .into_boxed();
    if let Some(id) = except_id {
        query = query.filter(languages::id.ne(id));
    }
    Ok(query.count().get_result::<i64>(conn)? > 0)
}

/// Inserts a language with its plural; returns it.
pub fn insert(
    conn: &mut DbConnection,
    fields: &LanguageFields,
    kind: PluralType,
) -> StoreResult<Language> {
    let id: i64 = crate::with_backend!(conn, |c| diesel::insert_into(languages::table)
        .values((
            languages::code.eq(&fields.code),
            languages::name.eq(&fields.name),
            languages::direction.eq(&fields.direction),
            languages::population.eq(fields.population),
        ))
        .returning(languages::id)
        .get_result(c))?;
    diesel::insert_into(plurals::table)
        .values((
            plurals::language_id.eq(id),
            plurals::source.eq(fields.plural_source),
            plurals::number.eq(fields.plural_number),
            plurals::formula.eq(&fields.plural_formula),
            plurals::kind.eq(kind.0),
        ))
        .execute(conn)?;
    get_by_id(conn, id)
}

fn get_by_id(conn: &mut DbConnection, id: i64) -> StoreResult<Language> {
    let row = languages::table
        .find(id)
        .select(LanguageRow::as_select())
        .first(conn)?;
    attach(conn, vec![row])?
        .pop()
        .ok_or(crate::StoreError::Corrupt("language"))
}

/// Replaces a language's fields and its default plural; returns it, or
/// `None` when another transaction deleted it since it was read.
pub fn update(
    conn: &mut DbConnection,
    id: i64,
    plural_id: i64,
    fields: &LanguageFields,
    kind: PluralType,
) -> StoreResult<Option<Language>> {
    let rows = diesel::update(languages::table.find(id))
        .set((
            languages::code.eq(&fields.code),
            languages::name.eq(&fields.name),
            languages::direction.eq(&fields.direction),
            languages::population.eq(fields.population),
        ))
        .execute(conn)?;
    if rows == 0 {
        return Ok(None);
    }
    diesel::update(plurals::table.find(plural_id))
        .set((
            plurals::source.eq(fields.plural_source),
            plurals::number.eq(fields.plural_number),
            plurals::formula.eq(&fields.plural_formula),
            plurals::kind.eq(kind.0),
        ))
        .execute(conn)?;
    get_by_id(conn, id).map(Some)
}

/// Number of translations in this language.
pub fn translation_count(conn: &mut DbConnection, id: i64) -> StoreResult<i64> {
    Ok(translations::table
        .filter(translations::language_id.eq(id))
        .count()
        .get_result(conn)?)
}

/// Deletes a language with its plurals and aliases; false when another
/// transaction deleted it first.
pub fn delete(conn: &mut DbConnection, id: i64) -> StoreResult<bool> {
    Ok(diesel::delete(languages::table.find(id)).execute(conn)? == 1)
}

/// Number of defined languages.
pub fn count(conn: &mut DbConnection) -> StoreResult<i64> {
    Ok(languages::table.count().get_result(conn)?)
}
