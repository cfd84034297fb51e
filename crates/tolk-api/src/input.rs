//! Request bodies: JSON, form-encoded or multipart, read into one shape and
//! checked field by field so that a 400 lists every invalid field.

use actix_web::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use actix_web::{HttpRequest, web};
use chrono::{DateTime, NaiveDateTime};
use futures_util::StreamExt;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use tolk_domain::validation::FieldErrors;

use crate::error::ApiError;

/// Largest request body read, in bytes.
pub const MAX_BODY: usize = 4 * 1024 * 1024;

/// The fields of a request body.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Input {
    fields: Map<String, Value>,
    /// Form bodies carry only text; values are converted per field.
    form: bool,
}

/// True for PATCH: absent fields keep their values. PUT needs every required field.
pub fn is_partial(req: &HttpRequest) -> bool {
    req.method() == actix_web::http::Method::PATCH
}

/// The type a field accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Text.
    Str,
    /// Boolean (forms: `true/false/1/0/yes/no/on/off`).
    Bool,
    /// Integer.
    Int,
    /// Id of another object, or null.
    OptId,
    /// List of texts.
    StrList,
    /// ISO 8601 date and time, or null.
    OptDateTime,
    /// A nested object with its own fields.
    Object(&'static [Field]),
}

/// A writable field of a resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// Name in the request body.
    pub name: &'static str,
    /// Accepted type.
    pub kind: Kind,
    /// Must be present on create and full update.
    pub required: bool,
}

impl Field {
    /// An optional field.
    pub const fn optional(name: &'static str, kind: Kind) -> Self {
        Self {
            name,
            kind,
            required: false,
        }
    }

    /// A required field.
    pub const fn required(name: &'static str, kind: Kind) -> Self {
        Self {
            name,
            kind,
            required: true,
        }
    }
}

