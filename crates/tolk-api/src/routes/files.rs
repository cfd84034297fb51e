//! File downloads: the bytes with their media type, a file name to save
//! them as, and `Last-Modified` (answering `If-Modified-Since` with 304).

use actix_web::http::header::{
    self, ContentDisposition, DispositionParam, DispositionType, HttpDate,
};
use actix_web::{HttpRequest, HttpResponse};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tolk_service::files::Download;

/// A file's bytes, as the OpenAPI document describes a download.
pub struct FileBytes;

impl utoipa::PartialSchema for FileBytes {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
            .into()
    }
}

impl utoipa::ToSchema for FileBytes {}

/// The answer serving `file`.
pub fn download(req: &HttpRequest, file: Download) -> HttpResponse {
    let modified = file.modified.map(|at| {
        let seconds = u64::try_from(at.and_utc().timestamp()).unwrap_or(0);
        HttpDate::from(UNIX_EPOCH + Duration::from_secs(seconds))
    });
    if let Some(modified) = modified {
        let since = req
            .headers()
            .get(header::IF_MODIFIED_SINCE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<HttpDate>().ok());
        if since.is_some_and(|since| SystemTime::from(modified) <= SystemTime::from(since)) {
            return HttpResponse::NotModified()
                .insert_header(header::LastModified(modified))
                .finish();
        }
    }
    let mut response = HttpResponse::Ok();
    response
        .content_type(file.mime)
        .insert_header(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::Filename(file.name)],
        });
    if let Some(modified) = modified {
        response.insert_header(header::LastModified(modified));
    }
    response.body(file.bytes)
}
