//! `…/announcements/` of projects, a project's languages, categories,
//! components and translations (§17.2). Each place has its three
//! operations, which differ only in how the path names the object.

use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use serde::Deserialize;
use tolk_domain::announcement::Posting;
use tolk_service::announcements::Scope;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::announcement::{AnnouncementCreate, AnnouncementDto};
use crate::error::{ApiResult, ErrorBody};
use crate::links::Links;
use crate::pagination::{PageQuery, Paginated, STANDARD};
use crate::reply::blocking;
use crate::routes::helpers::{page_of, with_body};
use crate::routes::paths::{ComponentPath, TranslationPath};
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(projects_announcements_list)
        .service(projects_announcements_create)
        .service(projects_announcements_destroy)
        .service(projects_languages_announcements_list)
        .service(projects_languages_announcements_create)
        .service(projects_languages_announcements_destroy)
        .service(categories_announcements_list)
        .service(categories_announcements_create)
        .service(categories_announcements_destroy)
        .service(components_announcements_list)
        .service(components_announcements_create)
        .service(components_announcements_destroy)
        .service(translations_announcements_list)
        .service(translations_announcements_create)
        .service(translations_announcements_destroy);
}

/// How a path names the object whose announcements are meant.
trait Place: Send + 'static {
    fn scope(&self) -> Scope<'_>;
}

/// A project's slug in the path.
#[derive(Deserialize)]
struct ProjectKey {
    slug: String,
}

impl Place for ProjectKey {
    fn scope(&self) -> Scope<'_> {
        Scope::Project(&self.slug)
    }
}

/// A project's slug and a language code in the path.
#[derive(Deserialize)]
struct ProjectLanguageKey {
    slug: String,
    language_code: String,
}

impl Place for ProjectLanguageKey {
    fn scope(&self) -> Scope<'_> {
        Scope::ProjectLanguage(&self.slug, &self.language_code)
    }
}

/// A category's id in the path.
#[derive(Deserialize)]
struct CategoryKey {
    id: i64,
}

impl Place for CategoryKey {
    fn scope(&self) -> Scope<'_> {
        Scope::Category(self.id)
    }
}

/// The announcement named in a path.
#[derive(Deserialize)]
struct AnnouncementKey {
    announcement_id: i64,
}

impl Place for ComponentPath {
    fn scope(&self) -> Scope<'_> {
        Scope::Component(&self.project, &self.component)
    }
}

impl Place for TranslationPath {
    fn scope(&self) -> Scope<'_> {
        Scope::Translation(&self.project, &self.component, &self.language)
    }
}

