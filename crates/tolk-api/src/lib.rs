//! Tolk's HTTP facade: Weblate's REST API on actix-web. Handlers parse
//! requests, ask the use-cases in `tolk-service` (on blocking threads) and
//! serialise the answers; errors are mapped to HTTP in one place.

mod auth;
mod body_budget;
mod caller;
mod client;
mod csv;
mod etag;
mod fields;
mod html;
mod links;
mod negotiate;
mod nul_paths;
mod pagination;
mod params;
mod probes;
mod query;
mod reencode;
mod reply;
mod request_id;
mod request_metrics;
mod routes;
mod schemas;
mod throttle;

pub mod dto;
pub mod error;
pub mod input;
pub mod layers;
pub mod openapi;
pub mod state;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::{App, web};
use utoipa_actix_web::AppExt;
use utoipa_swagger_ui::SwaggerUi;

use crate::layers::wrap_all;

pub use body_budget::{BodyBudget, DEFAULT_MIB as BODY_MEMORY_MIB};
pub use client::TrustedProxies;
pub use error::{ApiError, ApiResult};
pub use request_metrics::RequestMetrics;
pub use state::AppState;
pub use throttle::{Rate, RateLimits, Throttle};

/// The whole application: API routes, documentation and the shared
/// request handling, ready for `HttpServer` or `actix_web::test`.
pub fn app(
    state: AppState,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    app_with(state, |_| {})
}

/// [`app`] with more routes beside the API's (the pages of tolk-web, which
/// `tolk-server` mounts), under the same request handling: identification,
/// throttling, body limits, logging.
pub fn app_with(
    state: AppState,
    beside: impl FnOnce(&mut web::ServiceConfig),
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let (app, mut api) = App::new()
        .into_utoipa_app()
        .openapi(openapi::base())
        .configure(routes::configure)
        .split_for_parts();
    openapi::finish(&mut api);
    let allow = web::Data::new(negotiate::AllowTable::from_openapi(&api));
    let app = layers::shared_data(app, state, allow)
        // A path segment that does not read as its type (an id that is not
        // a number, or too large) names nothing: 404, as Weblate answers.
        .app_data(
            web::PathConfig::default().error_handler(|_, _| error::ApiError::not_found().into()),
        )
        .configure(beside)
        .configure(routes::pages::configure)
        .service(web::redirect("/api/docs", "/api/docs/").permanent())
        .service(SwaggerUi::new("/api/docs/{_:.*}").url("/api/schema/", api))
        .default_service(web::to(negotiate::fallback));
    layers::each_layer!(wrap_all!(app))
}
