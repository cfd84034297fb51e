//! Free-form JSON inside typed request bodies.

use serde::{Deserialize, Deserializer, Serialize};

/// The newtype name under which [`Json`] asks a deserializer for the
/// value as given; request readers that convert values (form text to
/// numbers, say) hand it over untouched.
pub const RAW_JSON: &str = "tolk::RawJson";

/// A JSON value taken as the client sent it (an add-on's configuration,
/// say), checked by the use-case rather than by its shape.
/// Request bodies document it as `value_type = Object` on their field.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Json(pub serde_json::Value);

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        struct Raw;
        impl<'de> serde::de::Visitor<'de> for Raw {
            type Value = Json;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON value")
            }

            fn visit_newtype_struct<D: Deserializer<'de>>(
                self,
                deserializer: D,
            ) -> Result<Json, D::Error> {
                serde_json::Value::deserialize(deserializer).map(Json)
            }
        }
        deserializer.deserialize_newtype_struct(RAW_JSON, Raw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_any_json() {
        let value: Json = serde_json::from_str(r#"{"a": [1, true]}"#).unwrap();
        assert_eq!(value.0, serde_json::json!({"a": [1, true]}));
    }
}
