//! Who is looking at a page: the person of a signed session cookie, or an
//! anonymous visitor, and the seed of the forms' anti-forgery tokens.
//!
//! Cookies (`HttpOnly`, `SameSite=Lax`, `Path=/`, `Secure` on an HTTPS
//! site):
//! - `tolk_session`: a session key with its signature; the key is only
//!   ever made by the server at sign-in, so a key planted in a browser
//!   before signing in (session fixation) is never signed in.
//! - `tolk_csrf`: a random seed. A form's token is a signature of the seed
//!   and the session key, so a token of another browser or of the time
//!   before signing in is refused.

use actix_web::cookie::{Cookie, SameSite};
use actix_web::{HttpMessage, HttpRequest, HttpResponseBuilder, web};
use tolk_domain::permission::Subject;
use tolk_service::accounts::{ClientAddress, Person, Session};

use crate::error::WebError;
use crate::site::Pages;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "tolk_session";
/// The anti-forgery seed cookie's name.
pub const CSRF_COOKIE: &str = "tolk_csrf";

/// What a session cookie's signature is for.
const SESSION_PURPOSE: &str = "session";
/// What a form token's signature is for.
const CSRF_PURPOSE: &str = "csrf";

/// The visitor of one request.
#[derive(Debug, Clone)]
pub struct Visitor {
    /// Their session, when signed in.
    pub session: Option<Session>,
    /// What they may do: the session's, or the anonymous visitor's.
    pub subject: Subject,
    /// The session key of the cookie, when it names an open session.
    session_key: Option<String>,
    /// The anti-forgery seed: the cookie's, or a new one to set.
    seed: String,
    /// Whether the seed is new (the answer sets its cookie).
    new_seed: bool,
    /// Where the request came from.
    pub address: ClientAddress,
}

impl Visitor {
    /// Reads the visitor of a request: checks the session cookie's
    /// signature, then asks the service whether the session is open.
    pub async fn of(req: &HttpRequest, pages: &Pages) -> Result<Visitor, WebError> {
        let key = req.cookie(SESSION_COOKIE).and_then(|c| {
            pages
                .signer
                .unsign(SESSION_PURPOSE, c.value())
                .map(str::to_owned)
        });
        let seed = req
            .cookie(CSRF_COOKIE)
            .map(|c| c.value().to_owned())
            .filter(|seed| seed.len() == 36 && seed.chars().all(|c| c.is_ascii_alphanumeric()));
        let address = req
            .extensions()
            .get::<ClientAddress>()
            .cloned()
            .unwrap_or_else(|| {
                ClientAddress(
                    req.peer_addr()
                        .map_or_else(|| "unknown".into(), |a| a.ip().to_string()),
                )
            });
        // A visitor without a session needs no thread hop: the anonymous
        // caller is kept in the service's cache, read with one indexed
        // statement (as the API's identification does).
        let service = pages.service.clone();
        let (session, subject) = match key.clone() {
            Some(key) => {
                let session = web::block(move || service.accounts().session(&key))
                    .await
                    .map_err(|_| WebError::Internal)??;
                match session {
                    Some(session) => {
                        let subject = session.subject.clone();
                        (Some(session), subject)
                    }
                    None => (None, pages.service.auth().anonymous()?),
                }
            }
            None => (None, service.auth().anonymous()?),
        };
        let session_key = key.filter(|_| session.is_some());
        let (seed, new_seed) = match seed {
            Some(seed) => (seed, false),
            None => (tolk_service::auth::generate_token(""), true),
        };
        Ok(Visitor {
            session,
            subject,
            session_key,
            seed,
            new_seed,
            address,
        })
    }

    /// The person signed in.
    pub fn person(&self) -> Option<&Person> {
        self.session.as_ref().map(|s| &s.person)
    }

    /// The session key, when signed in.
    pub fn session_key(&self) -> Option<&str> {
        self.session_key.as_deref()
    }

    /// The anti-forgery token the visitor's forms carry.
    pub fn csrf_token(&self, pages: &Pages) -> String {
        pages.signer.signature(
            CSRF_PURPOSE,
            &[&self.seed, self.session_key().unwrap_or("")],
        )
    }

    /// Refuses a form whose anti-forgery token is not the visitor's.
    pub fn check_csrf(&self, pages: &Pages, given: &str) -> Result<(), WebError> {
        let parts = [self.seed.as_str(), self.session_key().unwrap_or("")];
        if self.new_seed || !pages.signer.verify(CSRF_PURPOSE, &parts, given) {
            return Err(WebError::Forbidden(
                "The form has expired or did not come from this site (CSRF verification failed). \
                 Reload the page and try again."
                    .into(),
            ));
        }
        Ok(())
    }

    /// Sets the seed cookie on an answer, when the seed is new.
    pub fn keep_seed(&self, pages: &Pages, answer: &mut HttpResponseBuilder) {
        if self.new_seed {
            answer.cookie(pages.cookie(CSRF_COOKIE, self.seed.clone()));
        }
    }

    /// Signs the visitor in on an answer: the session cookie of a new key.
    /// The seed stays, so the next page's forms carry tokens of the new session.
    pub fn start_session(&self, pages: &Pages, answer: &mut HttpResponseBuilder, key: &str) {
        self.keep_seed(pages, answer);
        answer.cookie(pages.cookie(SESSION_COOKIE, pages.signer.sign(SESSION_PURPOSE, key)));
    }

    /// The same visitor in the session `key` just opened for them.
    pub fn signed_in_as(&self, key: &str) -> Visitor {
        Visitor {
            session_key: Some(key.to_owned()),
            ..self.clone()
        }
    }

    /// Signs the visitor out on an answer: the session cookie removed.
    pub fn end_session(pages: &Pages, answer: &mut HttpResponseBuilder) {
        let mut gone = pages.cookie(SESSION_COOKIE, String::new());
        gone.make_removal();
        answer.cookie(gone);
    }
}

impl Pages {
    /// A cookie of the pages with the flags they all carry.
    pub(crate) fn cookie(&self, name: &'static str, value: String) -> Cookie<'static> {
        Cookie::build(name, value)
            .path("/")
            .http_only(true)
            .same_site(SameSite::Lax)
            .secure(self.secure_cookies)
            .finish()
    }
}
