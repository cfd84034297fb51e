//! What handlers take from a request: the [`Visitor`], and a [`Posted`]
//! form with its anti-forgery token already checked, so that no handler
//! can forget the check.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::{Payload, UrlEncoded};
use actix_web::error::UrlencodedError;
use actix_web::{FromRequest, HttpRequest, web};
use serde::de::DeserializeOwned;

use crate::error::WebError;
use crate::site::Pages;
use crate::visitor::Visitor;

/// Largest form body read, in bytes (the API's limit, and the upload's).
pub const MAX_BODY: usize = 4 * 1024 * 1024;

/// A future of an extractor.
type Extracting<T> = Pin<Box<dyn Future<Output = Result<T, WebError>>>>;

/// The pages' state of a request's application.
fn pages_of(req: &HttpRequest) -> Result<web::Data<Pages>, WebError> {
    req.app_data::<web::Data<Pages>>()
        .cloned()
        .ok_or(WebError::Internal)
}

impl FromRequest for Visitor {
    type Error = WebError;
    type Future = Extracting<Visitor>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let pages = pages_of(&req)?;
            Visitor::of(&req, &pages).await
        })
    }
}

/// A form that carries an anti-forgery token.
pub trait Guarded {
    /// The token the form carried.
    fn token(&self) -> &str;
}

/// A form posted by a visitor whose anti-forgery token is theirs.
#[derive(Debug)]
pub struct Posted<F> {
    /// Who posted it.
    pub visitor: Visitor,
    /// What it holds.
    pub form: F,
}

impl<F: DeserializeOwned + Guarded + 'static> FromRequest for Posted<F> {
    type Error = WebError;
    type Future = Extracting<Posted<F>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        // actix-web's default of 16 KiB would refuse a long translation
        // (percent-encoded, a paragraph of accented text passes it).
        let form = UrlEncoded::<F>::new(req, payload).limit(MAX_BODY);
        let req = req.clone();
        Box::pin(async move {
            let pages = pages_of(&req)?;
            let visitor = Visitor::of(&req, &pages).await?;
            let form = form.await.map_err(|e| match e {
                UrlencodedError::Overflow { .. } => WebError::TooLarge,
                _ => WebError::BadForm,
            })?;
            visitor.check_csrf(&pages, form.token())?;
            Ok(Posted { visitor, form })
        })
    }
}
