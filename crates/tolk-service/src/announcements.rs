//! Announcements (§17.2) on projects, a project's languages, categories,
//! components and translations: listed by whoever sees the object,
//! posted with `announcement.add` and removed with `announcement.delete`
//! on it. Posting one is recorded as a change (`Announcement posted`).

use tolk_domain::announcement::Posting;
use tolk_domain::change::Action;
use tolk_domain::permission::{Permission, Subject, Target};
use tolk_store::announcements::{self, Announcement, NewAnnouncement, Place};
use tolk_store::changes::{self, NewChange};
use tolk_store::{DbConnection, Page, PageRequest, languages, time, translations};

use crate::access::{page, require};
use crate::components::visible_component;
use crate::projects::visible_project;
use crate::translations::visible_translation;
use crate::{ServiceError, ServiceResult};

/// The object whose announcements are meant, as a request names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope<'a> {
    /// A project, by slug.
    Project(&'a str),
    /// A language of a project: project slug, language code.
    ProjectLanguage(&'a str, &'a str),
    /// A category, by id.
    Category(i64),
    /// A component: project slug, component path.
    Component(&'a str, &'a str),
    /// A translation: project slug, component path, language code.
    Translation(&'a str, &'a str, &'a str),
}

/// A scope found: where its announcements are kept, what the access
/// check asks about, and what a change about it names.
struct Found {
    place: Place,
    target: Target,
    translation_id: Option<i64>,
}

/// Finds the object of `scope` the caller sees (404 otherwise; an
/// unknown language code of a project is a 400, as for Weblate).
fn find(conn: &mut DbConnection, subject: &Subject, scope: Scope<'_>) -> ServiceResult<Found> {
    let place = |project_id| Place {
        project_id,
        category_id: None,
        component_id: None,
        language_id: None,
    };
    Ok(match scope {
        Scope::Project(slug) => {
            let project = visible_project(conn, subject, slug)?;
            Found {
                place: place(project.id),
                target: Target::Project(project.as_ref()),
                translation_id: None,
            }
        }
        Scope::ProjectLanguage(slug, code) => {
            let project = visible_project(conn, subject, slug)?;
            let language = languages::get_by_codes(conn, &[code.to_owned()])?
                .pop()
                .ok_or_else(|| ServiceError::invalid("language_code", "Language not found."))?;
            if !translations::project_has_language(conn, project.id, language.id)? {
                return Err(ServiceError::NotFound);
            }
            Found {
                place: Place {
                    language_id: Some(language.id),
                    ..place(project.id)
                },
                target: Target::Project(project.as_ref()),
                translation_id: None,
            }
        }
        Scope::Category(id) => {
            let view = crate::categories::visible(conn, subject, id)?;
            Found {
                place: Place {
                    category_id: Some(view.category.id),
                    ..place(view.project.id)
                },
                target: Target::Project(view.project.as_ref()),
                translation_id: None,
            }
        }
        Scope::Component(project, component) => {
            let view = visible_component(conn, subject, project, component)?;
            Found {
                place: Place {
                    component_id: Some(view.component.id),
                    ..place(view.project.id)
                },
                target: view.target(),
                translation_id: None,
            }
        }
        Scope::Translation(project, component, language) => {
            let view = visible_translation(conn, subject, (project, component, language))?;
            Found {
                place: Place {
                    component_id: Some(view.component.component.id),
                    language_id: Some(view.language.row.id),
                    ..place(view.component.project.id)
                },
                target: view.target(),
                translation_id: Some(view.translation.id),
            }
        }
    })
}

/// Refusal of a caller without the permission.
const DENIED: &str = "You do not have permission to perform this action.";

crate::service::area!(
    /// The use-cases of announcements.
    Announcements,
    announcements
);

impl Announcements<'_> {
    /// The announcements of an object the caller sees, by id.
    pub fn list(
        &self,
        subject: &Subject,
        scope: Scope<'_>,
        request: PageRequest,
    ) -> ServiceResult<Page<Announcement>> {
        self.store.read(|conn| {
            let found = find(conn, subject, scope)?;
            page(announcements::list(conn, found.place, request))
        })
    }

    /// Posts an announcement on an object (needs `announcement.add`).
    pub fn post(
        &self,
        subject: &Subject,
        scope: Scope<'_>,
        posting: impl FnOnce() -> Result<Posting, ServiceError>,
    ) -> ServiceResult<Announcement> {
        self.store.write(|conn| {
            let found = find(conn, subject, scope)?;
            require(subject, Permission::ANNOUNCEMENT_ADD, found.target, DENIED)?;
            let posting = posting()?;
            let now = time::now();
            let new = NewAnnouncement {
                place: found.place,
                user_id: subject.user_id(),
                message: posting.message.clone(),
                severity: posting.severity,
                expiry: posting.expiry,
                notify: posting.notify,
                created: now,
            };
            let id = announcements::insert(conn, &new)?;
            let change = NewChange {
                project_id: Some(found.place.project_id),
                component_id: found.place.component_id,
                translation_id: found.translation_id,
                language_id: found.place.language_id,
                target: posting.message,
                ..NewChange::new(Action::ANNOUNCEMENT, subject.user_id())
            };
            changes::record(conn, &change, now)?;
            announcements::get(conn, found.place, id)?.ok_or(ServiceError::NotFound)
        })
    }

    /// Removes an announcement of an object (needs `announcement.delete`
    /// on it); one of another object is not found.
    pub fn delete(&self, subject: &Subject, scope: Scope<'_>, id: i64) -> ServiceResult<()> {
        self.store.write(|conn| {
            let found = find(conn, subject, scope)?;
            require(
                subject,
                Permission::ANNOUNCEMENT_DELETE,
                found.target,
                DENIED,
            )?;
            if announcements::delete(conn, found.place, id)? {
                Ok(())
            } else {
                Err(ServiceError::NotFound)
            }
        })
    }
}
