//! `/api/groups/` (§4): teams and what they list.

use actix_web::{HttpRequest, HttpResponse, delete, get, patch, post, put, web};
use tolk_domain::teams::{GroupCreate, GroupPatch};
use tolk_service::groups::Member;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::dto::group::{
    ComponentIdBody, ComponentListIdBody, GroupDto, LanguageCodeBody, ProjectIdBody, RoleIdBody,
    UserIdBody,
};
use crate::error::{ApiResult, ErrorBody};
use crate::links::Links;
use crate::pagination::{PageQuery, Paginated, STANDARD};
use crate::reply::{blocking, created};
use crate::routes::helpers::{page_of, with_body};
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(list)
        .service(create)
        .service(detail)
        .service(replace)
        .service(modify)
        .service(remove)
        .service(add_role)
        .service(remove_role)
        .service(add_language)
        .service(remove_language)
        .service(add_project)
        .service(remove_project)
        .service(add_component)
        .service(remove_component)
        .service(add_componentlist)
        .service(remove_componentlist)
        .service(add_admin)
        .service(remove_admin);
}

/// Lists teams: every team for those with `group.view` or `group.edit`,
/// else the caller's own and those of projects they manage access to.
#[utoipa::path(
    tag = "groups",
    params(PageQuery),
    responses(
        (status = 200, description = "A page of teams", body = Paginated<GroupDto>),
        (status = 404, description = "Invalid page", body = ErrorBody)
    )
)]
#[get("/api/groups/")]
async fn list(
    caller: Caller,
    req: HttpRequest,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Paginated<GroupDto>>> {
    let service = state.service.clone();
    let fetch = move |request| service.groups().list(&caller.0, request);
    page_of(&req, &links, STANDARD, fetch, |t| GroupDto::new(t, &links)).await
}

/// Creates a team: site-wide (needs `group.edit`) or for a project given
/// as `defining_project` (needs `project.permissions` there), which then
/// lists that project only.
#[utoipa::path(
    tag = "groups",
    request_body = GroupCreate,
    responses(
        (status = 201, description = "Created", body = GroupDto),
        (status = 400, description = "Invalid fields", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody)
    )
)]
#[post("/api/groups/")]
async fn create(
    caller: Caller,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    let team = with_body(&req, payload, move |input, _| {
        service.groups().create(
            &caller.0,
            input.parse_change::<GroupCreate, GroupPatch>(false),
        )
    })
    .await?;
    let dto = GroupDto::new(team, &links);
    Ok(created(&dto.url.clone(), dto))
}

/// One team, if the caller sees it.
#[utoipa::path(
    tag = "groups",
    params(("id" = i64, Path, description = "Team id")),
    responses(
        (status = 200, description = "The team", body = GroupDto),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[get("/api/groups/{id}/")]
async fn detail(
    caller: Caller,
    id: web::Path<i64>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<GroupDto>> {
    let service = state.service.clone();
    let team = blocking(move || service.groups().get(&caller.0, *id)).await?;
    Ok(web::Json(GroupDto::new(team, &links)))
}

put_and_patch! {
    tag: "groups",
    path: "/api/groups/{id}/",
    params: [("id" = i64, Path, description = "Team id")],
    key: i64,
    create: GroupCreate,
    patch: GroupPatch,
    response: GroupDto,
    put: "Replaces a team's fields (needs `group.edit`, or `project.permissions` on its project); built-in teams keep their name and selections.",
    patch_doc: "Changes the given fields of a team (needs `group.edit`, or `project.permissions` on its project).",
}

/// PUT and PATCH.
async fn change(
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
    payload: web::Payload,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<GroupDto>> {
    let service = state.service.clone();
    let team = with_body(&req, payload, move |input, partial| {
        let body = input.parse_change::<GroupCreate, GroupPatch>(partial);
        service.groups().update(&caller.0, *id, body)
    })
    .await?;
    Ok(web::Json(GroupDto::new(team, &links)))
}

/// Removes a team (needs `group.edit`, or `project.permissions` on its project).
#[utoipa::path(
    tag = "groups",
    params(("id" = i64, Path, description = "Team id")),
    responses(
        (status = 204, description = "Removed"),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden", body = ErrorBody)
    )
)]
#[delete("/api/groups/{id}/")]
async fn remove(
    caller: Caller,
    id: web::Path<i64>,
    state: web::Data<AppState>,
) -> ApiResult<HttpResponse> {
    let service = state.service.clone();
    blocking(move || service.groups().delete(&caller.0, *id)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The POST and DELETE routes of one of a team's lists.
macro_rules! team_list {
    (
        add: $add:ident, remove: $remove:ident,
        post: $post:literal, delete: $delete:literal,
        body: $body:ty, field: $field:ident, key: $key:ty, param: $param:literal,
        member: $member:path, what: $what:literal $(,)?
    ) => {
        #[doc = concat!("Adds ", $what, " to a team (needs `group.edit`, or `project.permissions` on its project).")]
        #[utoipa::path(
            tag = "groups",
            params(("id" = i64, Path, description = "Team id")),
            request_body = $body,
            responses(
                (status = 200, description = "The team", body = GroupDto),
                (status = 400, description = "Missing or unknown", body = ErrorBody),
                (status = 403, description = "Not allowed", body = ErrorBody),
                (status = 404, description = "Missing or hidden team", body = ErrorBody)
            )
        )]
        #[post($post)]
        async fn $add(
            caller: Caller,
            id: web::Path<i64>,
            req: HttpRequest,
            payload: web::Payload,
            links: Links,
            state: web::Data<AppState>,
        ) -> ApiResult<web::Json<GroupDto>> {
            let service = state.service.clone();
            let team = with_body(&req, payload, move |input, _| {
                let body = input.parse::<$body>()?;
                service.groups().add_member(&caller.0, *id, $member(body.$field))
            })
            .await?;
            Ok(web::Json(GroupDto::new(team, &links)))
        }

        #[doc = concat!("Removes ", $what, " from a team; 404 when it is not listed.")]
        #[utoipa::path(
            tag = "groups",
            params(
                ("id" = i64, Path, description = "Team id"),
                ($param = $key, Path, description = "What to remove")
            ),
            responses(
                (status = 204, description = "Removed"),
                (status = 403, description = "Not allowed", body = ErrorBody),
                (status = 404, description = "Missing, hidden or not listed", body = ErrorBody)
            )
        )]
        #[delete($delete)]
        async fn $remove(
            caller: Caller,
            path: web::Path<(i64, $key)>,
            state: web::Data<AppState>,
        ) -> ApiResult<HttpResponse> {
            let service = state.service.clone();
            let (id, key) = path.into_inner();
            blocking(move || service.groups().remove_member(&caller.0, id, $member(Some(key)))).await?;
            Ok(HttpResponse::NoContent().finish())
        }
    };
}

