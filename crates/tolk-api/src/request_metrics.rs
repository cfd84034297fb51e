//! Counts and times every request by route (the pattern that matched, so
//! ids and slugs do not multiply the series), method and status, for
//! `/metrics`.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::web;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};

/// The route a request matched, `unmatched` when none did.
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub(crate) struct RouteLabels {
    /// The route's pattern (`/api/units/{id}/`).
    pub(crate) route: String,
    /// The HTTP method.
    pub(crate) method: &'static str,
}

/// A route and the status it answered.
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub(crate) struct StatusLabels {
    /// The route's pattern.
    pub(crate) route: String,
    /// The HTTP method.
    pub(crate) method: &'static str,
    /// The status code.
    pub(crate) status: u16,
}

/// The method's name, `other` for those HTTP does not define, so that no
/// client can add series by inventing methods.
fn method_label(method: &actix_web::http::Method) -> &'static str {
    const KNOWN: [&str; 7] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
    KNOWN
        .into_iter()
        .find(|known| *known == method.as_str())
        .unwrap_or("other")
}

/// A histogram of request durations, from 1 ms to about 16 s.
fn duration_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.001, 2.0, 15))
}

/// Requests counted since the start, shared by every worker.
#[derive(Debug)]
pub struct RequestMetrics {
    pub(crate) requests: Family<StatusLabels, Counter>,
    pub(crate) durations: Family<RouteLabels, Histogram, fn() -> Histogram>,
}

impl Default for RequestMetrics {
    fn default() -> Self {
        Self {
            requests: Family::default(),
            durations: Family::new_with_constructor(duration_histogram),
        }
    }
}

/// Counts and times the request; the answer is left as it is.
pub async fn record(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let metrics = req.app_data::<web::Data<RequestMetrics>>().cloned();
    let method = method_label(req.method());
    let response = next.call(req).await?;
    if let Some(metrics) = metrics {
        let route = response
            .request()
            .match_pattern()
            .unwrap_or_else(|| "unmatched".into());
        let status = response.status().as_u16();
        let labels = RouteLabels { route, method };
        metrics
            .durations
            .get_or_create(&labels)
            .observe(started.elapsed().as_secs_f64());
        metrics
            .requests
            .get_or_create(&StatusLabels {
                route: labels.route,
                method: labels.method,
                status,
            })
            .inc();
    }
    Ok(response)
}
