//! The change history.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::prelude::*;
use tolk_domain::change::Action;
use tolk_domain::permission::ProjectVisibility;

use crate::DbConnection;
use crate::error::StoreResult;
use crate::page::{Page, PageRequest};
use crate::schema::{changes, components, languages, projects, translations, users};

/// A change to record.
#[derive(Debug, Clone, PartialEq)]
pub struct NewChange {
    /// What happened.
    pub action: Action,
    /// Who did it.
    pub user_id: Option<i64>,
    /// Whose content it is.
    pub author_id: Option<i64>,
    /// Project concerned.
    pub project_id: Option<i64>,
    /// Component concerned.
    pub component_id: Option<i64>,
    /// Translation concerned.
    pub translation_id: Option<i64>,
    /// Unit concerned.
    pub unit_id: Option<i64>,
    /// Language concerned.
    pub language_id: Option<i64>,
    /// Add-on concerned.
    pub addon_id: Option<i64>,
    /// New value or related text.
    pub target: String,
    /// Previous value.
    pub old: String,
    /// Action-specific details.
    pub details: serde_json::Value,
}

impl NewChange {
    /// A change of `action` by `user_id` with everything else empty.
    pub fn new(action: Action, user_id: Option<i64>) -> Self {
        Self {
            action,
            user_id,
            author_id: user_id,
            project_id: None,
            component_id: None,
            translation_id: None,
            unit_id: None,
            language_id: None,
            addon_id: None,
            target: String::new(),
            old: String::new(),
            details: serde_json::json!({}),
        }
    }
}

/// A recorded change.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = changes)]
pub struct ChangeRow {
    /// Primary key.
    pub id: i64,
    /// Action code.
    pub action: i32,
    /// When it happened.
    pub created: NaiveDateTime,
    /// Acting user.
    pub user_id: Option<i64>,
    /// Author of the content.
    pub author_id: Option<i64>,
    /// Project.
    pub project_id: Option<i64>,
    /// Component.
    pub component_id: Option<i64>,
    /// Translation.
    pub translation_id: Option<i64>,
    /// Unit.
    pub unit_id: Option<i64>,
    /// Language.
    pub language_id: Option<i64>,
    /// Add-on.
    pub addon_id: Option<i64>,
    /// New value.
    pub target: String,
    /// Previous value.
    pub old: String,
    /// Details as JSON.
    pub details: String,
}

/// Records a change.
pub fn record(conn: &mut DbConnection, change: &NewChange, at: NaiveDateTime) -> StoreResult<()> {
    record_many(conn, vec![change], at)
}

/// Rows per multi-row insert of changes: well under SQLite's limit of bound values.
const CHUNK: usize = 500;

/// Records changes made at one time, with one statement per chunk and
/// one more for the tallies of recent changes.
pub fn record_many(
    conn: &mut DbConnection,
    list: Vec<&NewChange>,
    at: NaiveDateTime,
) -> StoreResult<()> {
    let places: Vec<crate::recent_changes::Place> = list
        .iter()
        .filter(|change| change.action.is_content())
        .map(|change| crate::recent_changes::Place {
            project_id: change.project_id,
            language_id: change.language_id,
            translation_id: change.translation_id,
        })
        .collect();
    crate::recent_changes::tally(conn, &places, at)?;
    for chunk in list.chunks(CHUNK) {
        let rows: Vec<_> = chunk
            .iter()
            .map(|change| {
                (
                    changes::action.eq(change.action.0),
                    changes::created.eq(at),
                    changes::user_id.eq(change.user_id),
                    changes::author_id.eq(change.author_id),
                    changes::project_id.eq(change.project_id),
                    changes::component_id.eq(change.component_id),
                    changes::translation_id.eq(change.translation_id),
                    changes::unit_id.eq(change.unit_id),
                    changes::language_id.eq(change.language_id),
                    changes::addon_id.eq(change.addon_id),
                    changes::target.eq(&change.target),
                    changes::old.eq(&change.old),
                    changes::details.eq(change.details.to_string()),
                )
            })
            .collect();
        match rows.as_slice() {
            // One edit's change: a one-row insert, which stays prepared.
            [row] => crate::with_backend!(conn, |c| diesel::insert_into(changes::table)
                .values(row)
                .execute(c))?,
            _ => crate::with_backend!(conn, |c| diesel::insert_into(changes::table)
                .values(&rows)
                .execute(c))?,
        };
    }
    Ok(())
}

/// Which changes a list shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeFilter {
    /// Only changes of this project.
    pub project_id: Option<i64>,
    /// Only changes of this component.
    pub component_id: Option<i64>,
    /// Only changes of this translation.
    pub translation_id: Option<i64>,
    /// Only changes of translations into this language.
    pub language_id: Option<i64>,
    /// Only changes by this user.
    pub user_id: Option<i64>,
    /// Only these actions (any of them); empty for all.
    pub actions: Vec<i32>,
    /// Only changes at or after this time.
    pub after: Option<NaiveDateTime>,
    /// Only changes at or before this time.
    pub before: Option<NaiveDateTime>,
    /// Projects whose changes the caller may see.
    pub visibility: ProjectVisibility,
    /// Whether changes outside any project (accounts, languages) are visible.
    pub site_wide: bool,
}

