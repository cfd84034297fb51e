//! What every page of the site shares besides the request.

use tolk_service::{Service, ServiceResult};

use crate::signing;

/// What the pages need besides the request: the use-cases, the signer of
/// cookies and forms (the site's secret, shared by every instance on the
/// database), and the site's public address.
#[derive(Clone)]
pub struct Pages {
    pub(crate) service: Service,
    pub(crate) signer: signing::Signer,
    pub(crate) site_url: String,
    pub(crate) secure_cookies: bool,
}

impl Pages {
    /// The pages of a site at `site_url` (cookies are marked `Secure` on
    /// an HTTPS site), reading (or making) the site's secret.
    pub fn open(service: Service, site_url: &str) -> ServiceResult<Pages> {
        let secret = service.accounts().site_secret()?;
        Ok(Pages {
            service,
            signer: signing::Signer::new(secret.as_bytes()),
            site_url: site_url.trim_end_matches('/').to_owned(),
            secure_cookies: site_url.starts_with("https://"),
        })
    }
}
