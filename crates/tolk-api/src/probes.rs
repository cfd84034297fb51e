//! The paths of the probes that monitors call (`/healthz`, `/readyz`,
//! `/metrics`), served by [`crate::routes::operations`].

/// The paths answered without identifying the caller: they must answer
/// while the database is down.
pub(crate) const PATHS: [&str; 3] = ["/healthz", "/readyz", "/metrics"];