/// A page of the announcements of `place`.
async fn list(
    caller: Caller,
    place: impl Place,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<AnnouncementDto>>> {
    let service = state.service.clone();
    let fetch = move |request| {
        service
            .announcements()
            .list(&caller.0, place.scope(), request)
    };
    page_of(&req, &links, STANDARD, fetch, |a| AnnouncementDto::from(&a)).await
}

/// Posts an announcement on `place`: 201 with it.
async fn post(
    caller: Caller,
    place: impl Place,
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let posted = with_body(&req, payload, move |input, _| {
        service.announcements().post(&caller.0, place.scope(), || {
            let body = input.parse::<AnnouncementCreate>()?;
            Ok(Posting::check(
                &body.message,
                body.severity.as_deref(),
                body.expiry.as_deref(),
                body.notify,
            )?)
        })
    })
    .await?;
    Ok(HttpResponse::Created().json(AnnouncementDto::from(&posted)))
}

/// Removes the announcement `id` of `place`: 204.
async fn remove(
    caller: Caller,
    place: impl Place,
    id: i64,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    blocking(move || service.announcements().delete(&caller.0, place.scope(), id)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Declares the list, post and delete handlers of one place: their
/// paths, OpenAPI descriptions, and the path type that names the object.
macro_rules! announcements_of {
    (
        tag: $tag:literal,
        what: $what:literal,
        list_path: $list_path:literal,
        item_path: $item_path:literal,
        params: [$($param:tt),+],
        key: $key:ty,
        list: $list:ident,
        post: $post:ident,
        delete: $delete:ident $(,)?
    ) => {
        #[utoipa::path(
            tag = $tag,
            summary = concat!("The announcements of ", $what, ", by id."),
            params($($param),+, PageQuery),
            responses(
                (status = 200, description = "A page of announcements", body = Paginated<AnnouncementDto>),
                (status = 400, description = "Unknown language", body = ErrorBody),
                (status = 404, description = "Missing or hidden, or invalid page", body = ErrorBody)
            )
        )]
        #[get($list_path)]
        async fn $list(
            caller: Caller,
            key: web::Path<$key>,
            req: HttpRequest,
            links: Links,
            state: web::Data<AppState>,
        ) -> ApiResult<web::Json<Paginated<AnnouncementDto>>> {
            list(caller, key.into_inner(), req, links, state).await
        }

        #[utoipa::path(
            tag = $tag,
            summary = concat!("Posts an announcement on ", $what, " (needs `announcement.add`)."),
            params($($param),+),
            request_body = AnnouncementCreate,
            responses(
                (status = 201, description = "Posted", body = AnnouncementDto),
                (status = 400, description = "Invalid fields", body = ErrorBody),
                (status = 403, description = "Not allowed", body = ErrorBody),
                (status = 404, description = "Missing or hidden", body = ErrorBody)
            )
        )]
        #[post($list_path)]
        async fn $post(
            caller: Caller,
            key: web::Path<$key>,
            req: HttpRequest,
            payload: web::Payload,
            state: web::Data<AppState>,
        ) -> ApiResult<HttpResponse> {
            post(caller, key.into_inner(), req, payload, state).await
        }

        #[utoipa::path(
            tag = $tag,
            summary = concat!("Removes an announcement of ", $what, " (needs `announcement.delete`)."),
            params($($param),+, ("announcement_id" = i64, Path, description = "Announcement id")),
            responses(
                (status = 204, description = "Removed"),
                (status = 403, description = "Not allowed", body = ErrorBody),
                (status = 404, description = "Missing or hidden", body = ErrorBody)
            )
        )]
        #[delete($item_path)]
        async fn $delete(
            caller: Caller,
            key: web::Path<$key>,
            id: web::Path<AnnouncementKey>,
            state: web::Data<AppState>,
        ) -> ApiResult<HttpResponse> {
            remove(caller, key.into_inner(), id.announcement_id, state).await
        }
    };
}

announcements_of!(
    tag: "projects",
    what: "a project",
    list_path: "/api/projects/{slug}/announcements/",
    item_path: "/api/projects/{slug}/announcements/{announcement_id}/",
    params: [("slug" = String, Path, description = "Project slug")],
    key: ProjectKey,
    list: projects_announcements_list,
    post: projects_announcements_create,
    delete: projects_announcements_destroy,
);

announcements_of!(
    tag: "projects",
    what: "a project's language (across its components)",
    list_path: "/api/projects/{slug}/languages/{language_code}/announcements/",
    item_path: "/api/projects/{slug}/languages/{language_code}/announcements/{announcement_id}/",
    params: [
        ("slug" = String, Path, description = "Project slug"),
        ("language_code" = String, Path, description = "Language code")
    ],
    key: ProjectLanguageKey,
    list: projects_languages_announcements_list,
    post: projects_languages_announcements_create,
    delete: projects_languages_announcements_destroy,
);

announcements_of!(
    tag: "categories",
    what: "a category",
    list_path: "/api/categories/{id}/announcements/",
    item_path: "/api/categories/{id}/announcements/{announcement_id}/",
    params: [("id" = i64, Path, description = "Category id")],
    key: CategoryKey,
    list: categories_announcements_list,
    post: categories_announcements_create,
    delete: categories_announcements_destroy,
);

announcements_of!(
    tag: "components",
    what: "a component",
    list_path: "/api/components/{project}/{component}/announcements/",
    item_path: "/api/components/{project}/{component}/announcements/{announcement_id}/",
    params: [ComponentPath],
    key: ComponentPath,
    list: components_announcements_list,
    post: components_announcements_create,
    delete: components_announcements_destroy,
);

announcements_of!(
    tag: "translations",
    what: "a translation",
    list_path: "/api/translations/{project}/{component}/{language}/announcements/",
    item_path: "/api/translations/{project}/{component}/{language}/announcements/{announcement_id}/",
    params: [TranslationPath],
    key: TranslationPath,
    list: translations_announcements_list,
    post: translations_announcements_create,
    delete: translations_announcements_destroy,
);
