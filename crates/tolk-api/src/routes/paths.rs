//! The paths that name components and translations, read from the URL and
//! documented as parameters by one type each.

use serde::{Deserialize, Deserializer};
use utoipa::IntoParams;

/// Reads a component segment: a component in a category is addressed as
/// `category%252Fslug` (§1.1), which reads `category%2Fslug` once the URL
/// is decoded and is decoded once more here into `category/slug`, the
/// component's full path. Lookups by slug find only components outside
/// categories, so such a path reaches nothing until categories exist.
pub(crate) fn component_segment<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<String, D::Error> {
    let segment = String::deserialize(deserializer)?;
    Ok(percent_encoding::percent_decode_str(&segment)
        .decode_utf8_lossy()
        .into_owned())
}

/// A component's place: `/…/{project}/{component}/…`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct ComponentPath {
    /// Project slug.
    pub project: String,
    /// Component slug, after its categories' slugs when in a category
    /// (`category%252Fslug`).
    #[serde(deserialize_with = "component_segment")]
    pub component: String,
}

/// A translation's place: `/…/{project}/{component}/{language}/…`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct TranslationPath {
    /// Project slug.
    pub project: String,
    /// Component slug, after its categories' slugs when in a category
    /// (`category%252Fslug`).
    #[serde(deserialize_with = "component_segment")]
    pub component: String,
    /// Language code.
    pub language: String,
}

impl TranslationPath {
    /// The three parts, as the use-cases take them.
    pub fn parts(&self) -> (&str, &str, &str) {
        (&self.project, &self.component, &self.language)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_component_segment_is_decoded_once_more() {
        let read = |segment: &str| -> ComponentPath {
            serde_json::from_value(serde_json::json!({"project": "demo", "component": segment}))
                .unwrap()
        };
        assert_eq!(read("cat%2Fsub%2Fapp").component, "cat/sub/app");
        assert_eq!(read("app").component, "app");
    }
}