type BoxedChanges<'a> = changes::BoxedQuery<'a, crate::MultiBackend>;

fn filtered(filter: &ChangeFilter) -> BoxedChanges<'static> {
    let mut query = changes::table.into_boxed();
    if let Some(visible) = crate::projects::visible_ids(&filter.visibility) {
        // A NULL project id is in no list: only `site_wide` lets it through.
        let in_visible = changes::project_id.assume_not_null().eq_any(visible);
        query = if filter.site_wide {
            query.filter(changes::project_id.is_null().or(in_visible))
        } else {
            query.filter(in_visible)
        };
    } else if !filter.site_wide {
        query = query.filter(changes::project_id.is_not_null());
    }
    if let Some(project_id) = filter.project_id {
        query = query.filter(changes::project_id.eq(project_id));
    }
    if let Some(component_id) = filter.component_id {
        query = query.filter(changes::component_id.eq(component_id));
    }
    if let Some(translation_id) = filter.translation_id {
        query = query.filter(changes::translation_id.eq(translation_id));
    }
    if let Some(language_id) = filter.language_id {
        query = query.filter(changes::language_id.eq(language_id));
    }
    if let Some(user_id) = filter.user_id {
        query = query.filter(changes::user_id.eq(user_id));
    }
    if !filter.actions.is_empty() {
        query = query.filter(changes::action.eq_any(filter.actions.clone()));
    }
    if let Some(after) = filter.after {
        query = query.filter(changes::created.ge(after));
    }
    if let Some(before) = filter.before {
        query = query.filter(changes::created.le(before));
    }
    query
}

/// Lists changes, newest first; `None` for a page past the end.
pub fn list(
    conn: &mut DbConnection,
    filter: &ChangeFilter,
    page: PageRequest,
) -> StoreResult<Option<Page<ChangeRow>>> {
    page.run(
        conn,
        |conn| Ok::<_, crate::StoreError>(filtered(filter).count().get_result(conn)?),
        |conn, offset, limit| {
            Ok(filtered(filter)
                .order((changes::created.desc(), changes::id.desc()))
                .offset(offset)
                .limit(limit)
                .select(ChangeRow::as_select())
                .load(conn)?)
        },
    )
}

/// One change, if the filter lets it through.
pub fn get(
    conn: &mut DbConnection,
    id: i64,
    filter: &ChangeFilter,
) -> StoreResult<Option<ChangeRow>> {
    Ok(filtered(filter)
        .filter(changes::id.eq(id))
        .select(ChangeRow::as_select())
        .first(conn)
        .optional()?)
}

/// The path segments that locate related objects in API URLs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangeLinks {
    /// Username by user id.
    pub users: HashMap<i64, String>,
    /// (project slug, component slug) by component id.
    pub components: HashMap<i64, (String, String)>,
    /// (project slug, component slug, language code) by translation id.
    pub translations: HashMap<i64, (String, String, String)>,
}

/// Loads what URLs of the given changes need, with three statements.
pub fn links(conn: &mut DbConnection, rows: &[ChangeRow]) -> StoreResult<ChangeLinks> {
    let user_ids: Vec<i64> = rows
        .iter()
        .flat_map(|r| [r.user_id, r.author_id])
        .flatten()
        .collect();
    let component_ids: Vec<i64> = rows.iter().filter_map(|r| r.component_id).collect();
    let translation_ids: Vec<i64> = rows.iter().filter_map(|r| r.translation_id).collect();
    let components = components::table
        .inner_join(projects::table)
        .filter(components::id.eq_any(&component_ids))
        .select((components::id, projects::slug, components::path))
        .load::<(i64, String, String)>(conn)?
        .into_iter()
        .map(|(id, p, c)| (id, (p, c)))
        .collect();
    let translations = translations::table
        .inner_join(components::table.inner_join(projects::table))
        .inner_join(languages::table)
        .filter(translations::id.eq_any(&translation_ids))
        .select((
            translations::id,
            projects::slug,
            components::path,
            languages::code,
        ))
        .load::<(i64, String, String, String)>(conn)?
        .into_iter()
        .map(|(id, p, c, l)| (id, (p, c, l)))
        .collect();
    Ok(ChangeLinks {
        users: crate::users::usernames(conn, &user_ids)?,
        components,
        translations,
    })
}

/// Number of recorded changes.
pub fn count(conn: &mut DbConnection) -> StoreResult<i64> {
    Ok(changes::table.count().get_result(conn)?)
}

/// The action and text of a component's latest repository change, if any.
pub fn latest_repository_change(
    conn: &mut DbConnection,
    component_id: i64,
) -> StoreResult<Option<(i32, String)>> {
    let repository: Vec<i32> = Action::all()
        .filter(|a| a.is_repository())
        .map(|a| a.0)
        .collect();
    Ok(changes::table
        .filter(changes::component_id.eq(component_id))
        .filter(changes::action.eq_any(repository))
        .order(changes::id.desc())
        .select((changes::action, changes::target))
        .first(conn)
        .optional()?)
}

