//! What every handler shares.

use std::sync::Arc;

use tolk_service::Service;

use crate::body_budget::BodyBudget;
use crate::client::TrustedProxies;
use crate::request_metrics::RequestMetrics;
use crate::throttle::Throttle;

/// Application state handed to handlers.
#[derive(Clone)]
pub struct AppState {
    /// The use-cases.
    pub service: Service,
    /// Base URL of browser links (`web_url`), e.g. `https://tolk.example.com`.
    pub site_url: String,
    /// The rate limits' state, shared by every worker.
    pub throttle: Arc<Throttle>,
    /// Proxies whose forwarding headers are believed.
    pub trusted_proxies: TrustedProxies,
    /// Notifications from Git hosts are accepted (`/hooks/`).
    pub enable_hooks: bool,
    /// The requests counted for `/metrics`, shared by every worker.
    pub request_metrics: Arc<RequestMetrics>,
    /// When set, `/metrics` answers only `Authorization: Bearer` this.
    pub metrics_token: Option<String>,
    /// The memory request bodies in flight share, by every worker.
    pub body_budget: Arc<BodyBudget>,
}
