//! A translation file uploaded from a translation's page, at Weblate's
//! address (`/upload/{project}/{component}/{language}/`): a multipart
//! form with the file, Weblate's `method`, `conflicts` and `fuzzy`, and
//! the anti-forgery token, checked before anything is taken. What it did
//! is told on the translation's page; a refused upload shows that page
//! with the reason.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, HttpResponse, web};
use futures_util::StreamExt;
use serde::de::value::{Error as ValueError, StrDeserializer};
use serde::de::{DeserializeOwned, IntoDeserializer};
use tolk_service::file_upload::FileUpload;

use crate::component::translation_again;
use crate::error::{WebError, refusal};
use crate::extract::MAX_BODY;
use crate::page::{blocking, see_other};
use crate::paths::TranslationPath;
use crate::site::Pages;
use crate::visitor::Visitor;

/// Registers the upload.
pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/upload/{project}/{rest:.+}", web::post().to(upload));
}

/// An upload posted by a visitor whose anti-forgery token is theirs.
pub struct PostedUpload {
    visitor: Visitor,
    upload: FileUpload,
}

/// A choice of the form by its name, as the API reads it; the default
/// when not given.
fn choice<T: DeserializeOwned + Default>(
    fields: &HashMap<String, String>,
    name: &str,
) -> Result<T, WebError> {
    match fields.get(name) {
        None => Ok(T::default()),
        Some(value) => {
            let given: StrDeserializer<'_, ValueError> = value.as_str().into_deserializer();
            T::deserialize(given).map_err(|_| WebError::BadForm)
        }
    }
}

/// Reads a multipart form: its text fields and its one file.
async fn read_form(
    req: &HttpRequest,
    payload: Payload,
) -> Result<(HashMap<String, String>, Option<(String, Vec<u8>)>), WebError> {
    let mut multipart = actix_multipart::Multipart::new(req.headers(), payload);
    let (mut fields, mut file, mut total) = (HashMap::new(), None, 0usize);
    while let Some(field) = multipart.next().await {
        let mut field = field.map_err(|_| WebError::BadForm)?;
        let name = field.name().unwrap_or_default().to_owned();
        let file_name = field
            .content_disposition()
            .and_then(|d| d.get_filename())
            .map(str::to_owned);
        let mut data = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(|_| WebError::BadForm)?;
            total += chunk.len();
            if total > MAX_BODY {
                return Err(WebError::TooLarge);
            }
            data.extend_from_slice(&chunk);
        }
        match file_name {
            Some(file_name) if name == "file" => file = Some((file_name, data)),
            Some(_) => {}
            None => {
                fields.insert(name, String::from_utf8_lossy(&data).into_owned());
            }
        }
    }
    Ok((fields, file))
}

impl FromRequest for PostedUpload {
    type Error = WebError;
    type Future = Pin<Box<dyn Future<Output = Result<PostedUpload, WebError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let (req, payload) = (req.clone(), payload.take());
        Box::pin(async move {
            let pages = req
                .app_data::<web::Data<Pages>>()
                .cloned()
                .ok_or(WebError::Internal)?;
            let visitor = Visitor::of(&req, &pages).await?;
            let (fields, file) = read_form(&req, payload).await?;
            let token = fields.get("csrfmiddlewaretoken").map_or("", String::as_str);
            visitor.check_csrf(&pages, token)?;
            let upload = FileUpload {
                file: file.filter(|(name, _)| !name.is_empty()),
                method: choice(&fields, "method")?,
                conflicts: choice(&fields, "conflicts")?,
                fuzzy: choice(&fields, "fuzzy")?,
            };
            Ok(PostedUpload { visitor, upload })
        })
    }
}

async fn upload(
    posted: PostedUpload,
    params: web::Path<(String, String)>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    let PostedUpload { visitor, upload } = posted;
    let path = TranslationPath::parse(&params.0, &params.1).ok_or(WebError::NotFound)?;
    let (service, subject, key) = (pages.service.clone(), visitor.subject.clone(), path.clone());
    let done = blocking(move || service.files().upload(&subject, key.key(), upload)).await?;
    match done {
        Ok(report) => {
            let to = format!(
                "{}?accepted={}&skipped={}&not_found={}",
                path.page(),
                report.accepted,
                report.skipped,
                report.not_found
            );
            Ok(see_other(&to).finish())
        }
        Err(error) => translation_again(&pages, &visitor, &path, refusal(error)?).await,
    }
}
