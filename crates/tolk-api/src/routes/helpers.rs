//! What every handler does the same way: answer a list with a page, read
//! a body, read a numeric id from the path.

use actix_web::{HttpRequest, web};
use tolk_service::ServiceResult;
use tolk_service::{Page, PageRequest};

use crate::error::ApiResult;
use crate::input::{Input, is_partial};
use crate::links::Links;
use crate::pagination::{PageSizes, Paginated, page_request, paginated};
use crate::reply::blocking;

/// Answers a list request: reads the page parameters, runs `fetch` off the
/// async workers and wraps the page with its links.
pub(crate) async fn page_of<T: Send + 'static, D>(
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

/// A numeric id from the path; anything else names no object (404).
pub(crate) fn path_id(id: &str) -> Result<i64, crate::error::ApiError> {
    id.parse().map_err(|_| crate::error::ApiError::not_found())
}

/// Reads the request body, then runs `act` with it off the async workers;
/// `act` also learns whether the request only changes the fields it gives (PATCH).
pub(crate) async fn with_body<T: Send + 'static>(
    req: &HttpRequest,
    payload: web::Payload,
    act: impl FnOnce(Input, bool) -> ServiceResult<T> + Send + 'static,
) -> ApiResult<T> {
    let input = Input::read(req, payload).await?;
    let partial = is_partial(req);
    blocking(move || act(input, partial)).await
}
