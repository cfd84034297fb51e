//! The layers every request passes before and after its handler
//! (identification, throttling, body limits, metrics, logging, …), listed
//! once in the crate's `each_layer` macro: the application wraps itself
//! in them, and [`costs`] times each of them in place around a bare
//! handler, so the benchmark can say what each adds to a request.

use std::time::{Duration, Instant};

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::{App, HttpResponse, test, web};

use crate::state::AppState;

/// Hands the request layers, innermost first, to the macro `$then` after
/// its own leading arguments, as `name => middleware` pairs.
macro_rules! each_layer {
    ($then:ident!($($head:tt)*)) => {
        $then!($($head)*;
            "body budget" => ::actix_web::middleware::from_fn(crate::body_budget::hold),
            "throttle" => ::actix_web::middleware::from_fn(crate::throttle::guard),
            "identification" => ::actix_web::middleware::from_fn(crate::auth::identify),
            "NUL in paths" => ::actix_web::middleware::from_fn(crate::nul_paths::refuse),
            "negotiation" => ::actix_web::middleware::from_fn(crate::negotiate::negotiate),
            "request id" => ::actix_web::middleware::from_fn(crate::request_id::echo),
            // No answer is to be read as another type than it says (files
            // and screenshots anyone may upload among them), as Weblate sends.
            "nosniff header" => ::actix_web::middleware::DefaultHeaders::new().add((
                ::actix_web::http::header::X_CONTENT_TYPE_OPTIONS,
                "nosniff",
            )),
            "metrics" => ::actix_web::middleware::from_fn(crate::request_metrics::record),
            "logging" => ::tracing_actix_web::TracingLogger::default(),
        )
    };
}
pub(crate) use each_layer;

/// Wraps `$app` in every layer [`each_layer`] hands it.
macro_rules! wrap_all {
    ($app:expr; $($name:literal => $layer:expr),* $(,)?) => {
        $app$(.wrap($layer))*
    };
}
pub(crate) use wrap_all;

/// Times `$bare()` within each tail of the layers (all of them, all but
/// the innermost, …, the outermost alone) with rounds of `$round` of
/// `$request`s, as `(innermost layer of the tail, time per request)`
/// pairs, outermost first. A layer's cost is then the difference of its
/// tail and the next: it runs as in the application, after the layers
/// outside it (the throttle knows the caller identification found).
macro_rules! time_tails {
    ($bare:ident, $request:ident, $round:ident;) => {
        Vec::<(&'static str, Duration)>::new()
    };
    ($bare:ident, $request:ident, $round:ident;
        $name:literal => $layer:expr $(, $names:literal => $layers:expr)* $(,)?) => {{
        let mut times = time_tails!($bare, $request, $round; $($names => $layers),*);
        let app = $bare().wrap($layer)$(.wrap($layers))*;
        times.push(($name, per_request(app, &$request, $round).await?));
        times
    }};
}

/// `app` with what handlers and request layers share: the state, the
/// throttle, the metrics, the trusted proxies, the body budget and the
/// methods each path allows.
pub(crate) fn shared_data<T>(
    app: App<T>,
    state: AppState,
    allow: web::Data<crate::negotiate::AllowTable>,
) -> App<T>
where
    T: ServiceFactory<ServiceRequest, Config = (), Error = actix_web::Error, InitError = ()>,
{
    let throttle = web::Data::from(state.throttle.clone());
    let proxies = web::Data::new(state.trusted_proxies.clone());
    let bodies = web::Data::from(state.body_budget.clone());
    let metrics = web::Data::from(state.request_metrics.clone());
    app.app_data(web::Data::new(state))
        .app_data(throttle)
        .app_data(metrics)
        .app_data(proxies)
        .app_data(bodies)
        .app_data(allow)
}

/// What a layer adds to a request's processor time.
#[derive(Debug, Clone, PartialEq)]
pub struct LayerCost {
    /// The layer, or `all layers` for the whole stack at once.
    pub name: &'static str,
    /// Time per request above the bare handler's.
    pub per_request: Duration,
}

/// Rounds timed (the fastest counts: the others met a busy machine).
const ROUNDS: u32 = 5;

/// Times in-process requests of `GET /api/` (with `Authorization: Token
/// token` when given) answered with a small JSON object by a bare handler
/// that has the application's shared data: bare, then within the
/// outermost layer, the two outermost, and so on to all of them, in
/// rounds of `round` each. The first figure is the bare time itself, named
/// `bare handler`; then each layer, innermost first, with the time it
/// adds to the layers outside it (none when below: noise); last `all
/// layers`, the whole stack's time above the bare one. An answer other
/// than 200 (a token refused, a request throttled) is an error: its time
/// would not be a request's.
pub async fn costs(
    state: AppState,
    token: Option<&str>,
    round: Duration,
) -> Result<Vec<LayerCost>, String> {
    let allow = web::Data::new(crate::negotiate::AllowTable::from_openapi(
        &crate::openapi::document(),
    ));
    let bare = || {
        shared_data(App::new(), state.clone(), allow.clone()).route(
            "/api/",
            web::get().to(|| async {
                HttpResponse::Ok()
                    .content_type("application/json")
                    .body(r#"{"projects":"/api/projects/"}"#)
            }),
        )
    };
    let request = || {
        let request = test::TestRequest::get()
            .uri("/api/")
            .peer_addr(std::net::SocketAddr::from(([127, 0, 0, 1], 40_000)));
        match token {
            Some(token) => request.insert_header(("Authorization", format!("Token {token}"))),
            None => request,
        }
        .to_request()
    };
    let alone = per_request(bare(), &request, round).await?;
    let tails = each_layer!(time_tails!(bare, request, round));
    let mut costs = vec![LayerCost {
        name: "bare handler",
        per_request: alone,
    }];
    // Outermost first: each tail's time above the one outside it.
    let mut outside = alone;
    let mut layers: Vec<LayerCost> = tails
        .iter()
        .map(|&(name, time)| {
            let cost = time.saturating_sub(outside);
            outside = time;
            LayerCost {
                name,
                per_request: cost,
            }
        })
        .collect();
    layers.reverse();
    costs.extend(layers);
    costs.push(LayerCost {
        name: "all layers",
        per_request: outside.saturating_sub(alone),
    });
    Ok(costs)
}

/// The fastest round's time per request of `app`, in rounds of requests
/// one after another for `round` each (after a round to warm up).
async fn per_request<T, B>(
    app: App<T>,
    request: &impl Fn() -> actix_http::Request,
    round: Duration,
) -> Result<Duration, String>
where
    T: ServiceFactory<
            ServiceRequest,
            Config = (),
            Response = ServiceResponse<B>,
            Error = actix_web::Error,
            InitError = (),
        > + 'static,
    B: MessageBody + 'static,
{
    let service = test::init_service(app).await;
    let mut fastest = Duration::MAX;
    for timed in 0..=ROUNDS {
        let started = Instant::now();
        let mut requests: u32 = 0;
        while requests == 0 || started.elapsed() < round {
            let response = test::call_service(&service, request()).await;
            let status = response.status();
            let body = test::read_body(response).await;
            if status != actix_web::http::StatusCode::OK {
                let body = String::from_utf8_lossy(&body);
                return Err(format!("GET /api/ answered {status}: {body}"));
            }
            requests += 1;
        }
        if timed > 0 {
            fastest = fastest.min(started.elapsed() / requests);
        }
    }
    Ok(fastest)
}
