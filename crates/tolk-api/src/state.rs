//! What every handler shares.

use tolk_service::Service;

/// Application state handed to handlers.
#[derive(Clone)]
pub struct AppState {
    /// The use-cases.
    pub service: Service,
    /// Base URL of browser links (`web_url`), e.g. `https://tolk.example.com`.
    pub site_url: String,
}
