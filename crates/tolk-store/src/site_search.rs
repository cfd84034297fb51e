//! Site search (§22): projects, components, users and languages whose
//! names hold a text, a few of each.

use diesel::prelude::*;
use tolk_domain::permission::ProjectVisibility;

use crate::DbConnection;
use crate::error::StoreResult;
use crate::schema::{components, languages, projects, users};
use crate::sql::lower;

/// Matches of each kind at most.
const PER_KIND: i64 = 5;

/// What a site search found, each list by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    /// Projects: slug and name.
    pub projects: Vec<(String, String)>,
    /// Components: project slug, slug, project name and name.
    pub components: Vec<(String, String, String, String)>,
    /// Usernames.
    pub users: Vec<String>,
    /// Languages: code and name.
    pub languages: Vec<(String, String)>,
}

/// Searches names for `text` in any case; users only when `with_users`.
/// Five statements.
pub fn search(
    conn: &mut DbConnection,
    visibility: &ProjectVisibility,
    text: &str,
    with_users: bool,
) -> StoreResult<Found> {
    let pattern = crate::unit_search::containing(&text.to_lowercase());
    let projects_found = crate::projects::visible(visibility)
        .filter(lower(projects::name).like(pattern.clone()).escape('\\'))
        .order(projects::name)
        .limit(PER_KIND)
        .select((projects::slug, projects::name))
        .load(conn)?;
    let matched: Vec<(i64, String, String)> = crate::components::visible(visibility, None)
        .filter(lower(components::name).like(pattern.clone()).escape('\\'))
        .order(components::name)
        .limit(PER_KIND)
        .select((components::project_id, components::path, components::name))
        .load(conn)?;
    let owners: Vec<(i64, String, String)> = projects::table
        .filter(projects::id.eq_any(matched.iter().map(|m| m.0).collect::<Vec<_>>()))
        .select((projects::id, projects::slug, projects::name))
        .load(conn)?;
    let mut components_found: Vec<(String, String, String, String)> = matched
        .into_iter()
        .filter_map(|(project, slug, name)| {
            let (_, project_slug, project_name) = owners.iter().find(|o| o.0 == project)?;
            Some((project_slug.clone(), slug, project_name.clone(), name))
        })
        .collect();
    components_found.sort_by(|a, b| (&a.2, &a.3).cmp(&(&b.2, &b.3)));
    let users_found = if with_users {
        users::table
            .filter(users::is_active.eq(true))
            .filter(
                lower(users::username)
                    .like(pattern.clone())
                    .escape('\\')
                    .or(lower(users::full_name).like(pattern.clone()).escape('\\')),
            )
            .order(users::username)
            .limit(PER_KIND)
            .select(users::username)
            .load(conn)?
    } else {
        Vec::new()
    };
    let languages_found = languages::table
        .filter(
            lower(languages::name)
                .like(pattern.clone())
                .escape('\\')
                .or(lower(languages::code).like(pattern).escape('\\')),
        )
        .order(languages::name)
        .limit(PER_KIND)
        .select((languages::code, languages::name))
        .load(conn)?;
    Ok(Found {
        projects: projects_found,
        components: components_found,
        users: users_found,
        languages: languages_found,
    })
}
