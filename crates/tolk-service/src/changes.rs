//! The change history as the caller may see it.

use chrono::NaiveDateTime;
use tolk_domain::permission::Subject;
use tolk_store::changes::{self, ChangeFilter, ChangeLinks, ChangeRow};
use tolk_store::languages::LanguageScope;
use tolk_store::{Page, PageRequest, users};

use crate::access::page;
use crate::components::visible_component;
use crate::projects::visible_project;
use crate::translations::visible_translation;
use crate::users::manages_users;
use crate::{ServiceError, ServiceResult};

/// Filters of a change list, as the client gave them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangeQuery {
    /// Only changes of this object.
    pub scope: ChangeScope,
    /// Only changes by the user with this username.
    pub user: Option<String>,
    /// Only these action codes.
    pub actions: Vec<i32>,
    /// Only changes at or after this time.
    pub after: Option<NaiveDateTime>,
    /// Only changes at or before this time.
    pub before: Option<NaiveDateTime>,
}

/// The object whose changes a list shows, by its slugs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum ChangeScope {
    /// Every change the caller may see.
    #[default]
    All,
    /// A project's.
    Project(String),
    /// A component's: project and component slug.
    Component(String, String),
    /// A translation's: project, component and language code.
    Translation(String, String, String),
    /// Those of translations into a language, by its code.
    Language(String),
    /// Those of a project's translations into a language: project slug
    /// and language code.
    ProjectLanguage(String, String),
}

/// Changes with what their URLs need.
pub type ChangePage = (Page<ChangeRow>, ChangeLinks);

crate::service::area!(
    /// The use-cases of the history of changes.
    Changes,
    changes
);

impl Changes<'_> {
    fn change_filter(
        &self,
        conn: &mut tolk_store::DbConnection,
        subject: &Subject,
        query: &ChangeQuery,
    ) -> ServiceResult<ChangeFilter> {
        let (mut project_id, mut component_id, mut translation_id) = (None, None, None);
        let mut language_id = None;
        let language = |conn: &mut tolk_store::DbConnection, code: &str| {
            tolk_store::languages::get_by_code(conn, code, LanguageScope::All)?
                .map(|l| l.row.id)
                .ok_or(ServiceError::NotFound)
        };
        match &query.scope {
            ChangeScope::All => {}
            ChangeScope::Project(slug) => {
                project_id = Some(visible_project(conn, subject, slug)?.id)
            }
            ChangeScope::Component(p, c) => {
                component_id = Some(visible_component(conn, subject, p, c)?.component.id);
            }
            ChangeScope::Translation(p, c, l) => {
                let view = visible_translation(conn, subject, (p, c, l))?;
                translation_id = Some(view.translation.id);
            }
            ChangeScope::Language(code) => language_id = Some(language(conn, code)?),
            ChangeScope::ProjectLanguage(slug, code) => {
                project_id = Some(visible_project(conn, subject, slug)?.id);
                language_id = Some(language(conn, code)?);
            }
        }
        let user_id = match &query.user {
            // An unknown username matches no change.
            Some(username) => Some(users::id_of(conn, username)?.unwrap_or(-1)),
            None => None,
        };
        Ok(ChangeFilter {
            project_id,
            component_id,
            translation_id,
            language_id,
            user_id,
            actions: query.actions.clone(),
            after: query.after,
            before: query.before,
            visibility: subject.project_visibility(),
            site_wide: manages_users(subject),
        })
    }

    /// Lists the changes the caller may see, newest first.
    pub fn list(
        &self,
        subject: &Subject,
        query: &ChangeQuery,
        request: PageRequest,
    ) -> ServiceResult<ChangePage> {
        self.store.read(|conn| {
            let filter = self.change_filter(conn, subject, query)?;
            let found = page(changes::list(conn, &filter, request))?;
            let links = changes::links(conn, &found.items)?;
            Ok((found, links))
        })
    }

    /// One change, if the caller may see it.
    pub fn get(&self, subject: &Subject, id: i64) -> ServiceResult<(ChangeRow, ChangeLinks)> {
        self.store.read(|conn| {
            let filter = self.change_filter(conn, subject, &ChangeQuery::default())?;
            let row = changes::get(conn, id, &filter)?.ok_or(ServiceError::NotFound)?;
            let links = changes::links(conn, std::slice::from_ref(&row))?;
            Ok((row, links))
        })
    }
}
