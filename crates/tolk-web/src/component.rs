//! A component's page (`/projects/{project}/{component path}/`: its
//! languages with their progress) and a translation's page
//! (`/projects/{project}/{component path}/{language}/`: its progress,
//! counts that open the editor on those strings, and its downloads). A category path and a
//! component path look alike: what the visitor can see of the project
//! tells them apart. `/projects/{project}/-/…` (a project's languages) is
//! not served here.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;
use tolk_domain::permission::Subject;
use tolk_domain::stats::percent;
use tolk_service::component_rights::ComponentRights;
use tolk_service::components::ComponentView;
use tolk_service::repository::Waiting;
use tolk_service::translations::TranslationView;
use tolk_service::{Page, PageRequest, Service, ServiceError};

use crate::download::OFFERED;
use crate::error::WebError;
use crate::forms::PageQuery;
use crate::page::{Chrome, answer, blocking, render};
use crate::paths::TranslationPath;
use crate::progress::ProgressLine;
use crate::searches::COMMON;
use crate::site::Pages;
use crate::upkeep::Done;
use crate::visitor::Visitor;

/// Languages on one page of a component's page.
const PAGE_SIZE: u64 = 100;

/// Registers the component and translation pages.
pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route(
        "/projects/{project}/{rest:[^-].*|-[^/].*}",
        web::get().to(inside),
    );
}

/// What an address inside a project names.
enum Inside {
    Component(Box<Listed>),
    Translation(TranslationPath, Box<TranslationView>),
}

/// A component with a page of its languages, what the visitor may do with
/// it, and what waits in its repository for those who look after it.
pub(crate) struct Listed {
    component: ComponentView,
    translations: Page<TranslationView>,
    rights: ComponentRights,
    waiting: Option<Waiting>,
}

impl Listed {
    /// The component at `path` of `project` with the `request`ed page of
    /// its languages, as `subject` may see it.
    pub(crate) fn read(
        service: &Service,
        subject: &Subject,
        (project, path): (&str, &str),
        request: PageRequest,
    ) -> Result<Listed, ServiceError> {
        let translations = service
            .translations()
            .list(subject, Some((project, path)), request)?;
        // Its translations carry the component, unless it has none.
        let component = match translations.items.first() {
            Some(first) => first.component.clone(),
            None => service.components().get(subject, project, path)?,
        };
        let rights = ComponentRights::of(subject, &component);
        let waiting = if rights.maintains() {
            Some(service.repository().waiting(subject, project, path)?)
        } else {
            None
        };
        Ok(Listed {
            component,
            translations,
            rights,
            waiting,
        })
    }
}

#[derive(Template)]
#[template(path = "component.html")]
pub(crate) struct ComponentPage {
    chrome: Chrome,
    project: String,
    project_href: String,
    name: String,
    base: String,
    languages: Vec<ProgressLine>,
    page: u64,
    last_page: u64,
    rights: ComponentRights,
    locked: bool,
    waiting: Option<Waiting>,
    /// Where its repository's and lock's forms post.
    repository_href: String,
    /// Where the form adding a language posts.
    add_language_href: String,
    /// What the last action did, as its redirect told.
    pub(crate) notice: Option<String>,
    /// Why the last action was refused or failed.
    pub(crate) message: Option<String>,
}

/// A count of strings that opens the editor on them.
struct Count {
    label: &'static str,
    strings: i64,
    href: String,
}

#[derive(Template)]
#[template(path = "translation.html")]
struct TranslationPage {
    chrome: Chrome,
    project: String,
    project_href: String,
    component: String,
    component_href: String,
    language: String,
    translated: f64,
    translate_href: String,
    zen_href: String,
    counts: Vec<Count>,
    /// Downloads: name and address, the file as stored first.
    downloads: Vec<(&'static str, String)>,
    upload_href: String,
    /// What the last upload did, as its redirect told.
    notice: Option<String>,
    /// Why the last upload was refused.
    message: Option<String>,
}

/// What an upload did, as it sends the browser back to the page.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Uploaded {
    /// Strings taken.
    accepted: Option<usize>,
    /// Strings left as they were.
    skipped: Option<usize>,
    /// Strings the translation does not have.
    not_found: Option<usize>,
}

impl Uploaded {
    /// The notice of an upload, if the address tells of one.
    fn notice(&self) -> Option<String> {
        let accepted = self.accepted?;
        Some(format!(
            "The file was uploaded: {accepted} strings taken, {} left as they were, {} not in this translation.",
            self.skipped.unwrap_or(0),
            self.not_found.unwrap_or(0)
        ))
    }
}

