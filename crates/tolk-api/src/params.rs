//! Typed query parameter values shared by several lists: each parses
//! itself with the message Weblate's filters give, and documents itself
//! in the OpenAPI document with the same rules.

use chrono::NaiveDateTime;
use serde::Deserialize;
use serde::de::{self, Deserializer};
use tolk_domain::change::Action;
use tolk_domain::time::UtcTime;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, Schema, SchemaFormat, Type};
use utoipa::{PartialSchema, ToSchema};

use crate::fields::Problem as QueryError;

/// A change action code (§32), one of the known codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActionCode(pub Action);

impl<'de> Deserialize<'de> for ActionCode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.trim()
            .parse::<i32>()
            .ok()
            .and_then(Action::from_code)
            .map(ActionCode)
            .ok_or_else(|| de::Error::custom(QueryError::invalid_choice(&text)))
    }
}

impl PartialSchema for ActionCode {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int32)))
            .enum_values(Some(Action::all().map(|a| a.0)))
            .description(Some("A change action code"))
            .into()
    }
}

impl ToSchema for ActionCode {}

/// A point in time as ISO 8601 (an offset is converted to UTC; none means
/// UTC), as a filter reads it: [`UtcTime`] with django-filter's message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timestamp(pub NaiveDateTime);

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        UtcTime::parse(&text)
            .map(|t| Timestamp(t.0))
            .ok_or_else(|| de::Error::custom(QueryError::invalid("Enter a valid date/time.")))
    }
}

impl PartialSchema for Timestamp {
    fn schema() -> RefOr<Schema> {
        UtcTime::schema()
    }
}

impl ToSchema for Timestamp {}
