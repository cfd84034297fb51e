//! Query strings read as Weblate's filters (django-filter) read them, into
//! the typed struct that also documents them (`IntoParams`): a key given
//! with an empty value is not given (`?action=` filters nothing), a key
//! given several times takes its last value unless the field is a list,
//! and every bad parameter is a 400 naming it (see [`crate::fields`]).

use serde::de::DeserializeOwned;

use crate::error::ApiError;
use crate::fields::{self, Dialect};

/// Parses a query string into `T`; every bad parameter is reported.
pub fn parse<T: DeserializeOwned>(query: &str) -> Result<T, ApiError> {
    let given = form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .filter(|(_, value)| !value.is_empty());
    Ok(fields::parse(fields::text_entries(given), Dialect::Query)?)
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    #[derive(Debug, Default, PartialEq, Deserialize)]
    struct Filters {
        user: Option<String>,
        active: Option<bool>,
        id: Option<i64>,
        action: Option<Vec<i32>>,
    }

    fn errors(query: &str) -> Vec<(String, String, String)> {
        match parse::<Filters>(query).unwrap_err() {
            ApiError::Validation(errors) => errors
                .into_iter()
                .map(|e| (e.attr.unwrap_or_default(), e.code, e.detail))
                .collect(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn empty_values_are_no_filter_and_the_last_value_wins() {
        assert_eq!(
            parse::<Filters>("user=&active=&id=&action=").unwrap(),
            Filters::default()
        );
        let parsed: Filters = parse("user=a&user=b&id=1&id=2&action=5&action=&action=7").unwrap();
        assert_eq!(
            parsed,
            Filters {
                user: Some("b".into()),
                active: None,
                id: Some(2),
                action: Some(vec![5, 7]),
            }
        );
    }

    #[test]
    fn booleans_as_django_filter_reads_them() {
        for (text, truth) in [
            ("True", true),
            ("true", true),
            ("1", true),
            ("False", false),
            ("false", false),
            ("0", false),
        ] {
            let parsed: Filters = parse(&format!("active={text}")).unwrap();
            assert_eq!(parsed.active, Some(truth), "{text}");
        }
        assert_eq!(
            errors("active=maybe"),
            [(
                "active".to_owned(),
                "invalid_choice".to_owned(),
                "Select a valid choice. maybe is not one of the available choices.".to_owned()
            )]
        );
    }

    #[test]
    fn bad_values_name_their_parameter_in_plain_words() {
        assert_eq!(
            errors("id=x"),
            [(
                "id".to_owned(),
                "invalid".to_owned(),
                "Enter a number.".to_owned()
            )]
        );
        assert_eq!(errors("action=1&action=z")[0].0, "action");
        let nul = errors("user=%00&id=%00");
        assert_eq!(
            nul.iter()
                .map(|e| (e.0.as_str(), e.1.as_str()))
                .collect::<Vec<_>>(),
            [
                ("user", "null_characters_not_allowed"),
                ("id", "null_characters_not_allowed")
            ]
        );
    }
}
