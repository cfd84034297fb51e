//! `GET /api/search/` (§22).

use actix_web::{HttpRequest, get, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::caller::Caller;
use crate::error::{ApiResult, ErrorBody};
use crate::reply::blocking;
use crate::state::AppState;

pub(super) fn configure(cfg: &mut ServiceConfig) {
    cfg.service(search);
}

/// What the site search looks for.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// Text looked for in names, in any case.
    #[param(max_length = 2000)]
    pub q: Option<String>,
}

/// One match of the site search.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct SearchHit {
    /// The browser path of the match, relative to the site.
    pub url: String,
    /// Its name (`Project/Component` for components).
    pub name: String,
    /// `Project`, `Component`, `User` or `Language`.
    pub category: String,
}

/// Projects, components, users (for signed-in callers) and languages whose
/// names hold `q`, up to five of each, in that order.
#[utoipa::path(
    tag = "search",
    params(SearchQuery),
    responses(
        (status = 200, description = "The matches", body = Vec<SearchHit>),
        (status = 400, description = "A query too long", body = ErrorBody)
    )
)]
#[get("/api/search/")]
async fn search(
    caller: Caller,
    req: HttpRequest,
    state: web::Data<AppState>,
) -> ApiResult<web::Json<Vec<SearchHit>>> {
    let query: SearchQuery = crate::query::parse(req.query_string())?;
    let service = state.service.clone();
    let q = query.q.unwrap_or_default();
    let found = blocking(move || service.site().search(&caller.0, &q)).await?;
    let hit = |url: String, name: String, category: &str| SearchHit {
        url,
        name,
        category: category.to_owned(),
    };
    let mut hits = Vec::new();
    for (slug, name) in found.projects {
        hits.push(hit(format!("/projects/{slug}/"), name, "Project"));
    }
    for (project, slug, project_name, name) in found.components {
        let url = format!("/projects/{project}/{slug}/");
        hits.push(hit(url, format!("{project_name}/{name}"), "Component"));
    }
    for username in found.users {
        hits.push(hit(format!("/user/{username}/"), username, "User"));
    }
    for (code, name) in found.languages {
        hits.push(hit(format!("/languages/{code}/"), name, "Language"));
    }
    Ok(web::Json(hits))
}