async fn inside(
    visitor: Visitor,
    params: web::Path<(String, String)>,
    query: web::Query<PageQuery>,
    uploaded: web::Query<Uploaded>,
    done: web::Query<Done>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    let (project, rest) = params.into_inner();
    let (service, subject) = (pages.service.clone(), visitor.subject.clone());
    let request = query.request(PAGE_SIZE);
    let found = blocking(move || {
        let path = rest.trim_end_matches('/').to_owned();
        match Listed::read(&service, &subject, (&project, &path), request) {
            Ok(listed) => Ok(Inside::Component(Box::new(listed))),
            Err(ServiceError::NotFound) => {
                let path = TranslationPath::parse(&project, &rest).ok_or(ServiceError::NotFound)?;
                let translation = service.translations().brief(&subject, path.key())?;
                Ok(Inside::Translation(path, Box::new(translation)))
            }
            Err(other) => Err(other),
        }
    })
    .await??;
    let chrome = Chrome::of(&pages, &visitor);
    let mut reply = answer(StatusCode::OK);
    visitor.keep_seed(&pages, &mut reply);
    match found {
        Inside::Component(listed) => {
            let mut page = component_page(chrome, *listed);
            page.notice = done.notice();
            render(reply, &page)
        }
        Inside::Translation(path, translation) => {
            let mut page = translation_page(chrome, &path, &translation);
            page.notice = uploaded.notice();
            render(reply, &page)
        }
    }
}

/// The page of a component.
pub(crate) fn component_page(chrome: Chrome, listed: Listed) -> ComponentPage {
    let Listed {
        component,
        translations,
        rights,
        waiting,
    } = listed;
    let project = &component.project.settings;
    let path = format!("{}/{}/", project.slug, component.component.path);
    let base = format!("/projects/{path}");
    ComponentPage {
        rights,
        locked: component.component.locked,
        waiting,
        repository_href: format!("/repository/{path}"),
        add_language_href: format!("/new-lang/{path}"),
        notice: None,
        message: None,
        chrome,
        project: project.name.clone(),
        project_href: format!("/projects/{}/", project.slug),
        name: component.component.settings.name.clone(),
        page: translations.number,
        last_page: translations.last_number(),
        languages: translations
            .items
            .into_iter()
            .map(|t| {
                let href = format!("{base}{}/", t.language.row.code);
                ProgressLine::new(t.language.row.name, href, &t.translation.counters)
            })
            .collect(),
        base,
    }
}

fn translation_page(
    chrome: Chrome,
    path: &TranslationPath,
    translation: &TranslationView,
) -> TranslationPage {
    let counters = &translation.translation.counters;
    let total = counters.total.strings;
    TranslationPage {
        chrome,
        project: translation.component.project.settings.name.clone(),
        project_href: format!("/projects/{}/", path.project),
        component: translation.component.component.settings.name.clone(),
        component_href: path.component_page(),
        language: translation.language.row.name.clone(),
        translated: percent(counters.translated.strings, total, true),
        translate_href: path.editor(None, ""),
        zen_href: path.zen("", None),
        downloads: std::iter::once(("As stored", path.download(None)))
            .chain(
                OFFERED
                    .iter()
                    .map(|(format, name)| (*name, path.download(Some(format)))),
            )
            .collect(),
        counts: COMMON
            .iter()
            .map(|search| Count {
                label: search.label,
                strings: (search.count)(counters),
                href: path.editor(None, search.q),
            })
            .collect(),
        upload_href: path.upload(),
        notice: None,
        message: None,
    }
}

/// The translation's page again after a refused upload, with the reason.
pub(crate) async fn translation_again(
    pages: &web::Data<Pages>,
    visitor: &Visitor,
    path: &TranslationPath,
    (status, words): (StatusCode, String),
) -> Result<HttpResponse, WebError> {
    let (service, subject, key) = (pages.service.clone(), visitor.subject.clone(), path.clone());
    let translation = blocking(move || service.translations().brief(&subject, key.key())).await??;
    let mut page = translation_page(Chrome::of(pages, visitor), path, &translation);
    page.message = Some(words);
    let mut reply = answer(status);
    visitor.keep_seed(pages, &mut reply);
    render(reply, &page)
}

/// The component's page again after a refused or failed action, with the
/// reason.
pub(crate) async fn component_again(
    pages: &web::Data<Pages>,
    visitor: &Visitor,
    (project, path): (String, String),
    (status, words): (StatusCode, String),
) -> Result<HttpResponse, WebError> {
    let (service, subject) = (pages.service.clone(), visitor.subject.clone());
    let request = PageRequest {
        number: Some(1),
        size: PAGE_SIZE,
    };
    let listed =
        blocking(move || Listed::read(&service, &subject, (&project, &path), request)).await??;
    let mut page = component_page(Chrome::of(pages, visitor), listed);
    page.message = Some(words);
    let mut reply = answer(status);
    visitor.keep_seed(pages, &mut reply);
    render(reply, &page)
}
