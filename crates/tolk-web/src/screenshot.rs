//! A screenshot's image as the editor shows it (`/screenshots/{id}/image/`),
//! to whoever may see its translation (the API's file address knows only
//! tokens, not the pages' sessions), with the type its extension names.
//! Images are small (uploads are capped), so one is read whole.

use actix_web::http::header::{CACHE_CONTROL, X_CONTENT_TYPE_OPTIONS};
use actix_web::{HttpResponse, web};

use tolk_service::ServiceError;

use crate::error::{WebError, refused};
use crate::page::blocking;
use crate::site::Pages;
use crate::visitor::Visitor;

/// Registers the image's address.
pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/screenshots/{id}/image/", web::get().to(image));
}

/// The address of a screenshot's image.
pub(crate) fn image_href(id: i64) -> String {
    format!("/screenshots/{id}/image/")
}

/// The type of an image Tolk keeps, by its file's extension.
fn image_type(name: &str) -> &'static str {
    match name.rsplit('.').next() {
        Some("png") => "image/png",
        Some("jpg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("webp") => "image/webp",
        _ => "application/octet-stream",
    }
}

async fn image(
    visitor: Visitor,
    id: web::Path<i64>,
    pages: web::Data<Pages>,
) -> Result<HttpResponse, WebError> {
    let (service, subject, id) = (pages.service.clone(), visitor.subject.clone(), *id);
    let (name, file) = blocking(move || {
        let (path, name) = service.screenshots().image(&subject, id)?;
        // Gone since it was found: as if it never was.
        let file = std::fs::read(path).map_err(|_| ServiceError::NotFound)?;
        Ok((name, file))
    })
    .await?
    .map_err(refused)?;
    Ok(HttpResponse::Ok()
        .content_type(image_type(&name))
        .insert_header((X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((CACHE_CONTROL, "private, max-age=3600"))
        .body(file))
}
