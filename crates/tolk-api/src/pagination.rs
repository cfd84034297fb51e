//! Page-number pagination as Weblate does it: `count`, `next`, `previous`
//! and `results`, with links that keep the query (sorted) and drop `page`
//! for the first page.

use actix_web::HttpRequest;
use serde::{Deserialize, Serialize};
use tolk_service::{Page, PageRequest};
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::links::Links;

/// Page size limits of a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageSizes {
    /// Size used when the client gives none (or an invalid one).
    pub default: u64,
    /// Largest size honoured; larger requests are clamped.
    pub max: u64,
}

/// Limits of most lists.
pub const STANDARD: PageSizes = PageSizes {
    default: 50,
    max: 1000,
};

/// Limits of the long lists: all units, a component's statistics.
pub const LARGE: PageSizes = PageSizes {
    default: 200,
    max: 10_000,
};

/// Pagination parameters, as the query string gives them.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// 1-based page number, or `last`.
    #[param(value_type = Option<String>, pattern = "^([1-9][0-9]*|last)$")]
    page: Option<String>,
    /// Results per page, clamped to the list's maximum.
    #[param(minimum = 1)]
    page_size: Option<i64>,
}

/// A page of results.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Paginated<T> {
    /// Number of results in the whole list.
    pub count: u64,
    /// Link to the next page, or null.
    pub next: Option<String>,
    /// Link to the previous page, or null.
    pub previous: Option<String>,
    /// Results on this page.
    pub results: Vec<T>,
}

fn query_pairs(req: &HttpRequest) -> Vec<(String, String)> {
    form_urlencoded::parse(req.query_string().as_bytes())
        .into_owned()
        .collect()
}

/// Reads `page` and `page_size` from the query. A page that is not a
/// positive number is 404 `Invalid page.` (as in Weblate); `page=last` is
/// the last page; a size that is not a positive number is a 400.
pub fn page_request(req: &HttpRequest, sizes: PageSizes) -> Result<PageRequest, ApiError> {
    let query: PageQuery = crate::query::parse(req.query_string())?;
    if query.page_size.is_some_and(|s| s < 1) {
        return Err(ApiError::field(
            "page_size",
            "min_value",
            "Ensure this value is greater than or equal to 1.",
        ));
    }
    let size = query
        .page_size
        .map_or(sizes.default, |s| s.unsigned_abs().min(sizes.max));
    let number = match query.page.as_deref() {
        None => Some(1),
        Some("last") => None,
        Some(v) => Some(
            v.parse::<u64>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| ApiError::NotFound("Invalid page.".into()))?,
        ),
    };
    Ok(PageRequest { number, size })
}

/// The link to page `number` of the list the request asked for.
fn page_link(req: &HttpRequest, links: &Links, number: u64) -> String {
    let mut pairs: Vec<(String, String)> = query_pairs(req)
        .into_iter()
        .filter(|(k, _)| k != "page")
        .collect();
    if number > 1 {
        pairs.push(("page".into(), number.to_string()));
    }
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    let mut url = format!("{}{}", links.origin(), req.path());
    if !pairs.is_empty() {
        url.push('?');
        url.push_str(
            &form_urlencoded::Serializer::new(String::new())
                .extend_pairs(pairs)
                .finish(),
        );
    }
    url
}

/// Wraps a page of converted items in the envelope.
pub fn paginated<T, U>(
    req: &HttpRequest,
    links: &Links,
    page: Page<T>,
    convert: impl FnMut(T) -> U,
) -> Paginated<U> {
    let last = page.last_number();
    Paginated {
        count: page.count,
        next: (page.number < last).then(|| page_link(req, links, page.number + 1)),
        previous: (page.number > 1).then(|| page_link(req, links, page.number - 1)),
        results: page.items.into_iter().map(convert).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn page(number: u64, count: u64) -> Page<u32> {
        Page {
            count,
            number,
            size: 20,
            items: vec![1, 2],
        }
    }

    #[test]
    fn links_keep_sorted_query_and_drop_first_page() {
        let links = Links::new("http://h:8000", "http://site");
        let req = TestRequest::get()
            .uri("/api/projects/?page_size=20&page=2&b=x&a=y%20z")
            .to_http_request();
        let p = paginated(&req, &links, page(2, 100), |i| i);
        assert_eq!(
            p.next.as_deref(),
            Some("http://h:8000/api/projects/?a=y+z&b=x&page=3&page_size=20")
        );
        assert_eq!(
            p.previous.as_deref(),
            Some("http://h:8000/api/projects/?a=y+z&b=x&page_size=20")
        );
        let last = paginated(&req, &links, page(5, 100), |i| i);
        assert_eq!(last.next, None);
    }

    #[test]
    fn page_parameters() {
        let parse = |q: &str| page_request(&TestRequest::get().uri(q).to_http_request(), STANDARD);
        assert_eq!(
            parse("/x/").unwrap(),
            PageRequest {
                number: Some(1),
                size: 50
            }
        );
        assert_eq!(parse("/x/?page_size=5000").unwrap().size, 1000);
        assert_eq!(parse("/x/?page_size=").unwrap().size, 50);
        for bad in ["0", "-3", "abc"] {
            assert!(
                matches!(
                    parse(&format!("/x/?page_size={bad}")),
                    Err(ApiError::Validation(_))
                ),
                "{bad}"
            );
        }
        assert_eq!(parse("/x/?page=last").unwrap().number, None);
        assert!(matches!(parse("/x/?page=abc"), Err(ApiError::NotFound(_))));
        assert!(matches!(parse("/x/?page=0"), Err(ApiError::NotFound(_))));
    }
}