team_list! {
    add: add_role, remove: remove_role,
    post: "/api/groups/{id}/roles/", delete: "/api/groups/{id}/roles/{role_id}/",
    body: RoleIdBody, field: role_id, key: i64, param: "role_id",
    member: Member::Role, what: "a role",
}

team_list! {
    add: add_language, remove: remove_language,
    post: "/api/groups/{id}/languages/", delete: "/api/groups/{id}/languages/{language_code}/",
    body: LanguageCodeBody, field: language_code, key: String, param: "language_code",
    member: Member::Language, what: "a language",
}

team_list! {
    add: add_project, remove: remove_project,
    post: "/api/groups/{id}/projects/", delete: "/api/groups/{id}/projects/{project_id}/",
    body: ProjectIdBody, field: project_id, key: i64, param: "project_id",
    member: Member::Project, what: "a project",
}

team_list! {
    add: add_component, remove: remove_component,
    post: "/api/groups/{id}/components/", delete: "/api/groups/{id}/components/{component_id}/",
    body: ComponentIdBody, field: component_id, key: i64, param: "component_id",
    member: Member::Component, what: "a component",
}

team_list! {
    add: add_componentlist, remove: remove_componentlist,
    post: "/api/groups/{id}/componentlists/",
    delete: "/api/groups/{id}/componentlists/{component_list_id}/",
    body: ComponentListIdBody, field: component_list_id, key: i64, param: "component_list_id",
    member: Member::ComponentList, what: "a component list",
}

/// Makes a user an admin of the team, adding them to it (team editors and
/// the team's admins may); the answer is Weblate's one-line list.
#[utoipa::path(
    tag = "groups",
    params(("id" = i64, Path, description = "Team id")),
    request_body = UserIdBody,
    responses(
        (status = 200, description = "Granted", body = Vec<String>),
        (status = 400, description = "Missing or unknown user", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden team", body = ErrorBody)
    )
)]
#[post("/api/groups/{id}/admins/")]
async fn add_admin(
    caller: Caller,
    id: web::Path<i64>,
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Vec<String>>> {
    let service = state.service.clone();
    with_body(&req, payload, move |input, _| {
        let body = input.parse::<UserIdBody>()?;
        service
            .groups()
            .set_admin(&caller.0, *id, body.user_id, true)
    })
    .await?;
    Ok(web::Json(vec!["Administration rights granted.".to_owned()]))
}

/// Takes a user's admin rights on the team away (they stay a member).
#[utoipa::path(
    tag = "groups",
    params(
        ("id" = i64, Path, description = "Team id"),
        ("user_id" = i64, Path, description = "The admin's user id")
    ),
    responses(
        (status = 200, description = "The team", body = GroupDto),
        (status = 400, description = "Not an admin of the team", body = ErrorBody),
        (status = 403, description = "Not allowed", body = ErrorBody),
        (status = 404, description = "Missing or hidden team", body = ErrorBody)
    )
)]
#[delete("/api/groups/{id}/admins/{user_id}/")]
async fn remove_admin(
    caller: Caller,
    path: web::Path<(i64, i64)>,
    links: Links,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<GroupDto>> {
    let service = state.service.clone();
    let (id, user) = path.into_inner();
    let team =
        blocking(move || service.groups().set_admin(&caller.0, id, Some(user), false)).await?;
    Ok(web::Json(GroupDto::new(team, &links)))
}