impl Input {
    /// Reads the body according to its content type. An empty body, or one
    /// without a content type, is an empty input; malformed JSON is a parse
    /// error; unknown types are 415; a body over [`MAX_BODY`] is 413.
    pub async fn read(req: &HttpRequest, payload: web::Payload) -> Result<Input, ApiError> {
        let declared = req
            .headers()
            .get(CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|length| length > MAX_BODY as u64) {
            return Err(ApiError::TooLarge(MAX_BODY));
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
            return read_multipart(req, payload).await;
        }
        let body = read_body(payload).await?;
        if body.iter().all(u8::is_ascii_whitespace) {
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

    /// Builds input from a JSON object, as a JSON body would give.
    pub fn from_json(fields: Map<String, Value>) -> Self {
        Self {
            fields,
            form: false,
        }
    }

    /// True when the body has this field.
    pub fn has(&self, name: &str) -> bool {
        self.fields.contains_key(name)
    }

    /// Overlays the given fields of the body on `current` and converts the
    /// result back. `partial` (PATCH) leaves absent required fields alone;
    /// otherwise they are reported as missing.
    pub fn apply<T: Serialize + DeserializeOwned>(
        &self,
        current: &T,
        fields: &[Field],
        partial: bool,
    ) -> Result<T, FieldErrors> {
        let mut value = serde_json::to_value(current).unwrap_or(Value::Null);
        let mut errors = FieldErrors::default();
        if let Value::Object(target) = &mut value {
            merge(
                target,
                &self.fields,
                self.form,
                fields,
                "",
                partial,
                &mut errors,
            );
        }
        errors.into_result()?;
        serde_json::from_value(value).map_err(|e| {
            let mut errors = FieldErrors::default();
            errors.push("non_field_errors", "invalid", e.to_string());
            errors
        })
    }
}

async fn read_body(mut payload: web::Payload) -> Result<Vec<u8>, ApiError> {
    let mut body = Vec::new();
    while let Some(chunk) = payload.next().await {
        let chunk =
            chunk.map_err(|e| ApiError::Parse(format!("Could not read the request body: {e}")))?;
        if body.len() + chunk.len() > MAX_BODY {
            return Err(ApiError::TooLarge(MAX_BODY));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

fn parse_json(body: &[u8]) -> Result<Input, ApiError> {
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(fields)) => Ok(Input::from_json(fields)),
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

/// Form fields: a repeated key becomes a list.
fn from_pairs(pairs: impl Iterator<Item = (String, String)>) -> Input {
    let mut fields = Map::new();
    for (key, value) in pairs {
        match fields.get_mut(&key) {
            Some(Value::Array(list)) => list.push(Value::String(value)),
            Some(existing) => {
                let first = existing.take();
                *existing = Value::Array(vec![first, Value::String(value)]);
            }
            None => {
                fields.insert(key, Value::String(value));
            }
        }
    }
    Input { fields, form: true }
}

async fn read_multipart(req: &HttpRequest, payload: web::Payload) -> Result<Input, ApiError> {
    let mut multipart = actix_multipart::Multipart::new(req.headers(), payload.into_inner());
    let mut pairs = Vec::new();
    let mut total = 0usize;
    while let Some(field) = multipart.next().await {
        let mut field =
            field.map_err(|e| ApiError::Parse(format!("Multipart form parse error - {e}")))?;
        let name = field.name().unwrap_or_default().to_owned();
        let mut data = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk =
                chunk.map_err(|e| ApiError::Parse(format!("Multipart form parse error - {e}")))?;
            total += chunk.len();
            if total > MAX_BODY {
                return Err(ApiError::TooLarge(MAX_BODY));
            }
            data.extend_from_slice(&chunk);
        }
        pairs.push((name, String::from_utf8_lossy(&data).into_owned()));
    }
    Ok(from_pairs(pairs.into_iter()))
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "int",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}

fn merge(
    target: &mut Map<String, Value>,
    input: &Map<String, Value>,
    form: bool,
    fields: &[Field],
    prefix: &str,
    partial: bool,
    errors: &mut FieldErrors,
) {
    for field in fields {
        let attr = format!("{prefix}{}", field.name);
        let Some(given) = input.get(field.name) else {
            if field.required && !partial {
                errors.required(&attr);
            }
            continue;
        };
        if let Kind::Object(nested) = field.kind {
            match given {
                Value::Object(map) => {
                    let slot = target
                        .entry(field.name)
                        .or_insert_with(|| Value::Object(Map::new()));
                    if let Value::Object(inner) = slot {
                        merge(
                            inner,
                            map,
                            false,
                            nested,
                            &format!("{attr}."),
                            partial,
                            errors,
                        );
                    }
                }
                other => errors.push(
                    &attr,
                    "invalid",
                    format!(
                        "Invalid data. Expected a dictionary, but got {}.",
                        json_type(other)
                    ),
                ),
            }
            continue;
        }
        match coerce(given, field.kind, form) {
            Ok(value) => {
                target.insert(field.name.to_owned(), value);
            }
            Err((code, detail)) => errors.push(&attr, code, detail),
        }
    }
}

type Coerced = Result<Value, (&'static str, String)>;

/// Converts one given value to the field's type, with DRF's messages.
fn coerce(given: &Value, kind: Kind, form: bool) -> Coerced {
    let null_ok = matches!(kind, Kind::OptId | Kind::OptDateTime);
    if given.is_null() {
        return if null_ok {
            Ok(Value::Null)
        } else {
            Err(("null", "This field may not be null.".into()))
        };
    }
    // A single form value for a list field is a one-item list; several
    // values for a scalar field keep the last, as forms do.
    let given = match (given, kind) {
        (Value::Array(items), k) if form && k != Kind::StrList => {
            items.last().unwrap_or(&Value::Null)
        }
        _ => given,
    };
    match kind {
        Kind::Str => match given {
            Value::String(s) => text(s),
            Value::Number(n) => Ok(Value::String(n.to_string())),
            _ => Err(("invalid", "Not a valid string.".into())),
        },
        Kind::Bool => coerce_bool(given),
        Kind::Int => coerce_int(given).ok_or(("invalid", "A valid integer is required.".into())),
        Kind::OptId => match given {
            Value::String(s) if form && s.is_empty() => Ok(Value::Null),
            _ => coerce_int(given).ok_or((
                "incorrect_type",
                format!(
                    "Incorrect type. Expected pk value, received {}.",
                    json_type(given)
                ),
            )),
        },
        Kind::StrList => coerce_list(given, form),
        Kind::OptDateTime => coerce_datetime(given, form),
        Kind::Object(_) => Err(("invalid", "Expected a dictionary.".into())),
    }
}

/// A text value; databases cannot store NUL, so it is refused as Django does.
fn text(s: &str) -> Coerced {
    if s.contains('\0') {
        Err(("null_characters_not_allowed", NUL_MESSAGE.into()))
    } else {
        Ok(Value::String(s.to_owned()))
    }
}

/// Django's message for text holding a NUL character.
pub const NUL_MESSAGE: &str = "Null characters are not allowed.";

fn coerce_bool(given: &Value) -> Coerced {
    let truth = match given {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => match n.as_i64() {
            Some(1) => Some(true),
            Some(0) => Some(false),
            _ => None,
        },
        Value::String(s) => match s.to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" | "on" | "y" | "t" => Some(true),
            "false" | "0" | "no" | "off" | "n" | "f" => Some(false),
            _ => None,
        },
        _ => None,
    };
    truth
        .map(Value::Bool)
        .ok_or(("invalid", "Must be a valid boolean.".into()))
}

fn coerce_int(given: &Value) -> Option<Value> {
    match given {
        Value::Number(n) => n.as_i64().map(Value::from),
        Value::String(s) => s.trim().parse::<i64>().ok().map(Value::from),
        _ => None,
    }
}

fn coerce_list(given: &Value, form: bool) -> Coerced {
    let items: Vec<&Value> = match given {
        Value::Array(items) => items.iter().collect(),
        Value::String(_) if form => vec![given],
        other => {
            return Err((
                "not_a_list",
                format!(
                    "Expected a list of items but got type \"{}\".",
                    json_type(other)
                ),
            ));
        }
    };
    items
        .into_iter()
        .map(|item| match item {
            Value::String(s) => text(s),
            _ => Err(("invalid", "Not a valid string.".into())),
        })
        .collect::<Result<Vec<Value>, _>>()
        .map(Value::Array)
}

fn coerce_datetime(given: &Value, form: bool) -> Coerced {
    let wrong = || {
        (
            "invalid",
            "Datetime has wrong format. Use one of these formats instead: \
             YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."
                .to_owned(),
        )
    };
    let Value::String(text) = given else {
        return Err(wrong());
    };
    if form && text.is_empty() {
        return Ok(Value::Null);
    }
    let parsed = parse_datetime(text).ok_or_else(wrong)?;
    serde_json::to_value(parsed).map_err(|_| wrong())
}

/// Parses an ISO 8601 date and time; without an offset it is taken as UTC.
pub fn parse_datetime(text: &str) -> Option<NaiveDateTime> {
    let text = text.trim();
    if let Ok(with_offset) = DateTime::parse_from_rfc3339(text) {
        return Some(with_offset.naive_utc());
    }
    [
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%d %H:%M:%S%.f",
        "%Y-%m-%d %H:%M",
    ]
    .iter()
    .find_map(|f| NaiveDateTime::parse_from_str(text, f).ok())
    .or_else(|| {
        chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d")
            .ok()
            .and_then(|d| d.and_hms_opt(0, 0, 0))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Thing {
        name: String,
        count: i64,
        active: bool,
        tags: Vec<String>,
        parent: Option<i64>,
        nested: Nested,
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Nested {
        flag: bool,
    }

    const NESTED: &[Field] = &[Field::optional("flag", Kind::Bool)];
    const FIELDS: &[Field] = &[
        Field::required("name", Kind::Str),
        Field::optional("count", Kind::Int),
        Field::optional("active", Kind::Bool),
        Field::optional("tags", Kind::StrList),
        Field::optional("parent", Kind::OptId),
        Field::optional("nested", Kind::Object(NESTED)),
    ];

    fn thing() -> Thing {
        Thing {
            name: "a".into(),
            count: 1,
            active: false,
            tags: vec![],
            parent: None,
            nested: Nested { flag: false },
        }
    }

    fn json_input(v: Value) -> Input {
        match v {
            Value::Object(map) => Input::from_json(map),
            _ => unreachable!(),
        }
    }

    #[test]
    fn json_fields_are_typed_and_merged() {
        let input = json_input(json!({
            "name": "b", "count": "7", "active": true, "tags": ["x"],
            "parent": 3, "nested": {"flag": "yes"}, "unknown": 1
        }));
        let out = input.apply(&thing(), FIELDS, false).unwrap();
        assert_eq!(
            out,
            Thing {
                name: "b".into(),
                count: 7,
                active: true,
                tags: vec!["x".into()],
                parent: Some(3),
                nested: Nested { flag: true },
            }
        );
    }

    #[test]
    fn every_bad_field_is_reported() {
        let input = json_input(json!({
            "count": "x", "active": "maybe", "tags": "x", "parent": "p", "nested": {"flag": 2}
        }));
        let errors = input.apply(&thing(), FIELDS, false).unwrap_err();
        let got: Vec<(String, String)> = errors
            .into_iter()
            .map(|e| (e.attr.unwrap(), e.code))
            .collect();
        let expected = [
            ("name", "required"),
            ("count", "invalid"),
            ("active", "invalid"),
            ("tags", "not_a_list"),
            ("parent", "incorrect_type"),
            ("nested.flag", "invalid"),
        ];
        assert_eq!(
            got,
            expected
                .iter()
                .map(|(a, c)| ((*a).to_owned(), (*c).to_owned()))
                .collect::<Vec<_>>()
        );
        let partial = json_input(json!({"name": null}))
            .apply(&thing(), FIELDS, true)
            .unwrap_err();
        assert_eq!(partial.iter().next().unwrap().code, "null");
    }

    #[test]
    fn nul_characters_are_refused_in_text() {
        let input = json_input(json!({"name": "a\u{0}b", "tags": ["ok", "\u{0}"]}));
        let errors = input.apply(&thing(), FIELDS, true).unwrap_err();
        let got: Vec<(String, String, String)> = errors
            .into_iter()
            .map(|e| (e.attr.unwrap(), e.code, e.detail))
            .collect();
        let expected = ["name", "tags"].map(|attr| {
            (
                attr.to_owned(),
                "null_characters_not_allowed".to_owned(),
                NUL_MESSAGE.to_owned(),
            )
        });
        assert_eq!(got, expected);
    }

    #[test]
    fn form_values_are_text() {
        let input = from_pairs(
            [
                ("name", "c"),
                ("active", "on"),
                ("tags", "a"),
                ("tags", "b"),
                ("parent", ""),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v.to_owned())),
        );
        let out = input.apply(&thing(), FIELDS, true).unwrap();
        assert!(out.active);
        assert_eq!(out.tags, vec!["a", "b"]);
        assert_eq!(out.parent, None);
    }

    #[test]
    fn datetimes() {
        let dt = parse_datetime("2026-05-04T09:00:00Z").unwrap();
        assert_eq!(dt.to_string(), "2026-05-04 09:00:00");
        assert_eq!(
            parse_datetime("2026-05-04T11:00:00+02:00").unwrap(),
            dt,
            "offsets are converted to UTC"
        );
        assert!(parse_datetime("2026-05-04").is_some());
        assert!(parse_datetime("yesterday").is_none());
    }
}
