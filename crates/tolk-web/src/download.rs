//! A translation's file for people, at Weblate's address
//! (`/download/{project}/{component}/{language}/`): as the repository
//! holds it with its pending edits written, or converted with
//! `?format=` (`po`, `xliff`, `csv`...), offered to save.

use actix_web::http::header::{
    CACHE_CONTROL, ContentDisposition, DispositionParam, DispositionType, X_CONTENT_TYPE_OPTIONS,
};
use actix_web::{HttpResponse, web};
use serde::Deserialize;

use crate::error::{WebError, refused};
use crate::page::blocking;
use crate::paths::TranslationPath;
use crate::site::Pages;
use crate::visitor::Visitor;

/// Registers the download.
pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/download/{project}/{rest:.+}", web::get().to(download));
}

/// What the download's address asks for.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct DownloadQuery {
    /// The converter; the file as stored when empty.
    format: String,
}

/// The converted downloads a translation's page offers, by converter and
/// name (each fits every format).
pub const OFFERED: &[(&str, &str)] =
    &[("po", "gettext PO"), ("xliff", "XLIFF 1.2"), ("csv", "CSV")];

async fn download(
    visitor: Visitor,
    params: web::Path<(String, String)>,
    query: web::Query<DownloadQuery>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    let path = TranslationPath::parse(&params.0, &params.1).ok_or(WebError::NotFound)?;
    let format = Some(query.format.clone()).filter(|f| !f.is_empty());
    let (service, subject) = (pages.service.clone(), visitor.subject.clone());
    let file = blocking(move || {
        service
            .files()
            .translation(&subject, path.key(), format.as_deref(), None)
    })
    .await?
    .map_err(refused)?;
    let mime = if file.charset {
        format!("{}; charset=utf-8", file.mime)
    } else {
        file.mime.to_owned()
    };
    Ok(HttpResponse::Ok()
        .content_type(mime)
        .insert_header(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::Filename(file.name)],
        })
        .insert_header((X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((CACHE_CONTROL, "no-store"))
        .body(file.bytes))
}
