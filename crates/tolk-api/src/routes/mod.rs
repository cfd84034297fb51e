//! HTTP handlers, one module per resource. Every handler is registered
//! with `.service()` so that its OpenAPI description is collected.

use actix_web::{HttpRequest, web};
use tolk_service::ServiceResult;
use tolk_service::{Page, PageRequest};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::blocking;
use crate::error::ApiResult;
use crate::input::{Input, is_partial};
use crate::links::Links;
use crate::pagination::{PageSizes, Paginated, page_request, paginated};

pub mod changes;
pub mod languages;
pub mod permissions;
pub mod projects;
pub mod root;
pub mod users;

/// Registers every API handler.
pub fn configure(cfg: &mut ServiceConfig) {
    root::configure(cfg);
    languages::configure(cfg);
    projects::configure(cfg);
    users::configure(cfg);
    changes::configure(cfg);
}

/// Answers a list request: reads the page parameters, runs `fetch` off the
/// async workers and wraps the page with its links.
async fn page_of<T: Send + 'static, D>(
    req: &HttpRequest,
    links: &Links,
    sizes: PageSizes,
    fetch: impl FnOnce(PageRequest) -> ServiceResult<Page<T>> + Send + 'static,
    convert: impl FnMut(T) -> D,
) -> ApiResult<web::Json<Paginated<D>>> {
    let request = page_request(req, sizes)?;
    let page = blocking(move || fetch(request)).await?;
    Ok(web::Json(paginated(req, links, page, convert)))
}

/// Reads the request body, then runs `act` with it off the async workers;
/// `act` also learns whether the request only changes the fields it gives (PATCH).
async fn with_body<T: Send + 'static>(
    req: &HttpRequest,
    payload: web::Payload,
    act: impl FnOnce(Input, bool) -> ServiceResult<T> + Send + 'static,
) -> ApiResult<T> {
    let input = Input::read(req, payload).await?;
    let partial = is_partial(req);
    blocking(move || act(input, partial)).await
}
