//! Points in time as the API writes and reads them: UTC, ISO 8601.

use chrono::{DateTime, NaiveDate, NaiveDateTime};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A point in time in UTC. Reads ISO 8601 with or without an offset (an
/// offset is converted to UTC, none means UTC) or a bare date (midnight);
/// writes `2026-03-29T18:42:42.617681Z`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UtcTime(pub NaiveDateTime);

/// What a client is told when a time does not parse.
pub const INVALID_TIME: &str = "Datetime has wrong format. Use one of these formats instead: \
     YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].";

impl UtcTime {
    /// Parses ISO 8601 text.
    pub fn parse(text: &str) -> Option<UtcTime> {
        let text = text.trim();
        if let Ok(with_offset) = DateTime::parse_from_rfc3339(text) {
            return Some(UtcTime(with_offset.naive_utc()));
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
            NaiveDate::parse_from_str(text, "%Y-%m-%d")
                .ok()
                .and_then(|d| d.and_hms_opt(0, 0, 0))
        })
        .map(UtcTime)
    }

    /// The API's text form: UTC with microseconds and `Z`.
    pub fn to_api(self) -> String {
        // RFC 3339's writer, not a format string read anew for every time.
        self.0
            .and_utc()
            .to_rfc3339_opts(chrono::SecondsFormat::Micros, true)
    }
}

impl Serialize for UtcTime {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_api())
    }
}

impl<'de> Deserialize<'de> for UtcTime {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        UtcTime::parse(&text).ok_or_else(|| serde::de::Error::custom(INVALID_TIME))
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for UtcTime {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for UtcTime {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_iso_8601_and_writes_utc() {
        let at = UtcTime::parse("2026-05-04T09:00:00Z").unwrap();
        assert_eq!(at.to_api(), "2026-05-04T09:00:00.000000Z");
        assert_eq!(
            UtcTime::parse("2026-05-04T11:00:00+02:00"),
            Some(at),
            "offsets are converted to UTC"
        );
        assert!(UtcTime::parse("2026-05-04").is_some());
        assert!(UtcTime::parse("yesterday").is_none());
        let json = serde_json::to_string(&at).unwrap();
        assert_eq!(serde_json::from_str::<UtcTime>(&json).unwrap(), at);
    }
}
