//! Request bodies: JSON, form-encoded or multipart, read into one shape and
//! then into the request's typed body, field by field, so that a 400 lists
//! every invalid field.

use actix_web::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use actix_web::{HttpRequest, web};
use futures_util::StreamExt;
use serde::de::DeserializeOwned;
use serde_json::Value;
use tolk_domain::validation::FieldErrors;

use crate::error::ApiError;
use crate::fields::{self, Dialect, Entries, Given, json_type};

/// Largest request body read, in bytes.
pub const MAX_BODY: usize = 4 * 1024 * 1024;

/// The fields of a request body, as given.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Input {
    entries: Entries,
    /// Files of a multipart body: field name, file name and bytes as sent.
    files: Vec<(String, String, Vec<u8>)>,
}

/// True for PATCH: absent fields keep their values. PUT needs every required field.
pub fn is_partial(req: &HttpRequest) -> bool {
    req.method() == actix_web::http::Method::PATCH
}

impl Input {
    /// Reads the body according to its content type. An empty body, or one
    /// without a content type, is an empty input (a JSON body of white
    /// space only is malformed, as for Weblate); malformed JSON is a parse
    /// error; unknown types are 415; a body over [`MAX_BODY`] is 413.
    pub async fn read(req: &HttpRequest, payload: web::Payload) -> Result<Input, ApiError> {
        Input::read_limited(req, payload, MAX_BODY).await
    }

    /// [`Input::read`] with a body of at most `limit` bytes (413 past it).
    pub async fn read_limited(
        req: &HttpRequest,
        payload: web::Payload,
        limit: usize,
    ) -> Result<Input, ApiError> {
        let declared = req
            .headers()
            .get(CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|length| length > limit as u64) {
            return Err(ApiError::TooLarge(limit));
        }
        let content_type = req
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned();
        if content_type.trim().is_empty() {
            return Ok(Input::default());
        }
        let media = content_type
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if media == "multipart/form-data" {
            return read_multipart(req, payload, limit).await;
        }
        let body = read_body(payload, limit).await?;
        if body.is_empty() {
            return Ok(Input::default());
        }
        match media.as_str() {
            "application/json" => parse_json(&body),
            m if m.ends_with("+json") => parse_json(&body),
            "application/x-www-form-urlencoded" => {
                Ok(from_pairs(form_urlencoded::parse(&body).into_owned()))
            }
            _ => Err(ApiError::UnsupportedMediaType(content_type)),
        }
    }

    /// The file sent in the multipart field `name`, if any: its file name
    /// and bytes.
    pub fn file(&self, name: &str) -> Option<(&str, &[u8])> {
        self.files
            .iter()
            .find(|(field, _, _)| field == name)
            .map(|(_, file_name, bytes)| (file_name.as_str(), bytes.as_slice()))
    }

    /// True when the body has the field `name`.
    pub fn has(&self, name: &str) -> bool {
        self.entries.iter().any(|(key, _)| key == name)
    }

    /// The field `name` when it is given as one text.
    pub fn text(&self, name: &str) -> Option<&str> {
        match self.entries.iter().find(|(key, _)| key == name)?.1 {
            Given::Text(ref values) => values.first().map(String::as_str),
            Given::Json(Value::String(ref text)) => Some(text),
            _ => None,
        }
    }

    /// Gives the field `name` the text `value` unless the body has it.
    pub fn fill(&mut self, name: &str, value: String) {
        if !self.has(name) {
            self.entries
                .push((name.to_owned(), Given::Text(vec![value])));
        }
    }

    /// Reads the body into `T`, the typed body of the request: every bad
    /// field is reported (see the `fields` module).
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, FieldErrors> {
        fields::parse(self.entries.clone(), Dialect::Body)
    }

    /// Reads a body that creates or replaces (POST, PUT: `C`) or changes
    /// (PATCH: `P`) a resource, as the change it amounts to.
    pub fn parse_change<C, P>(&self, partial: bool) -> Result<P, FieldErrors>
    where
        C: DeserializeOwned + Into<P>,
        P: DeserializeOwned,
    {
        if partial {
            self.parse::<P>()
        } else {
            self.parse::<C>().map(Into::into)
        }
    }
}

async fn read_body(mut payload: web::Payload, limit: usize) -> Result<Vec<u8>, ApiError> {
    let mut body = Vec::new();
    while let Some(chunk) = payload.next().await {
        let chunk =
            chunk.map_err(|e| ApiError::Parse(format!("Could not read the request body: {e}")))?;
        if body.len() + chunk.len() > limit {
            return Err(ApiError::TooLarge(limit));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

fn parse_json(body: &[u8]) -> Result<Input, ApiError> {
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(fields)) => Ok(Input {
            entries: fields
                .into_iter()
                .map(|(key, value)| (key, Given::Json(value)))
                .collect(),
            files: Vec::new(),
        }),
        Ok(other) => Err(ApiError::field(
            "non_field_errors",
            "invalid",
            format!(
                "Invalid data. Expected a dictionary, but got {}.",
                json_type(&other)
            ),
        )),
        Err(e) => Err(ApiError::Parse(format!("JSON parse error - {e}"))),
    }
}

/// Form fields: every value of a repeated key is kept, in order.
fn from_pairs(pairs: impl Iterator<Item = (String, String)>) -> Input {
    Input {
        entries: fields::text_entries(pairs),
        files: Vec::new(),
    }
}

async fn read_multipart(
    req: &HttpRequest,
    payload: web::Payload,
    limit: usize,
) -> Result<Input, ApiError> {
    let mut multipart = actix_multipart::Multipart::new(req.headers(), payload.into_inner());
    let mut pairs = Vec::new();
    let mut files = Vec::new();
    let mut total = 0usize;
    while let Some(field) = multipart.next().await {
        let mut field =
            field.map_err(|e| ApiError::Parse(format!("Multipart form parse error - {e}")))?;
        let name = field.name().unwrap_or_default().to_owned();
        let file_name = field
            .content_disposition()
            .and_then(|d| d.get_filename())
            .map(str::to_owned);
        let mut data = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk =
                chunk.map_err(|e| ApiError::Parse(format!("Multipart form parse error - {e}")))?;
            total += chunk.len();
            if total > limit {
                return Err(ApiError::TooLarge(limit));
            }
            data.extend_from_slice(&chunk);
        }
        if let Some(file_name) = file_name {
            files.push((name, file_name, data));
        } else {
            pairs.push((name, String::from_utf8_lossy(&data).into_owned()));
        }
    }
    Ok(Input {
        files,
        ..from_pairs(pairs.into_iter())
    })
}
