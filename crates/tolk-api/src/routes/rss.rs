//! RSS 2.0 feeds of recent changes (§27): the site's, a language's, a
//! project's (or a project's language), a component's and a
//! translation's; the ten newest changes the caller may see, each item
//! linking to the change in the API.

use actix_web::{HttpResponse, get, web};
use chrono::{NaiveDateTime, TimeZone, Utc};
use tolk_domain::change::Action;
use tolk_service::changes::{ChangeQuery, ChangeScope};
use tolk_service::{ChangeLinks, ChangeRow, PageRequest};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::error::{ApiResult, ErrorBody};
use crate::links::{Links, nested};
use crate::reply::blocking;
use crate::routes::paths::{ComponentPath, TranslationPath};
use crate::schemas::FileBytes;
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(site_feed)
        .service(language_feed)
        .service(project_feed)
        .service(component_feed)
        .service(translation_feed);
}

/// What a feed route answers, for the OpenAPI document only (never built).
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)]
enum FeedAnswers {
    /// An RSS 2.0 feed.
    #[response(status = 200, content_type = "application/rss+xml")]
    Feed(FileBytes),
    /// Missing or hidden.
    #[response(status = 404)]
    NotFound(ErrorBody),
}

/// Items in a feed.
const ITEMS: u64 = 10;

/// `text` escaped for XML element content and attributes.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A change's date as RSS writes it (RFC 2822).
fn rfc2822(at: NaiveDateTime) -> String {
    Utc.from_utc_datetime(&at).to_rfc2822()
}

/// The object a change is about, in words: `project/component — language`.
fn object_of(row: &ChangeRow, links: &ChangeLinks) -> Option<String> {
    if let Some((project, component, language)) = row
        .translation_id
        .and_then(|id| links.translations.get(&id))
    {
        return Some(format!("{project}/{component} — {language}"));
    }
    row.component_id
        .and_then(|id| links.components.get(&id))
        .map(|(project, component)| format!("{project}/{component}"))
}

/// One `<item>` of a feed.
fn item(row: &ChangeRow, links: &ChangeLinks, urls: &Links) -> String {
    let action = Action(row.action).label();
    let at = rfc2822(row.created);
    let user = row.user_id.and_then(|id| links.users.get(&id));
    let mut description = format!("{action} at {at}");
    if let Some(object) = object_of(row, links) {
        description.push_str(&format!(" on {object}"));
    }
    if let Some(user) = user {
        description.push_str(&format!(" by {user}"));
    }
    let link = urls.api(&["changes", &row.id.to_string()]);
    let creator = user.map_or(String::new(), |u| {
        format!("      <dc:creator>{}</dc:creator>\n", escape(u))
    });
    format!(
        "    <item>\n      <title>{}</title>\n      <link>{}</link>\n      \
         <description>{}</description>\n{creator}      <pubDate>{at}</pubDate>\n      \
         <guid isPermaLink=\"false\">{}</guid>\n    </item>\n",
        escape(action),
        escape(&link),
        escape(&description),
        escape(&link),
    )
}

/// The feed of the changes `scope` selects: `name` says what of, `link`
/// where it is.
async fn feed(
    caller: Caller,
    scope: ChangeScope,
    (name, link): (Option<String>, String),
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let query = ChangeQuery {
        scope,
        ..ChangeQuery::default()
    };
    let request = PageRequest {
        number: Some(1),
        size: ITEMS,
    };
    let (page, found) =
        blocking(move || service.changes().list(&caller.0, &query, request)).await?;
    let (title, description) = match &name {
        Some(name) => (
            format!("Recent changes in {name}"),
            format!("All recent changes made using Tolk in {name}."),
        ),
        None => (
            "Recent changes on Tolk".to_owned(),
            "All recent changes made using Tolk.".to_owned(),
        ),
    };
    let items: String = page
        .items
        .iter()
        .map(|row| item(row, &found, &links))
        .collect();
    let xml = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\
         <rss version=\"2.0\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\n  <channel>\n    \
         <title>{}</title>\n    <link>{}</link>\n    <description>{}</description>\n{items}  \
         </channel>\n</rss>\n",
        escape(&title),
        escape(&link),
        escape(&description),
    );
    Ok(HttpResponse::Ok()
        .content_type("application/rss+xml; charset=utf-8")
        .body(xml))
}

/// The site's recent changes.
#[utoipa::path(tag = "exports", responses(FeedAnswers))]
#[get("/exports/rss/")]
async fn site_feed(
    caller: Caller,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let link = links.api(&[]);
    feed(caller, ChangeScope::All, (None, link), links, state).await
}

/// Recent changes of translations into a language.
#[utoipa::path(
    tag = "exports",
    params(("code" = String, Path, description = "Language code")),
    responses(FeedAnswers)
)]
#[get("/exports/rss/language/{code}/")]
async fn language_feed(
    caller: Caller,
    code: web::Path<String>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let code = code.into_inner();
    let place = (Some(code.clone()), links.api(&["languages", &code]));
    feed(caller, ChangeScope::Language(code), place, links, state).await
}

/// A project's recent changes.
#[utoipa::path(
    tag = "exports",
    params(("project" = String, Path, description = "Project slug")),
    responses(FeedAnswers)
)]
#[get("/exports/rss/{project}/")]
async fn project_feed(
    caller: Caller,
    project: web::Path<String>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let project = project.into_inner();
    let place = (Some(project.clone()), links.api(&["projects", &project]));
    feed(caller, ChangeScope::Project(project), place, links, state).await
}

/// A component's recent changes.
#[utoipa::path(tag = "exports", params(ComponentPath), responses(FeedAnswers))]
#[get("/exports/rss/{project}/{component}/")]
async fn component_feed(
    caller: Caller,
    path: web::Path<ComponentPath>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let ComponentPath { project, component } = path.into_inner();
    let place = (
        Some(format!("{project}/{component}")),
        links.api(&["components", &project, &nested(&component)]),
    );
    let scope = ChangeScope::Component(project, component);
    feed(caller, scope, place, links, state).await
}

/// A translation's recent changes; with `-` for the component, those of
/// the project's translations into the language.
#[utoipa::path(tag = "exports", params(TranslationPath), responses(FeedAnswers))]
#[get("/exports/rss/{project}/{component}/{language}/")]
async fn translation_feed(
    caller: Caller,
    path: web::Path<TranslationPath>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let TranslationPath {
        project,
        component,
        language,
    } = path.into_inner();
    if component == "-" {
        let place = (
            Some(format!("{project} — {language}")),
            links.api(&["projects", &project, "languages"]),
        );
        let scope = ChangeScope::ProjectLanguage(project, language);
        return feed(caller, scope, place, links, state).await;
    }
    let place = (
        Some(format!("{project}/{component} — {language}")),
        links.api(&["translations", &project, &nested(&component), &language]),
    );
    let scope = ChangeScope::Translation(project, component, language);
    feed(caller, scope, place, links, state).await
}
