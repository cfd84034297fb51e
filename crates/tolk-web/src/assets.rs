//! The pages' style sheet and scripts, built into the binary: no build
//! step, nothing fetched from elsewhere.

use actix_web::http::header::{CACHE_CONTROL, CONTENT_TYPE, X_CONTENT_TYPE_OPTIONS};
use actix_web::{HttpResponse, web};
use rust_embed::RustEmbed;

use crate::error::WebError;

/// The files under `static/`.
#[derive(RustEmbed)]
#[folder = "static/"]
struct Assets;

/// Registers `/static/{file}`.
pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/static/{file}", web::get().to(asset));
}

/// The media type of an asset's name.
fn media_type(name: &str) -> Option<&'static str> {
    let extension = name.rsplit_once('.')?.1;
    Some(match extension {
        "css" => "text/css; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "svg" => "image/svg+xml",
        _ => return None,
    })
}

async fn asset(file: web::Path<String>) -> Result<HttpResponse, WebError> {
    let name = file.into_inner();
    let (Some(found), Some(media)) = (Assets::get(&name), media_type(&name)) else {
        return Err(WebError::NotFound);
    };
    Ok(HttpResponse::Ok()
        .insert_header((CONTENT_TYPE, media))
        .insert_header((X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((CACHE_CONTROL, "public, max-age=3600"))
        .body(found.data.into_owned()))
}