/// The newest `limit` changes of a unit with the username of who made
/// each (none for a removed account or the system), newest first; one
/// statement.
pub fn of_unit(
    conn: &mut DbConnection,
    unit_id: i64,
    limit: i64,
) -> StoreResult<Vec<(ChangeRow, Option<String>)>> {
    Ok(changes::table
        .left_join(users::table.on(changes::user_id.eq(users::id.nullable())))
        .filter(changes::unit_id.eq(unit_id))
        .order(changes::id.desc())
        .limit(limit)
        .select((ChangeRow::as_select(), users::username.nullable()))
        .load(conn)?)
}

/// A change of a string as a check reads it: the unit, the action, the
/// translation written and the change's details (JSON).
pub type UnitHistoryRow = (i64, i32, String, String);

/// The changes with one of `actions` of the units `unit_ids`, or of every
/// unit of `translation_id`, newest first; one statement.
pub fn unit_history(
    conn: &mut DbConnection,
    of: HistoryOf<'_>,
    actions: &[i32],
) -> StoreResult<Vec<UnitHistoryRow>> {
    let query = changes::table
        .filter(changes::action.eq_any(actions.to_vec()))
        .order(changes::id.desc())
        .select((
            changes::unit_id,
            changes::action,
            changes::target,
            changes::details,
        ))
        .into_boxed();
    let query = match of {
        HistoryOf::Units(ids) => query.filter(changes::unit_id.eq_any(ids.to_vec())),
        HistoryOf::Translation(id) => query
            .filter(changes::translation_id.eq(id))
            .filter(changes::unit_id.is_not_null()),
    };
    let rows: Vec<(Option<i64>, i32, String, String)> = query.load(conn)?;
    Ok(rows
        .into_iter()
        .filter_map(|(unit, action, target, details)| Some((unit?, action, target, details)))
        .collect())
}

/// Whose history [`unit_history`] reads.
#[derive(Debug, Clone, Copy)]
pub enum HistoryOf<'a> {
    /// These units'.
    Units(&'a [i64]),
    /// Every unit's of this translation.
    Translation(i64),
}

/// The user of each unit's latest change with a user, by unit id.
pub fn last_editors(conn: &mut DbConnection, unit_ids: &[i64]) -> StoreResult<HashMap<i64, i64>> {
    let rows: Vec<(Option<i64>, Option<i64>)> = changes::table
        .filter(changes::unit_id.eq_any(unit_ids.to_vec()))
        .filter(changes::user_id.is_not_null())
        .order(changes::id)
        .select((changes::unit_id, changes::user_id))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter_map(|(unit, user)| Some((unit?, user?)))
        .collect())
}

/// The latest change of a translation (the row of `last_authors`' first
/// statement).
#[derive(QueryableByName)]
struct Latest {
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::BigInt>)]
    change: Option<i64>,
}

/// Translations whose latest content change one statement finds.
const LATEST_CHUNK: usize = 500;

/// The display name (full name, else username) of the author of each
/// translation's latest content change, by translation id; two statements
/// per few hundred translations. Each latest change is found by walking
/// the translation's changes back in time in their index until one has
/// an author (a translation's thousands of changes are never all read).
pub fn last_authors(
    conn: &mut DbConnection,
    translation_ids: &[i64],
) -> StoreResult<HashMap<i64, String>> {
    let content: Vec<String> = Action::all()
        .filter(|a| a.is_content())
        .map(|a| a.0.to_string())
        .collect();
    let mut latest: Vec<i64> = Vec::new();
    for chunk in translation_ids.chunks(LATEST_CHUNK) {
        let (values, _) = crate::sql::numbered_rows(conn, chunk.len(), &["BIGINT"]);
        let sql = format!(
            "WITH v(id) AS (VALUES {values}) \
             SELECT (SELECT c.id FROM changes c WHERE c.translation_id = v.id \
             AND c.action IN ({}) AND c.user_id IS NOT NULL \
             ORDER BY c.created DESC, c.id DESC LIMIT 1) AS change FROM v",
            content.join(", ")
        );
        let mut query = diesel::sql_query(sql).into_boxed::<crate::MultiBackend>();
        for id in chunk {
            query = query.bind::<diesel::sql_types::BigInt, _>(*id);
        }
        latest.extend(
            query
                .load::<Latest>(conn)?
                .into_iter()
                .filter_map(|l| l.change),
        );
    }
    let rows: Vec<(Option<i64>, String, String)> = changes::table
        .inner_join(users::table.on(changes::user_id.eq(users::id.nullable())))
        .filter(changes::id.eq_any(latest))
        .select((changes::translation_id, users::full_name, users::username))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter_map(|(translation, full_name, username)| {
            let name = if full_name.is_empty() {
                username
            } else {
                full_name
            };
            Some((translation?, name))
        })
        .collect())
}
