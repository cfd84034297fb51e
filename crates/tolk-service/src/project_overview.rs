//! What a project's page shows: the project, a page of its components
//! the caller may see with their counters, and its languages with theirs,
//! in a fixed number of statements.

use tolk_domain::permission::Subject;
use tolk_domain::stats::Counters;
use tolk_store::languages::LanguageRow;
use tolk_store::stats::{self, Summary};
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
