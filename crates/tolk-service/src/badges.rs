//! Status badges (Weblate's widgets): how much of a project, a component
//! or a project's language is translated, for a README or a web page. A
//! project's badges leave its glossaries out, as Weblate's do.

use tolk_domain::permission::Subject;
use tolk_domain::stats::Counters;
use tolk_store::languages;
use tolk_store::{components, stats};

use crate::components::visible_component;
use crate::projects::visible_project;
use crate::{ServiceError, ServiceResult};

crate::service::area!(
    /// The use-cases of status badges: the translation counters of what a
    /// badge shows, as the caller may see it.
    Badges,
    badges
);

/// What a badge shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadgeOf<'a> {
    /// A project (its slug), glossaries left out.
    Project(&'a str),
    /// A component (project and component slugs).
    Component(&'a str, &'a str),
    /// One language of a project (project slug and language code),
    /// glossaries left out.
    ProjectLanguage(&'a str, &'a str),
}

impl Badges<'_> {
    /// The summed counters of what `of` names; not found when it does not
    /// exist or the caller may not see it; a few statements, none per
    /// component or translation.
    pub fn counters(&self, subject: &Subject, of: BadgeOf<'_>) -> ServiceResult<Counters> {
        self.store.read(|conn| match of {
            BadgeOf::Component(project, slug) => {
                let view = visible_component(conn, subject, project, slug)?;
                Ok(stats::counters_of_components(
                    conn,
                    &[view.component.id],
                    None,
                )?)
            }
            BadgeOf::Project(slug) | BadgeOf::ProjectLanguage(slug, _) => {
                let project = visible_project(conn, subject, slug)?;
                let language = match of {
                    // The row alone: its plurals and aliases are not needed.
                    BadgeOf::ProjectLanguage(_, code) => Some(
                        languages::get_by_codes(conn, &[code.to_owned()])?
                            .pop()
                            .ok_or(ServiceError::NotFound)?
                            .id,
                    ),
                    _ => None,
                };
                let ids: Vec<i64> = components::of_project(conn, project.id)?
                    .into_iter()
                    .filter(|c| !c.settings.is_glossary)
                    .map(|c| c.id)
                    .collect();
                Ok(stats::counters_of_components(conn, &ids, language)?)
            }
        })
    }
}
