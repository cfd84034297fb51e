//! What a project's pages show, each in a fixed number of statements:
//! the project, a page of its components the caller may see with their
//! counters, and its languages with theirs; or one language of it, with
//! the translations of a page of its components into that language.

use tolk_domain::permission::Subject;
use tolk_domain::stats::Counters;
use tolk_store::languages::LanguageRow;
use tolk_store::stats::{self, Summary};
use tolk_store::translations;
use tolk_store::{Page, PageRequest};

use crate::ServiceResult;
use crate::component_view::ComponentView;
use crate::projects::{ProjectView, with_counters};

/// A project with its components and languages, each with its progress.
#[derive(Debug, Clone)]
pub struct ProjectOverview {
    /// The project.
    pub project: ProjectView,
    /// A page of its components the caller may see, by id.
    pub components: Page<(ComponentView, Counters)>,
    /// Its languages, by name.
    pub languages: Vec<(LanguageRow, Summary)>,
}

impl crate::projects::Projects<'_> {
    /// The overview of the project `slug`, if the caller may see it.
    pub fn overview(
        &self,
        subject: &Subject,
        slug: &str,
        components: PageRequest,
    ) -> ServiceResult<ProjectOverview> {
        let project = self.get(subject, slug)?;
        let found = self.components().list(subject, Some(slug), components)?;
        let ids: Vec<i64> = found.items.iter().map(|v| v.component.id).collect();
        let counters = self
            .store
            .read(|conn| stats::counters_of_each_component(conn, &ids))?;
        let components = with_counters(found, counters, |view| view.component.id);
        let (_, languages) = self.languages(subject, slug)?;
        Ok(ProjectOverview {
            project,
            components,
            languages,
        })
    }
}

/// One language of a project with the translations of a page of its
/// components into it.
#[derive(Debug, Clone)]
pub struct LanguageOverview {
    /// The project.
    pub project: ProjectView,
    /// The language, with the project's counters in it.
    pub language: (LanguageRow, Summary),
    /// The components of the page that have the language, with their
    /// translation's counters.
    pub translations: Vec<(ComponentView, Counters)>,
    /// The number of the page of components read, from 1.
    pub page: u64,
    /// The number of the last page.
    pub last_page: u64,
}

impl crate::projects::Projects<'_> {
    /// The language `code` of the project `slug`, if the caller may see
    /// the project and it has the language.
    pub fn language_overview(
        &self,
        subject: &Subject,
        slug: &str,
        code: &str,
        components: PageRequest,
    ) -> ServiceResult<LanguageOverview> {
        let project = self.get(subject, slug)?;
        let (_, languages) = self.languages(subject, slug)?;
        let language = languages
            .into_iter()
            .find(|(row, _)| row.code == code)
            .ok_or(crate::ServiceError::NotFound)?;
        let found = self.components().list(subject, Some(slug), components)?;
        let ids: Vec<i64> = found.items.iter().map(|v| v.component.id).collect();
        let mut counters: std::collections::HashMap<i64, Counters> = self
            .store
            .read(|conn| translations::of_components(conn, &ids))?
            .into_iter()
            .filter(|t| t.language_id == language.0.id)
            .map(|t| (t.component_id, t.counters))
            .collect();
        let (page, last_page) = (found.number, found.last_number());
        let translations = found
            .items
            .into_iter()
            .filter_map(|view| {
                let found = counters.remove(&view.component.id)?;
                Some((view, found))
            })
            .collect();
        Ok(LanguageOverview {
            project,
            language,
            translations,
            page,
            last_page,
        })
    }
}
