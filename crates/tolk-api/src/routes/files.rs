//! File downloads: the bytes with their media type, a file name to save
//! them as, and `Last-Modified` (answering `If-Modified-Since` with 304);
//! what a translation file download may ask for.

use actix_web::http::header::{
    self, ContentDisposition, DispositionParam, DispositionType, HttpDate,
};
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse};
use serde::Deserialize;

use crate::error::ApiResult;
use crate::reply::blocking;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tolk_service::files::Download;
use tolk_service::zip_download::{ArchivePlan, ArchiveRequest};
use tolk_service::{Service, ServiceResult};
use utoipa::IntoParams;

/// The ids of the download converters (§29.9), as the OpenAPI document
/// lists them for `format`.
fn converter_ids() -> utoipa::openapi::schema::Object {
    crate::schemas::text_choices(tolk_service::conversion::CONVERTERS.iter().map(|c| c.id))
}

/// What a translation file download asks for.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FileQuery {
    /// The converter to download the translation's units with; the file
    /// as stored when absent.
    #[param(schema_with = converter_ids)]
    pub format: Option<String>,
    /// Only the units matching this search, in a converted download.
    #[param(max_length = 2000)]
    pub q: Option<String>,
}

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
    let mime = if file.charset {
        format!("{}; charset=utf-8", file.mime)
    } else {
        file.mime.to_owned()
    };
    response
        .content_type(mime)
        .insert_header(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::Filename(file.name)],
        });
    if let Some(modified) = modified {
        response.insert_header(header::LastModified(modified));
    }
    response.body(file.bytes)
}

/// What a ZIP download of a component or project asks for.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ArchiveQuery {
    /// `zip` (the default) for the repository's files, `zip:CONVERTER`
    /// (e.g. `zip:csv`) for each translation converted.
    pub format: Option<String>,
    /// Only the translations of this language.
    pub language_code: Option<String>,
}

/// What a ZIP download of one language of a project asks for.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LanguageArchiveQuery {
    /// `zip` (the default) for the repository's files, `zip:CONVERTER`
    /// (e.g. `zip:csv`) for each translation converted.
    pub format: Option<String>,
    /// Only components whose slug holds this text, in any case.
    pub filter: Option<String>,
}

/// A query string that says what a ZIP download holds.
pub trait ArchiveQueryString: serde::de::DeserializeOwned + Send + 'static {
    /// The request this query makes.
    fn request(&self) -> ArchiveRequest<'_>;
}

impl ArchiveQueryString for ArchiveQuery {
    fn request(&self) -> ArchiveRequest<'_> {
        ArchiveRequest {
            format: self.format.as_deref(),
            language: self.language_code.as_deref(),
            component: None,
        }
    }
}

impl ArchiveQueryString for LanguageArchiveQuery {
    fn request(&self) -> ArchiveRequest<'_> {
        ArchiveRequest {
            format: self.format.as_deref(),
            language: None,
            component: self.filter.as_deref(),
        }
    }
}

/// Bytes gathered before a chunk goes to the client.
const CHUNK: usize = 64 * 1024;

/// Chunks of a streamed download still to be sent, at most.
const CHUNKS_AHEAD: usize = 4;

/// A writer whose bytes go, a chunk at a time, through a bounded channel
/// to a response body; it fails once the client has left.
struct Chunks {
    sender: tokio::sync::mpsc::Sender<std::io::Result<Bytes>>,
    buffer: Vec<u8>,
}

impl std::io::Write for Chunks {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buffer.extend_from_slice(data);
        if self.buffer.len() >= CHUNK {
            self.flush()?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let chunk = Bytes::from(std::mem::take(&mut self.buffer));
        self.sender
            .blocking_send(Ok(chunk))
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the client left"))
    }
}

/// Answers a ZIP download: reads its query, has `plan` plan the archive
/// off the async workers, and streams it.
pub async fn archive_download<Q: ArchiveQueryString>(
    req: &HttpRequest,
    service: Service,
    plan: impl FnOnce(&Service, ArchiveRequest<'_>) -> ServiceResult<ArchivePlan> + Send + 'static,
) -> ApiResult<HttpResponse> {
    let query: Q = crate::query::parse(req.query_string())?;
    let planner = service.clone();
    let planned = blocking(move || plan(&planner, query.request())).await?;
    Ok(stream_archive(service, planned))
}

/// A response body that `write` fills on a blocking thread while the
/// client reads: the server holds a few chunks, whatever the size. A
/// failure is logged and breaks the body, so the client never takes a
/// cut answer for a whole one.
pub(crate) fn streamed(
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()> + Send + 'static,
) -> impl futures_util::Stream<Item = std::io::Result<Bytes>> {
    let (sender, receiver) = tokio::sync::mpsc::channel(CHUNKS_AHEAD);
    actix_web::rt::task::spawn_blocking(move || {
        let mut out = Chunks {
            sender: sender.clone(),
            buffer: Vec::with_capacity(CHUNK),
        };
        let written = write(&mut out).and_then(|()| std::io::Write::flush(&mut out));
        if let Err(cause) = written {
            tracing::error!(%cause, "a streamed download failed");
            let _ = sender.blocking_send(Err(std::io::Error::other("the download failed")));
        }
    });
    futures_util::stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|chunk| (chunk, receiver))
    })
}

/// The answer streaming the ZIP archive `plan` describes.
fn stream_archive(service: Service, plan: ArchivePlan) -> HttpResponse {
    let name = plan.name.clone();
    let body = streamed(move |out| {
        service
            .files()
            .write_archive(&plan, out)
            .map_err(|cause| std::io::Error::other(format!("archive {}: {cause}", plan.name)))
    });
    HttpResponse::Ok()
        .content_type("application/zip")
        .insert_header(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::Filename(name)],
        })
        .streaming(body)
}
